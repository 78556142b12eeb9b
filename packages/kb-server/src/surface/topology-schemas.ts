// Response schemas of the topology calls (kb-core's src/topology): the fields each documents, objects left open so
// that a field the library adds is not dropped by the serializer.
import { Type } from '@sinclair/typebox';
import * as S from './schemas.js';

const open = { additionalProperties: true } as const;

// Deliberate likeness: each wire type is one Type.Object of its own fields (schemas.ts too).
export const TopicEntity = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    type: Type.String(),
    claim_count: Type.Integer(),
    centrality: Type.Number(),
  },
  open,
);
export const Topic = Type.Object(
  {
    topic_id: Type.String(),
    level: Type.Integer(),
    parent_id: Type.Union([Type.String(), Type.Null()]),
    children: Type.Array(Type.String()),
    size: Type.Integer(),
    label: Type.String(),
    top_entities: Type.Array(TopicEntity),
    modularity_contribution: Type.Number(),
  },
  open,
);
export const Level = Type.Object(
  {
    level: Type.Integer(),
    resolution: Type.Number(),
    modularity: Type.Number(),
    topic_count: Type.Integer(),
    // Absent from topologies kept before the field existed.
    iterations: Type.Optional(Type.Integer()),
  },
  open,
);
export const TopologyResult = Type.Object(
  {
    log_seq: Type.Integer(),
    computed_at: Type.String(),
    as_of: Type.Union([Type.String(), Type.Null()]),
    entity_count: Type.Integer(),
    edge_count: Type.Integer(),
    levels: Type.Array(Level),
    topics: Type.Array(Topic),
    mode: Type.Union([Type.Literal('full'), Type.Literal('incremental')]),
    full_reason: Type.Union([Type.String(), Type.Null()]),
    changed_entities: Type.Union([Type.Integer(), Type.Null()]),
    affected_entities: Type.Union([Type.Integer(), Type.Null()]),
  },
  open,
);
export const Density = Type.Object(
  {
    topic_id: Type.String(),
    size: Type.Integer(),
    claim_count: Type.Integer(),
    internal_claim_count: Type.Integer(),
    source_count: Type.Integer(),
    source_type_count: Type.Integer(),
    coverage: Type.Number(),
    internal_density: Type.Number(),
    external_density: Type.Number(),
  },
  open,
);
export const CrossDomainBridge = Type.Object(
  {
    entity: S.EntitySummary,
    topic_id: Type.String(),
    participation_coefficient: Type.Number(),
    bridge_score: Type.Number(),
    topics: Type.Array(Type.Object({ topic_id: Type.String(), fact_count: Type.Integer() }, open)),
    domains: Type.Array(Type.String()),
    claim_ids: Type.Array(Type.String()),
  },
  open,
);
export const Status = Type.Union([
  Type.Object({ log_seq: Type.Integer(), computed_at: Type.String(), current: Type.Boolean() }, open),
  Type.Null(),
]);
