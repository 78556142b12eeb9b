// /api/v1 routes of the reasoning calls (packages/kb/README.md, "Reasoning over evidence"): each is one library
// call, on the live base or, with `as_of`, on the view as of that moment. The library checks the arguments
// and names the field in its errors; the schemas here document them and bound their sizes.
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { KbNotFoundError, type KbDB } from '@evident/kb';
import * as S from '../surface/schemas.js';
import * as R from '../surface/reasoning-schemas.js';
import { toClaimInput, viewAt } from '../surface/calls.js';
import { ownTurnJson, withRetryAfter } from './long-calls.js';

/** The most one what-if request names: sources to retract, claims to add. */
const WHAT_IF_MAX_SOURCES = 1000;
const WHAT_IF_MAX_CLAIMS = 10_000;

const ERR: Record<number, string> = {
  400: 'Invalid parameters (details: [{ path, message }], JSON pointers)',
  401: 'Missing or invalid bearer token',
  404: 'Unknown entity, claim or source',
  500: 'Internal error (logged with the request id)',
};
const errors = () => Object.fromEntries([400, 401, 404, 500].map((c) => [c, { ...S.ErrorBody, description: ERR[c] }]));
const AsOf = Type.Optional(
  Type.String({ minLength: 1, maxLength: 64, description: 'ISO 8601: answer as of that moment (an at() view)' }),
);
const Ref = (description: string) => Type.String({ minLength: 1, maxLength: 1000, description });
const Limit = (dflt: number, max: number) => Type.Optional(Type.Integer({ minimum: 1, maximum: max, default: dflt }));
const query = (props: Parameters<typeof Type.Object>[0]) =>
  Type.Object({ ...props, as_of: AsOf }, { additionalProperties: false });

export async function registerReasoningRoutes(api: FastifyInstance, db: KbDB): Promise<void> {
  const get = <Q, P>(
    url: string,
    summary: string,
    schema: { querystring?: TSchema; params?: TSchema; response: TSchema; tags?: string[] },
    run: (view: Awaited<ReturnType<typeof viewAt>>, q: Q, p: P) => Promise<unknown>,
  ) =>
    api.get(
      url,
      {
        schema: {
          tags: schema.tags ?? ['insights'],
          summary,
          ...(schema.params ? { params: schema.params } : {}),
          querystring: schema.querystring ?? query({}),
          response: { 200: schema.response, ...errors() },
        },
      },
      async (req) => {
        const q = req.query as Q & { as_of?: string };
        return run(await viewAt(db, q.as_of), q, req.params as P);
      },
    );

  get<{ cascade?: boolean }, { source_id: string }>(
    '/insights/impact/:source_id',
    'What retracting the source (cascade: also degrading what derives from it) would retract, degrade, orphan and weaken; nothing is written',
    {
      params: Type.Object({ source_id: Ref('Source id, URL-encoded') }),
      querystring: query({ cascade: Type.Optional(Type.Boolean({ default: true })) }),
      response: R.Impact,
    },
    (v, q, p) => v.impact(p.source_id, { cascade: q.cascade ?? true }),
  );

  get<object, { id: string }>(
    '/claims/:id/audit',
    "A claim's provenance trail: source, derived_from chain, dependants, corroboration, retraction events",
    { tags: ['claims'], params: Type.Object({ id: Ref('Claim id') }), response: R.ClaimAudit },
    async (v, _q, p) => {
      const a = await v.audit(p.id);
      if (a.kind !== 'claim') throw new KbNotFoundError('claim', p.id);
      return a;
    },
  );

  get<object, { id: string }>(
    '/entities/:id/audit',
    'The provenance trail of every claim about an entity, retracted ones included',
    { tags: ['entities'], params: Type.Object({ id: Ref('Entity id or name, URL-encoded') }), response: R.EntityAudit },
    async (v, _q, p) => {
      const a = await v.audit(p.id);
      if (a.kind !== 'entity') throw new KbNotFoundError('entity', p.id);
      return a;
    },
  );

  get<{ since: string; until?: string; limit?: number }, object>(
    '/insights/drift',
    'What changed in (since, until]: claims added, retracted, degraded; new entities; changed relationships',
    {
      querystring: query({
        since: Type.String({ minLength: 1, maxLength: 64, description: 'ISO 8601' }),
        until: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'ISO 8601; default now' })),
        limit: Limit(100, 100_000),
      }),
      response: R.Drift,
    },
    (v, q) => v.drift(q),
  );

  get<{ limit?: number }, object>(
    '/insights/fragile',
    'Single-source relationships that other claims derive from or many paths pass through',
    { querystring: query({ limit: Limit(20, 10_000) }), response: R.Fragile },
    async (v, q) => ({ relationships: await v.fragile(q) }),
  );

  get<{ days: number; limit?: number }, object>(
    '/insights/stale',
    'Relationships whose newest active claim is older than `days`',
    {
      querystring: query({ days: Type.Number({ minimum: 0, maximum: 36_500 }), limit: Limit(100, 100_000) }),
      response: R.Stale,
    },
    (v, q) => v.stale(q),
  );

  get<{ by?: 'source' | 'source_type'; limit?: number }, object>(
    '/insights/source-reliability',
    'Per source (or source type): claims, corroborated, retracted, contradicted fractions, reliability score',
    {
      querystring: query({
        by: Type.Optional(Type.Union([Type.Literal('source'), Type.Literal('source_type')], { default: 'source' })),
        limit: Limit(1000, 1_000_000),
      }),
      response: R.SourceReliability,
    },
    async (v, q) => ({ sources: await v.sourceReliability(q) }),
  );

  get<{ other?: string }, { id: string }>(
    '/insights/consensus/:id',
    'What sources assert about an entity (or between it and `other`), how many agree, and contradictions',
    {
      params: Type.Object({ id: Ref('Entity id or name, URL-encoded') }),
      querystring: query({ other: Type.Optional(Ref('A second entity')) }),
      response: R.Consensus,
    },
    (v, q, p) => (q.other === undefined ? v.consensus(p.id) : v.consensus(p.id, q.other)),
  );

  get<{ top_k?: number }, { id: string }>(
    '/insights/predict/:id',
    'Two-hop inferences by the vocabulary table of predicate compositions, not already stated',
    {
      params: Type.Object({ id: Ref('Entity id or name, URL-encoded') }),
      querystring: query({ top_k: Limit(10, 1000) }),
      response: R.Predictions,
    },
    async (v, q, p) => ({ predictions: await v.predict(p.id, q) }),
  );

  get<object, { id: string }>(
    '/insights/evolution/:id',
    "An entity's timeline and each relationship's confidence after every change",
    { params: Type.Object({ id: Ref('Entity id or name, URL-encoded') }), response: R.Evolution },
    (v, _q, p) => v.evolution(p.id),
  );

  get<{ min_claims?: number; limit?: number }, object>(
    '/insights/blindspots',
    'Thin vocabulary types and predicates, one-predicate entities, one-source-type relationships',
    {
      querystring: query({ min_claims: Limit(5, 1_000_000), limit: Limit(100, 100_000) }),
      response: R.Blindspots,
    },
    (v, q) => v.blindspots(q),
  );

  get<{ subject: string; predicate: string; object: string }, object>(
    '/insights/hypothesis',
    'Evidence for and against `subject predicate object`, and a verdict',
    {
      querystring: query({ subject: Ref('Entity'), predicate: Ref('Predicate'), object: Ref('Entity') }),
      response: R.HypothesisTest,
    },
    (v, q) => v.testHypothesis(q.subject, q.predicate, q.object),
  );

  // In a context of its own: its body (up to 10,000 claims, about 2 MB) is parsed and checked in a turn of the
  // event loop of its own (long-calls.ts).
  await api.register(async (scope) => {
    ownTurnJson(scope);
    registerWhatIf(scope, db);
  });
}

