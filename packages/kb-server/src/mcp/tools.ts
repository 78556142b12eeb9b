// The 15 MCP tools: name, schemas, annotations, and the library call each one makes.
import { Type, type TObject } from '@sinclair/typebox';
import type { KbDB } from '@evident/kb';
import * as S from '../surface/schemas.js';
import {
  findPaths,
  getEntityOrThrow,
  ingestClaim,
  ingestText,
  retractSource,
  searchEntities,
  viewAt,
} from '../surface/calls.js';

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolDef {
  name: string;
  description: string;
  input: TObject;
  output: TObject;
  annotations: ToolAnnotations;
  // biome-ignore lint/suspicious/noExplicitAny: each tool's run gets args already checked against its inputSchema
  run(db: KbDB, args: any): Promise<Record<string, unknown>>;
}

const read = (title: string): ToolAnnotations => ({
  title,
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});
const write = (title: string, destructive = false, idempotent = true): ToolAnnotations => ({
  title,
  readOnlyHint: false,
  destructiveHint: destructive,
  idempotentHint: idempotent,
  openWorldHint: false,
});

const EntityRef = Type.String({
  minLength: 1,
  maxLength: 1000,
  description: 'Entity id (e.g. "gene:brca1") or name/alias (e.g. "BRCA1"); case and spacing do not matter',
});
const AsOf = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'Answer as of this moment (ISO 8601, e.g. "2026-01-31T12:00:00Z"); omit for now',
});
const strict = { additionalProperties: false } as const;

