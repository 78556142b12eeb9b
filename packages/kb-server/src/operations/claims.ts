// Operations on claims: ingest (one, a batch, text), read one, what derives from one, retract a source, search.
import { Type, type Static } from '@sinclair/typebox';
import { KbNotFoundError } from '@evident/kb';
import * as S from '../surface/schemas.js';
import { IngestTextResult, TextIngestBody } from '../surface/text-schemas.js';
import { ingestBatch, ingestClaim, ingestText, retractSource, viewAt } from '../surface/calls.js';
import { AsOf, fits, type Matches, open, operation, type Param, strict } from './operation.js';

const ClaimId = Type.String({ minLength: 1, maxLength: 200, description: 'A claim id (clm_...)' });

const SearchInput = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 2000, description: 'What to look for, in words' }),
    k: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 10 })),
    mode: Type.Optional(Type.Union([Type.Literal('hybrid'), Type.Literal('semantic'), Type.Literal('lexical')])),
    entity_type: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    predicate: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    source_type: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    min_confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  },
  strict,
);
fits<Matches<Omit<Static<typeof SearchInput>, 'query'>, Param<'search', 1>>>();

const RetractInput = Type.Object(
  {
    source_id: Type.String({ minLength: 1, maxLength: 1000 }),
    reason: Type.String({ minLength: 1, maxLength: 4000, description: 'Why (kept for audit)' }),
    cascade: Type.Optional(Type.Boolean({ default: false })),
  },
  strict,
);

