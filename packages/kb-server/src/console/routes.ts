// /api/v1 routes: each maps a request to one library call (through ../surface/calls.ts, shared with MCP).
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { KbDB } from '@evident/kb';
import { KbNotFoundError, KbValidationError } from '@evident/kb';
import * as S from '../surface/schemas.js';
import {
  findPaths,
  getEntityOrThrow,
  ingestBatch,
  ingestClaim,
  ingestText,
  retractSource,
  searchEntities,
  viewAt,
} from '../surface/calls.js';

const ERR: Record<number, string> = {
  400: 'Invalid parameters or a request the library refuses (details: [{ path, message }], JSON pointers)',
  401: 'Missing or invalid bearer token',
  404: 'Unknown entity, claim or source',
  413: 'Body too large',
  500: 'Internal error (logged with the request id)',
  501: 'extraction_unavailable: the base was opened without extraction',
};
const errors = (...codes: number[]) =>
  Object.fromEntries([400, 401, 500, ...codes].map((c) => [c, { ...S.ErrorBody, description: ERR[c] }]));
const ok = (schema: TSchema, description: string) => ({ ...schema, description });

const EntityId = Type.Object({
  id: Type.String({
    minLength: 1,
    maxLength: 1000,
    description: 'Entity id (e.g. gene:brca1) or name/alias, URL-encoded',
  }),
});
const Limit = (dflt: number, max: number) => Type.Optional(Type.Integer({ minimum: 1, maximum: max, default: dflt }));
const Cursor = Type.Optional(Type.String({ maxLength: 64, description: 'next_cursor from the previous page' }));
const NextCursor = Type.Union([Type.String(), Type.Null()], {
  description: 'Pass as cursor for the next page; null on the last page',
});

function decodeCursor(c: string | undefined): number {
  if (c === undefined || c === '') return 0;
  const text = /^[A-Za-z0-9_-]{1,40}$/.test(c) ? Buffer.from(c, 'base64url').toString('utf8') : '';
  const n = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n))
    throw new KbValidationError('invalid_cursor', 'cursor', 'is not a cursor this server returned');
  return n;
}
const encodeCursor = (offset: number, total: number) =>
  offset < total ? Buffer.from(String(offset), 'utf8').toString('base64url') : null;

