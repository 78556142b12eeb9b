// JSON Schemas (TypeBox) shared by the MCP tools and the REST routes, so both surfaces validate the same
// input and describe the same output. Output objects allow extra properties: the library's shapes may grow,
// and a surface must never drop a field the library returns.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

const open = { additionalProperties: true } as const;

/** [name, type] / [relationship, class]. Two strings; JSON-Schema-draft neutral (no tuple keywords). */
export const Pair = (what: string, example: [string, string]) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 1000 }), {
    minItems: 2,
    maxItems: 2,
    description: what,
    examples: [example],
  });

export const Id = Type.String({ minLength: 1, maxLength: 1000 });

export const ClaimBody = Type.Object(
  {
    subject: Pair('[name, type] of the subject entity, e.g. ["BRCA1", "gene"]', ['BRCA1', 'gene']),
    predicate: Pair('[relationship, predicate class], e.g. ["associated_with", "association"]', [
      'associated_with',
      'association',
    ]),
    object: Pair('[name, type] of the object entity, e.g. ["breast cancer", "disease"]', ['breast cancer', 'disease']),
    source_type: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Kind of source: literature, database, experiment, text_mining, prediction, ... (required here or as provenance.source_type)',
      }),
    ),
    source_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description:
          'Stable id of the source (e.g. "PMID:12345"); retraction works per source_id (required here or as provenance.source_id)',
      }),
    ),
    confidence: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1, description: '0..1; omitted: a default by source_type' }),
    ),
    payload: Type.Optional(
      Type.Unknown({
        description:
          'Free-form data kept with the claim (validated if a payload schema is registered for the predicate)',
      }),
    ),
    derived_from: Type.Optional(
      Type.Array(Id, {
        maxItems: 1000,
        description: 'claim_ids this claim was derived from (degraded if those are retracted with cascade)',
      }),
    ),
    provenance: Type.Optional(
      Type.Object(
        {},
        {
          ...open,
          description:
            'Provenance as the library takes it ({ "source_type", "source_id", ... }) or extra fields kept with the claim (e.g. { "quote": "...", "pmid": "..." })',
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export type ClaimBody = Static<typeof ClaimBody>;

export const EntitySummary = Type.Object(
  { id: Type.String(), name: Type.String(), type: Type.String(), claim_count: Type.Integer() },
  open,
);

export const Entity = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    type: Type.String(),
    claim_count: Type.Integer(),
    aliases: Type.Array(Type.String()),
    source_count: Type.Integer(),
    predicates: Type.Record(Type.String(), Type.Integer()),
  },
  open,
);

const StringPair = Type.Array(Type.String(), { minItems: 2, maxItems: 2 });

export const Claim = Type.Object(
  {
    claim_id: Type.String(),
    content_id: Type.String(),
    subject: StringPair,
    predicate: StringPair,
    object: StringPair,
    subject_id: Type.String(),
    object_id: Type.String(),
    provenance: Type.Object({ source_type: Type.String(), source_id: Type.String() }, open),
    confidence: Type.Number(),
    payload: Type.Optional(Type.Unknown()),
    status: Type.Union([Type.Literal('active'), Type.Literal('retracted'), Type.Literal('degraded')]),
    created_at: Type.String({ format: 'date-time' }),
  },
  open,
);

export const Warning = Type.Object(
  {
    code: Type.String({
      description:
        'predicate_class, type_constraint, unknown_type (stored anyway unless the base is strict), source_was_retracted',
    }),
    field: Type.String(),
    message: Type.String(),
  },
  open,
);

export const IngestClaimResult = Type.Object(
  {
    claim: Claim,
    duplicate: Type.Boolean({ description: 'true when this source had already stated the fact (nothing new stored)' }),
    warnings: Type.Array(Warning, {
      description: 'What the stored claim breaks of the registered vocabularies, and notes',
    }),
  },
  open,
);

export const BatchResult = Type.Object(
  {
    ingested: Type.Integer(),
    duplicates: Type.Integer(),
    claim_ids: Type.Array(Type.String()),
    warnings: Type.Array(Type.Object({ ...Warning.properties, index: Type.Integer() }, open), {
      description: 'Per claim that has any, by its index in the input',
    }),
  },
  open,
);

export const Relationship = Type.Object(
  {
    predicate: Type.String(),
    predicate_class: Type.String(),
    target: EntitySummary,
    confidence: Type.Number(),
    direction: Type.Union([Type.Literal('outgoing'), Type.Literal('incoming')]),
    claim_ids: Type.Array(Type.String()),
    content_id: Type.String(),
    source_count: Type.Integer(),
  },
  open,
);

export const QueryFrame = Type.Object(
  {
    focal_entity: EntitySummary,
    claim_count: Type.Integer(),
    direct_relationships: Type.Array(Relationship),
    depth: Type.Integer(),
    entities: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          name: Type.String(),
          type: Type.String(),
          claim_count: Type.Integer(),
          distance: Type.Integer(),
          via: Type.String(),
        },
        open,
      ),
    ),
    narrative: Type.String(),
  },
  open,
);