function registerWhatIf(api: FastifyInstance, db: KbDB): void {
  api.post(
    '/insights/what-if',
    {
      schema: {
        tags: ['insights'],
        summary: 'The base with sources retracted and claims added, in memory only: counts, health, a hypothesis',
        description:
          "Computed on the base's replica thread, so the console keeps answering meanwhile: at most 1000 sources " +
          'and 10,000 claims (400 naming the field past either), stopped past timeout_ms (408 what_if_timeout) or ' +
          "its thread's heap cap (413 what_if_memory_limit); 429 busy (Retry-After) when too many calls are waiting.",
        body: Type.Object(
          {
            retract_sources: Type.Optional(Type.Array(Ref('Source id'), { maxItems: WHAT_IF_MAX_SOURCES })),
            add_claims: Type.Optional(Type.Array(S.ClaimBody, { maxItems: WHAT_IF_MAX_CLAIMS })),
            hypothesis: Type.Optional(
              Type.Object(
                { subject: Ref('Entity'), predicate: Ref('Predicate'), object: Ref('Entity') },
                { additionalProperties: false },
              ),
            ),
            timeout_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: 120_000, description: 'Default 30 000' })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: R.WhatIf,
          ...errors(),
          ...Object.fromEntries([408, 413, 429, 503].map((c) => [c, { ...S.ErrorBody }])),
        },
      },
    },
    async (req, reply) => {
      const b = req.body as {
        retract_sources?: string[];
        add_claims?: S.ClaimBody[];
        hypothesis?: { subject: string; predicate: string; object: string };
        timeout_ms?: number;
      };
      const input = {
        ...(b.retract_sources ? { retract_sources: b.retract_sources } : {}),
        ...(b.add_claims ? { add_claims: b.add_claims.map(toClaimInput) } : {}),
        ...(b.hypothesis ? { hypothesis: b.hypothesis } : {}),
      };
      return withRetryAfter(reply, () =>
        db.whatIfSummary(input, { off_thread: true, ...(b.timeout_ms ? { timeout_ms: b.timeout_ms } : {}) }),
      );
    },
  );
}