// Deliberate likeness: each operation declares its own fields (the catalogue's one shape), not repeated logic.
export const CLAIM_OPERATIONS = [
  operation({
    name: 'ingest_claim',
    title: 'Ingest a claim',
    description:
      'Record one fact as a claim (subject, predicate, object) with its source. Use the bio vocabulary: entity types such as gene, protein, disease, drug; ' +
      'predicates such as ["associated_with","association"], ["targets","pharmacology"], ["treats","pharmacology"], ["encodes","genetic"] (see resource kb://schema). ' +
      'The same fact from a new source corroborates it; the same fact again from the same source is reported as duplicate and not stored twice. ' +
      'Give source_type and source_id flat or as provenance: { source_type, source_id }. Returns the stored claim and its warnings ' +
      '(what it breaks of the vocabulary: stored anyway unless the server runs with --strict). ' +
      'REST answers the stored claim itself, 201 (200 when a duplicate), with `warnings` added when there are any.',
    rest: {
      method: 'POST',
      path: '/claims',
      tag: 'claims',
      errors: [413],
      responses: { 201: S.Claim, 200: S.Claim },
      answer: (r: Awaited<ReturnType<typeof ingestClaim>>) => ({
        status: r.duplicate ? 200 : 201,
        body: r.warnings.length ? { ...r.claim, warnings: r.warnings } : r.claim,
      }),
    },
    input: S.ClaimBody,
    output: S.IngestClaimResult,
    effect: 'write',
    idempotent: true,
    library: ['ingestBatch', 'getClaim'],
    example: {
      subject: ['BRCA2', 'gene'],
      predicate: ['associated_with', 'association'],
      object: ['breast cancer', 'disease'],
      source_type: 'literature',
      source_id: 'PMID:3',
    },
    run: (db, a) => ingestClaim(db, a),
  }),
  operation({
    name: 'ingest_batch',
    title: 'Ingest claims atomically',
    description:
      'All or none: a bad claim fails the batch, and details[0].path says which (/claims/i/field). Answers counts, the claim id for each input, ' +
      "and each claim's warnings by its index.",
    rest: { method: 'POST', path: '/claims/batch', tag: 'claims', errors: [413] },
    input: Type.Object({ claims: Type.Array(S.ClaimBody, { minItems: 1, maxItems: 100_000 }) }, strict),
    output: S.BatchResult,
    effect: 'write',
    idempotent: true,
    library: ['ingestBatch'],
    example: {
      claims: [
        {
          subject: ['TP53', 'gene'],
          predicate: ['associated_with', 'association'],
          object: ['breast cancer', 'disease'],
          source_type: 'literature',
          source_id: 'PMID:4',
        },
      ],
    },
    run: (db, a) => ingestBatch(db, a.claims),
  }),
  operation({
    name: 'ingest_text',
    title: 'Extract and ingest claims from text',
    description:
      'Extract claims from free text or a chat transcript and ingest them, all under one source_id (retract that source_id to undo; default: text:<hash of the text>). ' +
      'extraction: "heuristic" (default, offline), "llm" or "smart" (a language model; give provider, e.g. "openai" or "anthropic:claude-3-5-haiku-latest"; ' +
      "its API key comes from the server's environment). " +
      'Returns what the extractor reports (claims ingested, duplicates, skipped statements, flagged claims, warnings).',
    rest: { method: 'POST', path: '/claims/text', tag: 'claims', errors: [413, 501] },
    input: TextIngestBody,
    output: IngestTextResult,
    effect: 'write',
    idempotent: false,
    library: ['ingestText'],
    example: { text: 'Olaparib inhibits PARP1.', source_id: 'note:1' },
    run: (db, a) => ingestText(db, a),
  }),
  operation({
    name: 'get_claim',
    title: 'One claim (any status)',
    description: 'One claim by its id, whatever its status (active, retracted, degraded), with its provenance.',
    rest: { method: 'GET', path: '/claims/:claim_id', tag: 'claims', errors: [404] },
    input: Type.Object({ claim_id: ClaimId }, strict),
    output: S.Claim,
    effect: 'read',
    library: ['getClaim'],
    example: { claim_id: 'clm_0123456789abcdef0123456789abcdef' },
    run: async (db, a) => {
      const c = await db.getClaim(a.claim_id);
      if (!c) throw new KbNotFoundError('claim', a.claim_id);
      return c;
    },
  }),
  operation({
    name: 'trace_downstream',
    title: 'Trace downstream claims',
    description:
      'Claims derived from a claim (through provenance.derived_from, transitively), nearest first, each with its depth and the claim it was derived via. Use before retracting.',
    rest: { method: 'GET', path: '/claims/:claim_id/downstream', tag: 'claims', errors: [404] },
    input: Type.Object({ claim_id: ClaimId }, strict),
    output: Type.Object({ claim_id: Type.String(), downstream: Type.Array(S.DownstreamClaim) }, open),
    effect: 'read',
    library: ['traceDownstream'],
    example: { claim_id: 'clm_0123456789abcdef0123456789abcdef' },
    run: async (db, a) => ({ claim_id: a.claim_id, downstream: await db.traceDownstream(a.claim_id) }),
  }),
  operation({
    name: 'search_claims',
    title: 'Search claims by meaning and words',
    description:
      'The k active claims that best answer `query`: hybrid (BM25 and vectors fused by reciprocal rank fusion), semantic or lexical; ' +
      "filters on an end's entity_type, the predicate, the source_type and a least confidence. pending: claims not embedded yet. Pass `as_of` to search the base as it was.",
    rest: { method: 'GET', path: '/search', tag: 'claims', errors: [429], heavy: {} },
    input: Type.Object({ ...SearchInput.properties, as_of: Type.Optional(AsOf) }, strict),
    output: S.ClaimSearch,
    effect: 'read',
    library: ['search'],
    example: { query: 'PARP inhibitor breast cancer', k: 5 },
    run: async (db, { query, as_of, ...options }) => (await viewAt(db, as_of)).search(query, options),
  }),
  operation({
    name: 'retract_source',
    title: 'Retract a source',
    description:
      'Retract every claim of a source (e.g. a withdrawn paper). Claims stay in the log for audit but leave every query, count and score. ' +
      'With cascade: true, claims derived from them (provenance.derived_from, transitively) become degraded. Returns the affected claim ids. Not reversible.',
    rest: { method: 'POST', path: '/retract', tag: 'claims', errors: [404] },
    input: RetractInput,
    output: S.RetractResult,
    effect: 'destructive',
    idempotent: true,
    library: ['retract', 'retractCascade'],
    example: { source_id: 'PMID:2', reason: 'withdrawn', cascade: true },
    run: (db, a) => retractSource(db, a.source_id, a.reason, a.cascade ?? false),
  }),
];