export const TOOLS: ToolDef[] = [
  {
    name: 'ingest_claim',
    description:
      'Record one fact as a claim (subject, predicate, object) with its source. Use the bio vocabulary: entity types such as gene, protein, disease, drug; ' +
      'predicates such as ["associated_with","association"], ["targets","pharmacology"], ["treats","pharmacology"], ["encodes","genetic"] (see resource kb://schema). ' +
      'The same fact from a new source corroborates it; the same fact again from the same source is reported as duplicate and not stored twice. ' +
      'Give source_type and source_id flat or as provenance: { source_type, source_id }. Returns the stored claim and its warnings ' +
      '(what it breaks of the vocabulary: stored anyway unless the server runs with --strict).',
    input: S.ClaimBody,
    output: S.IngestClaimResult,
    annotations: write('Ingest a claim', false, true),
    run: (db, a) => ingestClaim(db, a),
  },
  {
    name: 'ingest_text',
    description:
      'Extract claims from free text or a chat transcript and ingest them, all under one source_id (retract that source_id to undo; default: text:<hash of the text>). ' +
      'extraction: "heuristic" (default, offline), "llm" or "smart" (a language model; give provider, e.g. "openai" or "anthropic:claude-3-5-haiku-latest"). ' +
      'Returns what the extractor reports (claims ingested, duplicates, skipped statements, flagged claims, warnings).',
    input: S.TextIngestBody,
    output: S.IngestTextResult,
    annotations: write('Ingest claims from text', false, false),
    run: async (db, a) => ({ ...(await ingestText(db, a)) }),
  },
  {
    name: 'query_entity',
    description:
      'Everything known about one entity: its direct relationships (predicate, target, combined confidence, supporting claim ids, source count), ' +
      'the entities reached within `depth` hops, and a readable narrative. Pass `as_of` to see the base as it was at that moment.',
    input: Type.Object(
      {
        entity: EntityRef,
        depth: Type.Optional(
          Type.Integer({ minimum: 0, maximum: 6, default: 2, description: 'Hops to expand (0..6, default 2)' }),
        ),
        as_of: Type.Optional(AsOf),
      },
      strict,
    ),
    output: S.QueryFrame,
    annotations: read('Query an entity'),
    run: async (db, a) =>
      (await viewAt(db, a.as_of)).query(a.entity, { depth: a.depth ?? 2 }) as unknown as Record<string, unknown>,
  },
  {
    name: 'search_entities',
    description:
      'Find entities by name, alias or type, best match first (exact name, alias/synonym, prefix, substring), then by meaning ' +
      '(semantic: a drug class, a paraphrase, what the entity relates to; e.g. "PARP inhibitor" finds olaparib), then by type. ' +
      'Use it to turn a name you were given into the entity id the other tools accept.',
    input: Type.Object(
      {
        query: Type.Optional(
          Type.String({
            maxLength: 1000,
            description: 'Name, alias, id fragment or type; omit to list by claim count',
          }),
        ),
        type: Type.Optional(
          Type.String({ minLength: 1, maxLength: 200, description: 'Only entities of this type (e.g. "gene")' }),
        ),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 20 })),
      },
      strict,
    ),
    output: Type.Object({ results: Type.Array(S.SearchHit), total: Type.Integer() }, { additionalProperties: true }),
    annotations: read('Search entities'),
    run: async (db, a) => {
      const hits = await searchEntities(db, { q: a.query, type: a.type });
      return { results: hits.slice(0, a.limit ?? 20), total: hits.length };
    },
  },
  {
    name: 'get_entity',
    description:
      'Summary of one entity: id, name, type, aliases, active claim count, number of distinct sources, claim counts per predicate.',
    input: Type.Object({ entity: EntityRef }, strict),
    output: S.Entity,
    annotations: read('Get an entity'),
    run: (db, a) => getEntityOrThrow(db, a.entity) as unknown as Promise<Record<string, unknown>>,
  },
  {
    name: 'get_claims',
    description:
      'The claims that mention an entity, oldest first, each with provenance (source_type, source_id), confidence, status and created_at. ' +
      'Filter by `predicate`; `status: "all"` includes retracted and degraded claims for audit.',
    input: Type.Object(
      {
        entity: EntityRef,
        predicate: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 200,
            description: 'Only claims with this predicate (e.g. "targets")',
          }),
        ),
        status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('all')], { default: 'active' })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
        offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
      },
      strict,
    ),
    output: Type.Object(
      { entity: Type.String(), claims: Type.Array(S.Claim), total: Type.Integer() },
      { additionalProperties: true },
    ),
    annotations: read('Get claims'),
    run: async (db, a) => {
      const all = await db.claimsFor(a.entity, {
        ...(a.predicate ? { predicate_type: a.predicate } : {}),
        status: a.status ?? 'active',
      });
      // An entity whose claims are all retracted is still known for audit (status: 'all').
      const id =
        (await db.getEntity(a.entity))?.id ?? (all.length ? a.entity : (await getEntityOrThrow(db, a.entity)).id);
      const off = a.offset ?? 0;
      return { entity: id, claims: all.slice(off, off + (a.limit ?? 100)), total: all.length };
    },
  },
  {
    name: 'find_paths',
    description:
      'How two entities are connected: up to `top_k` paths of at most `max_depth` hops, each edge with predicate, direction, claim ids and confidence, ' +
      'and a path score (product of edge confidences; higher is stronger). Answers the ids `from` and `to` resolved to; an empty list means no connection within max_depth, ' +
      'an entity that does not resolve is not_found.',
    input: Type.Object(
      {
        from: EntityRef,
        to: EntityRef,
        max_depth: Type.Optional(Type.Integer({ minimum: 1, maximum: 6, default: 3 })),
        top_k: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 5 })),
      },
      strict,
    ),
    output: S.PathsResult,
    annotations: read('Find paths'),
    run: (db, a) => findPaths(db, a),
  },
  {
    name: 'knowledge_health',
    description:
      'Overall health score 0..100 of the base, from five metrics 0..1 weighted 30/25/20/15/10: multi_source_ratio (entities backed by more than one source), ' +
      'corroboration_ratio (claims independently confirmed), freshness (30-day half-life), source_diversity (distinct source types), confidence_trend.',
    input: Type.Object({}, strict),
    output: S.Health,
    annotations: read('Knowledge health'),
    run: (db) => db.knowledgeHealth() as unknown as Promise<Record<string, unknown>>,
  },
  {
    name: 'quality_report',
    description:
      'Quality report: single-source entities (count, ratio, examples), claims per source type and top sources, knowledge density. Use it to decide what to corroborate next.',
    input: Type.Object({}, strict),
    output: S.QualityReport,
    annotations: read('Quality report'),
    run: (db) => db.qualityReport() as unknown as Promise<Record<string, unknown>>,
  },
  {
    name: 'find_bridges',
    description:
      'Predicted links: pairs of entities not linked yet that share neighbours (Adamic-Adar score), with a suggested predicate and the reason. Candidates for new claims or inquiries.',
    input: Type.Object({ top_k: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 20 })) }, strict),
    output: Type.Object({ bridges: Type.Array(S.Bridge) }, { additionalProperties: true }),
    annotations: read('Find bridges'),
    run: async (db, a) => ({ bridges: await db.findBridges({ top_k: a.top_k ?? 20 }) }),
  },
  {
    name: 'confidence_alerts',
    description:
      'Entities whose knowledge is weak: single_source, stale (newest claim older than stale_days) or low_confidence (mean confidence below the threshold).',
    input: Type.Object(
      {
        stale_days: Type.Optional(Type.Number({ minimum: 0, maximum: 36500, default: 365 })),
        low_confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: 0.5 })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000, default: 100 })),
      },
      strict,
    ),
    output: Type.Object({ alerts: Type.Array(S.ConfidenceAlert) }, { additionalProperties: true }),
    annotations: read('Confidence alerts'),
    run: async (db, a) => ({ alerts: await db.findConfidenceAlerts(a) }),
  },
  {
    name: 'retract_source',
    description:
      'Retract every claim of a source (e.g. a withdrawn paper). Claims stay in the log for audit but leave every query, count and score. ' +
      'With cascade: true, claims derived from them (provenance.derived_from, transitively) become degraded. Returns the affected claim ids. Not reversible.',
    input: Type.Object(
      {
        source_id: Type.String({ minLength: 1, maxLength: 1000 }),
        reason: Type.String({ minLength: 1, maxLength: 4000, description: 'Why (kept for audit)' }),
        cascade: Type.Optional(Type.Boolean({ default: false })),
      },
      strict,
    ),
    output: S.RetractResult,
    annotations: write('Retract a source', true, true),
    run: (db, a) => retractSource(db, a.source_id, a.reason, a.cascade ?? false),
  },
  {
    name: 'trace_downstream',
    description:
      'Claims derived from a claim (through provenance.derived_from, transitively), nearest first, each with its depth and the claim it was derived via. Use before retracting.',
    input: Type.Object({ claim_id: Type.String({ minLength: 1, maxLength: 200 }) }, strict),
    output: Type.Object(
      { claim_id: Type.String(), downstream: Type.Array(S.DownstreamClaim) },
      { additionalProperties: true },
    ),
    annotations: read('Trace downstream claims'),
    run: async (db, a) => ({ claim_id: a.claim_id, downstream: await db.traceDownstream(a.claim_id) }),
  },
  {
    name: 'add_inquiry',
    description:
      'Record an open research question about how two entities relate. The first claim later linking subject and object (fitting predicate_hint, if given) answers it; ' +
      'see open_inquiries.',
    input: Type.Object(
      {
        question: Type.String({ minLength: 1, maxLength: 4000 }),
        subject: Type.String({ minLength: 1, maxLength: 1000, description: 'Entity name or id' }),
        object: Type.String({ minLength: 1, maxLength: 1000, description: 'Entity name or id' }),
        predicate_hint: Type.Optional(Type.String({ maxLength: 200, default: '' })),
      },
      strict,
    ),
    output: S.Inquiry,
    annotations: write('Add an inquiry', false, false),
    run: (db, a) =>
      db.ingestInquiry(a.question, a.subject, a.object, a.predicate_hint ?? '') as unknown as Promise<
        Record<string, unknown>
      >,
  },
  {
    name: 'open_inquiries',
    description: 'Research questions not answered by any claim yet, oldest first.',
    input: Type.Object({}, strict),
    output: Type.Object({ inquiries: Type.Array(S.Inquiry) }, { additionalProperties: true }),
    annotations: read('Open inquiries'),
    run: async (db) => ({ inquiries: await db.openInquiries() }),
  },
];