export async function registerRoutes(api: FastifyInstance, db: KbDB): Promise<void> {
  api.post(
    '/claims',
    {
      schema: {
        tags: ['claims'],
        summary: 'Ingest one claim',
        description:
          '201 with the stored claim; 200 with the already stored claim when this source had stated the fact before. ' +
          'Its `warnings` list what it breaks of the registered vocabularies (stored anyway unless the console runs ' +
          'with --strict) and a source retracted before.',
        body: S.ClaimBody,
        response: {
          201: ok(S.Claim, 'Stored'),
          200: ok(S.Claim, 'Duplicate: the claim already stored'),
          ...errors(413),
        },
      },
    },
    async (req, reply) => {
      const r = await ingestClaim(db, req.body as S.ClaimBody);
      // The stored claim, with `warnings` (what it breaks of the registered vocabularies; a retracted source).
      return reply
        .code(r.duplicate ? 200 : 201)
        .send(r.warnings.length ? { ...r.claim, warnings: r.warnings } : r.claim);
    },
  );

  api.post(
    '/claims/batch',
    {
      schema: {
        tags: ['claims'],
        summary: 'Ingest claims atomically',
        description: 'All or none: a bad claim fails the batch, and details[0].path says which (/claims/i/field).',
        body: Type.Object(
          { claims: Type.Array(S.ClaimBody, { minItems: 1, maxItems: 100_000 }) },
          { additionalProperties: false },
        ),
        response: { 200: ok(S.BatchResult, 'Counts and the claim id for each input'), ...errors(413) },
      },
    },
    async (req) => ingestBatch(db, (req.body as { claims: S.ClaimBody[] }).claims),
  );

  api.post(
    '/claims/text',
    {
      schema: {
        tags: ['claims'],
        summary: 'Extract and ingest claims from text',
        description:
          'One text is one source (source_id) and one transaction. extraction: "heuristic" (default, offline), "llm" or "smart" ' +
          "(a language model, named by provider; its API key comes from the server's environment).",
        body: S.TextIngestBody,
        response: { 200: ok(S.IngestTextResult, 'What the extractor reports'), ...errors(413, 501) },
      },
    },
    async (req) => ingestText(db, req.body as S.TextIngestBody),
  );

  api.get(
    '/claims/:claim_id',
    {
      schema: {
        tags: ['claims'],
        summary: 'One claim (any status)',
        params: Type.Object({ claim_id: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 200: S.Claim, ...errors(404) },
      },
    },
    async (req) => {
      const id = (req.params as { claim_id: string }).claim_id;
      const c = await db.getClaim(id);
      if (!c) throw new KbNotFoundError('claim', id);
      return c;
    },
  );

  api.get(
    '/claims/:claim_id/downstream',
    {
      schema: {
        tags: ['claims'],
        summary: 'Claims derived from this claim, transitively',
        params: Type.Object({ claim_id: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: {
          200: Type.Object(
            { claim_id: Type.String(), downstream: Type.Array(S.DownstreamClaim) },
            { additionalProperties: true },
          ),
          ...errors(404),
        },
      },
    },
    async (req) => {
      const id = (req.params as { claim_id: string }).claim_id;
      return { claim_id: id, downstream: await db.traceDownstream(id) };
    },
  );

  api.get(
    '/entities',
    {
      schema: {
        tags: ['entities'],
        summary: 'List or search entities',
        description:
          'With q: ranked by match (exact name, alias/synonym, prefix, substring, type) then claim count. Without q: by claim count.',
        querystring: Type.Object(
          {
            q: Type.Optional(Type.String({ maxLength: 1000 })),
            type: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
            min_claims: Type.Optional(Type.Integer({ minimum: 0 })),
            limit: Limit(50, 1000),
            cursor: Cursor,
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object(
            { entities: Type.Array(S.SearchHit), total: Type.Integer(), next_cursor: NextCursor },
            { additionalProperties: true },
          ),
          ...errors(),
        },
      },
    },
    async (req) => {
      const q = req.query as { q?: string; type?: string; min_claims?: number; limit?: number; cursor?: string };
      const offset = decodeCursor(q.cursor);
      const hits = await searchEntities(db, { q: q.q, type: q.type, min_claims: q.min_claims });
      const limit = q.limit ?? 50;
      return {
        entities: hits.slice(offset, offset + limit),
        total: hits.length,
        next_cursor: encodeCursor(offset + limit, hits.length),
      };
    },
  );

  api.get(
    '/search',
    {
      schema: {
        tags: ['claims'],
        summary: 'Search claims by meaning and words',
        description:
          'The k active claims that best answer q: hybrid (BM25 and vectors fused by reciprocal rank fusion), semantic or lexical. ' +
          'pending: claims not embedded yet.',
        querystring: Type.Object(
          {
            q: Type.String({ minLength: 1, maxLength: 2000 }),
            k: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 10 })),
            mode: Type.Optional(
              Type.Union([Type.Literal('hybrid'), Type.Literal('semantic'), Type.Literal('lexical')]),
            ),
            entity_type: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
            predicate: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
            source_type: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
            min_confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
            as_of: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'ISO 8601' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: ok(S.ClaimSearch, 'Ranked claims with their signals'), ...errors() },
      },
    },
    async (req) => {
      const { q, as_of, ...options } = req.query as { q: string; as_of?: string; k?: number };
      return (await viewAt(db, as_of)).search(q, options);
    },
  );

  api.get(
    '/entities/:id',
    {
      schema: {
        tags: ['entities'],
        summary: 'Entity summary',
        params: EntityId,
        response: { 200: S.Entity, ...errors(404) },
      },
    },
    async (req) => getEntityOrThrow(db, (req.params as { id: string }).id),
  );

  api.get(
    '/entities/:id/claims',
    {
      schema: {
        tags: ['entities'],
        summary: "An entity's claims with provenance, confidence and status",
        params: EntityId,
        querystring: Type.Object(
          {
            predicate_type: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
            status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('all')], { default: 'active' })),
            limit: Limit(100, 1000),
            cursor: Cursor,
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object(
            { entity: Type.String(), claims: Type.Array(S.Claim), total: Type.Integer(), next_cursor: NextCursor },
            { additionalProperties: true },
          ),
          ...errors(404),
        },
      },
    },
    async (req) => {
      const { id } = req.params as { id: string };
      const q = req.query as { predicate_type?: string; status?: 'active' | 'all'; limit?: number; cursor?: string };
      const offset = decodeCursor(q.cursor);
      const entity = await db.getEntity(id);
      const all = await db.claimsFor(entity?.id ?? id, {
        ...(q.predicate_type ? { predicate_type: q.predicate_type } : {}),
        status: q.status ?? 'active',
      });
      if (!entity && all.length === 0) throw new KbNotFoundError('entity', id);
      const limit = q.limit ?? 100;
      return {
        entity: entity?.id ?? id,
        claims: all.slice(offset, offset + limit),
        total: all.length,
        next_cursor: encodeCursor(offset + limit, all.length),
      };
    },
  );

  api.get(
    '/entities/:id/context',
    {
      schema: {
        tags: ['entities'],
        summary: 'Query frame: relationships, reachable entities, narrative',
        params: EntityId,
        querystring: Type.Object(
          {
            depth: Type.Optional(Type.Integer({ minimum: 0, maximum: 6, default: 2 })),
            as_of: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'ISO 8601' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: S.QueryFrame, ...errors(404) },
      },
    },
    async (req) => {
      const q = req.query as { depth?: number; as_of?: string };
      return (await viewAt(db, q.as_of)).query((req.params as { id: string }).id, { depth: q.depth ?? 2 });
    },
  );

  api.get(
    '/paths/:a/:b',
    {
      schema: {
        tags: ['entities'],
        summary: 'Paths between two entities, best first',
        params: Type.Object({
          a: Type.String({ minLength: 1, maxLength: 1000 }),
          b: Type.String({ minLength: 1, maxLength: 1000 }),
        }),
        querystring: Type.Object(
          {
            max_depth: Type.Optional(Type.Integer({ minimum: 1, maximum: 6, default: 3 })),
            top_k: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 5 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: S.PathsResult, ...errors(404) },
      },
    },
    async (req) => {
      const { a, b } = req.params as { a: string; b: string };
      return findPaths(db, { from: a, to: b, ...(req.query as { max_depth?: number; top_k?: number }) });
    },
  );

  api.post(
    '/retract',
    {
      schema: {
        tags: ['claims'],
        summary: "Retract a source's claims (cascade: degrade claims derived from them)",
        body: Type.Object(
          {
            source_id: Type.String({ minLength: 1, maxLength: 1000 }),
            reason: Type.String({ minLength: 1, maxLength: 4000 }),
            cascade: Type.Optional(Type.Boolean({ default: false })),
          },
          { additionalProperties: false },
        ),
        response: { 200: S.RetractResult, ...errors(404) },
      },
    },
    async (req) => {
      const b = req.body as { source_id: string; reason: string; cascade?: boolean };
      return retractSource(db, b.source_id, b.reason, b.cascade ?? false);
    },
  );

  const report = (path: string, summary: string, schema: TSchema, run: () => Promise<unknown>) =>
    api.get(path, { schema: { tags: ['reports'], summary, response: { 200: schema, ...errors() } } }, run);
  report(
    '/schema',
    'Entity types, predicates, relationship patterns with counts; registered vocabularies',
    S.AnyObject,
    () => db.schema(),
  );
  report('/stats', 'Entity and claim counts, index size, store', S.AnyObject, () => db.stats());
  report('/health', 'Knowledge-health score 0..100 and its five metrics', S.Health, () => db.knowledgeHealth());
  report('/quality', 'Single-source entities, source distribution, knowledge density', S.QualityReport, () =>
    db.qualityReport(),
  );

  api.get(
    '/insights/bridges',
    {
      schema: {
        tags: ['insights'],
        summary: 'Predicted links between unlinked entities (Adamic-Adar)',
        querystring: Type.Object(
          { top_k: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 20 })) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ bridges: Type.Array(S.Bridge) }, { additionalProperties: true }), ...errors() },
      },
    },
    async (req) => ({ bridges: await db.findBridges({ top_k: (req.query as { top_k?: number }).top_k ?? 20 }) }),
  );

  api.get(
    '/insights/gaps',
    {
      schema: {
        tags: ['insights'],
        summary: 'Confidence alerts (single-source, stale, low-confidence entities) and missing expected relationships',
        querystring: Type.Object(
          {
            stale_days: Type.Optional(Type.Number({ minimum: 0, maximum: 36500, default: 365 })),
            low_confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: 0.5 })),
            limit: Limit(100, 10000),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object(
            { alerts: Type.Array(S.ConfidenceAlert), gaps: Type.Array(S.AnyObject) },
            { additionalProperties: true },
          ),
          ...errors(),
        },
      },
    },
    async (req) => {
      const q = req.query as { stale_days?: number; low_confidence?: number; limit?: number };
      return {
        alerts: await db.findConfidenceAlerts(q),
        gaps: await db.findGaps(undefined, { limit: q.limit ?? 100 }),
      };
    },
  );
}