export const Path = Type.Object(
  {
    entities: Type.Array(Type.String()),
    edges: Type.Array(
      Type.Object(
        {
          from: Type.String(),
          to: Type.String(),
          predicate: Type.String(),
          direction: Type.String(),
          claim_ids: Type.Array(Type.String()),
          confidence: Type.Number(),
        },
        open,
      ),
    ),
    score: Type.Number(),
  },
  open,
);

const Metrics = Type.Object(
  {
    multi_source_ratio: Type.Number(),
    corroboration_ratio: Type.Number(),
    freshness: Type.Number(),
    source_diversity: Type.Number(),
    confidence_trend: Type.Number(),
  },
  open,
);
export const Health = Type.Object(
  {
    score: Type.Number({ minimum: 0, maximum: 100 }),
    metrics: Metrics,
    weights: Type.Optional(Type.Object({}, open)),
    basis: Type.Optional(Type.Object({}, open)),
  },
  open,
);

export const QualityReport = Type.Object(
  {
    entity_count: Type.Integer(),
    claim_count: Type.Integer(),
    single_source_entities: Type.Object({}, open),
    source_distribution: Type.Object({}, open),
    knowledge_density: Type.Object({}, open),
  },
  open,
);

export const Bridge = Type.Object(
  {
    source: EntitySummary,
    target: EntitySummary,
    score: Type.Number(),
    suggested_predicate: Type.Union([Type.String(), Type.Null()]),
    shared_neighbours: Type.Array(Type.String()),
    reason: Type.String(),
  },
  open,
);

export const ConfidenceAlert = Type.Object(
  {
    entity: EntitySummary,
    alerts: Type.Array(Type.String()),
    source_count: Type.Integer(),
    mean_confidence: Type.Number(),
    newest_claim_at: Type.String(),
  },
  open,
);

export const RetractResult = Type.Object(
  {
    source_id: Type.String(),
    reason: Type.String(),
    claim_ids: Type.Array(Type.String()),
    degraded_claim_ids: Type.Array(Type.String()),
    cascade: Type.Boolean(),
  },
  open,
);

export const DownstreamClaim = Type.Object(
  { ...Claim.properties, depth: Type.Integer(), derived_via: Type.String() },
  open,
);

// Deliberate likeness: each wire type is one Type.Object of its own fields (topology-schemas.ts too).
export const Inquiry = Type.Object(
  {
    inquiry_id: Type.String(),
    question: Type.String(),
    subject: Type.String(),
    object: Type.String(),
    predicate_hint: Type.String(),
    status: Type.String(),
    created_at: Type.String(),
    subject_id: Type.String(),
    object_id: Type.String(),
    answer_claim_ids: Type.Array(Type.String()),
  },
  open,
);

/** Ranked search hit: the entity summary, how it matched, and a score (higher first). */
export const ClaimHit = Type.Object(
  {
    claim: Claim,
    score: Type.Number(),
    signals: Type.Object(
      {
        semantic: Type.Union([Type.Number(), Type.Null()]),
        lexical: Type.Union([Type.Number(), Type.Null()]),
        graph: Type.Number(),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true },
);

export const ClaimSearch = Type.Object(
  {
    results: Type.Array(ClaimHit),
    mode: Type.String(),
    pending: Type.Integer({ description: 'Claims and entities not embedded yet (found lexically meanwhile)' }),
  },
  { additionalProperties: true },
);

export const SearchHit = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    type: Type.String(),
    claim_count: Type.Integer(),
    match: Type.Union([
      Type.Literal('exact'),
      Type.Literal('alias'),
      Type.Literal('prefix'),
      Type.Literal('substring'),
      Type.Literal('semantic'),
      Type.Literal('type'),
      Type.Literal('all'),
    ]),
    score: Type.Number(),
  },
  open,
);

/** find_paths and GET /paths/{a}/{b}: the entity ids both names resolved to, and the paths between them. */
export const PathsResult = Type.Object(
  {
    from: Type.String({ description: 'The id `from` resolved to' }),
    to: Type.String({ description: 'The id `to` resolved to' }),
    paths: Type.Array(Path, { description: 'Best first; empty when no path of at most max_depth hops joins them' }),
  },
  open,
);

export const ErrorBody = Type.Object(
  {
    error: Type.Object(
      {
        code: Type.String(),
        message: Type.String(),
        details: Type.Optional(
          Type.Array(
            Type.Object(
              {
                path: Type.String({ description: 'JSON pointer into the input (RFC 6901); empty for the whole' }),
                message: Type.String(),
              },
              { additionalProperties: false },
            ),
            { description: 'What was wrong where' },
          ),
        ),
        data: Type.Optional(
          Type.Record(Type.String(), Type.Unknown(), {
            description:
              'Extra data the caller can act on: for a Cypher PROFILE stopped by a budget, `plan` (the operator tree with rows and time so far)',
          }),
        ),
        request_id: Type.Optional(
          Type.String({ description: 'On internal errors: the id the server logged it under' }),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const AnyObject = Type.Object({}, open);

export type { TSchema };
