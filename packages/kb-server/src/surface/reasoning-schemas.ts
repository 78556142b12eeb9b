// Response schemas of the reasoning calls (packages/kb/README.md, "Reasoning over evidence"): the fields each
// call documents, objects left open so that a field the library adds is not dropped by the serializer.
import { type TProperties, Type } from '@sinclair/typebox';
import { Claim, EntitySummary } from './schemas.js';

const open = { additionalProperties: true } as const;
const Num = Type.Number();
const Int = Type.Integer();
const Str = Type.String();

export const FactRef = Type.Object(
  { content_id: Str, subject_id: Str, predicate: Str, predicate_class: Str, object_id: Str },
  open,
);
// Spread, not Type.Composite: a composite's static type has an index signature the library's interfaces lack, and
// the operation table checks each library answer against its schema at compile time.
const withFact = <P extends TProperties>(extra: P) => Type.Object({ ...FactRef.properties, ...extra }, open);

export const Impact = Type.Object(
  {
    source_id: Str,
    retracted_claim_ids: Type.Array(Str),
    degraded_claim_ids: Type.Array(Str),
    orphaned_entities: Type.Array(EntitySummary),
    weakened_relationships: Type.Array(withFact({ sources_before: Int, sources_after: Int })),
  },
  open,
);

const AuditEvent = Type.Object(
  {
    event: Type.Union([Type.Literal('ingested'), Type.Literal('retracted'), Type.Literal('degraded')]),
    at: Type.String({ format: 'date-time' }),
    source_id: Type.Optional(Str),
    reason: Type.Optional(Str),
  },
  open,
);
const Depth = Type.Object({ ...Claim.properties, depth: Int }, open);

export const ClaimAudit = Type.Object(
  {
    kind: Type.Literal('claim'),
    claim: Claim,
    source: Type.Object({ source_id: Str, source_type: Str }),
    derived_from: Type.Array(Depth),
    dependants: Type.Array(Type.Object({ ...Claim.properties, depth: Int, derived_via: Str }, open)),
    corroborating: Type.Array(Claim),
    events: Type.Array(AuditEvent),
  },
  open,
);

export const EntityAudit = Type.Object(
  {
    kind: Type.Literal('entity'),
    entity: EntitySummary,
    claims: Type.Array(Type.Object({ claim: Claim, events: Type.Array(AuditEvent) }, open)),
  },
  open,
);

export const Drift = Type.Object(
  {
    since: Type.String({ format: 'date-time' }),
    until: Type.String({ format: 'date-time' }),
    counts: Type.Object(
      { added: Int, retracted: Int, degraded: Int, new_entities: Int, changed_relationships: Int },
      open,
    ),
    added_claim_ids: Type.Array(Str),
    retracted_claim_ids: Type.Array(Str),
    degraded_claim_ids: Type.Array(Str),
    new_entities: Type.Array(EntitySummary),
    changed_relationships: Type.Array(
      withFact({ confidence_before: Num, confidence_after: Num, sources_before: Int, sources_after: Int }),
    ),
  },
  open,
);

export const Fragile = Type.Object(
  { relationships: Type.Array(withFact({ source_id: Str, dependants: Int, paths_through: Int })) },
  open,
);

export const Stale = Type.Object(
  {
    days: Num,
    count: Int,
    facts: Type.Array(withFact({ newest_claim_at: Str, age_days: Num, source_count: Int })),
  },
  open,
);

export const SourceReliability = Type.Object(
  {
    sources: Type.Array(
      Type.Object(
        {
          key: Str,
          source_type: Type.Optional(Str),
          claims: Int,
          corroborated: Num,
          retracted: Num,
          contradicted: Num,
          mean_confidence: Num,
          reliability: Num,
        },
        open,
      ),
    ),
  },
  open,
);

export const Consensus = Type.Object(
  {
    entity: Str,
    other: Type.Optional(Str),
    assertions: Type.Array(
      withFact({ source_count: Int, source_ids: Type.Array(Str), confidence: Num, claim_ids: Type.Array(Str) }),
    ),
    contradictions: Type.Array(
      Type.Object(
        {
          kind: Type.Union([Type.Literal('opposite'), Type.Literal('negation')]),
          a: Str,
          b: Str,
          sources_a: Int,
          sources_b: Int,
        },
        open,
      ),
    ),
  },
  open,
);

const InferencePath = Type.Object({ via: Str, first: Str, second: Str, score: Num, claim_ids: Type.Array(Str) }, open);

export const Predictions = Type.Object(
  {
    predictions: Type.Array(
      Type.Object({ predicate: Str, target: EntitySummary, score: Num, paths: Type.Array(InferencePath) }, open),
    ),
  },
  open,
);

export const Evolution = Type.Object(
  {
    entity: EntitySummary,
    events: Type.Array(Type.Object({ at: Str, event: Str, claim_id: Str, content_id: Str }, open)),
    relationships: Type.Array(
      withFact({ series: Type.Array(Type.Object({ at: Str, confidence: Num, source_count: Int }, open)) }),
    ),
  },
  open,
);

export const Blindspots = Type.Object(
  {
    min_claims: Int,
    thin_entity_types: Type.Array(Type.Object({ entity_type: Str, claims: Int }, open)),
    thin_predicates: Type.Array(Type.Object({ predicate: Str, claims: Int }, open)),
    single_predicate_entities: Type.Object(
      {
        count: Int,
        entities: Type.Array(Type.Object({ ...EntitySummary.properties, predicate: Str, relationships: Int }, open)),
      },
      open,
    ),
    single_source_type_relationships: Type.Object(
      { count: Int, relationships: Type.Array(withFact({ source_type: Str, sources: Int })) },
      open,
    ),
  },
  open,
);

const WithInfers = Type.Object({ ...InferencePath.properties, infers: Str }, open);
export const HypothesisTest = Type.Object(
  {
    subject_id: Str,
    predicate: Str,
    object_id: Str,
    verdict: Type.Union([
      Type.Literal('supported'),
      Type.Literal('contradicted'),
      Type.Literal('mixed'),
      Type.Literal('unknown'),
    ]),
    score: Num,
    support: Num,
    opposition: Num,
    direct: Type.Array(Claim),
    contradicting: Type.Array(Type.Object({ ...Claim.properties, contradiction: Str }, open)),
    indirect_support: Type.Array(WithInfers),
    indirect_opposition: Type.Array(WithInfers),
  },
  open,
);

const Snapshot = Type.Object(
  { claim_count: Int, entity_count: Int, health_score: Num },
  { ...open, description: 'Active claims, entities with an active claim, knowledge-health score' },
);
export const WhatIf = Type.Object(
  { before: Snapshot, after: Snapshot, hypothesis: Type.Optional(HypothesisTest) },
  open,
);
