// /api/v1 topology routes: topics, one topic, density, cross-domain bridges, and the computation itself. Each maps
// a request to one library call (src/topology of @evident/kb-core); errors go through the console's handler. The
// computation runs off the console's thread (off_thread).
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { KbDB } from '@evident/kb';
import * as S from '../surface/schemas.js';
import { withRetryAfter } from './long-calls.js';

const open = { additionalProperties: true } as const;
const errors = (...codes: number[]) =>
  Object.fromEntries([400, 401, 500, ...codes].map((c) => [c, { ...S.ErrorBody }]));

const TopicEntity = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    type: Type.String(),
    claim_count: Type.Integer(),
    centrality: Type.Number(),
  },
  open,
);
const Topic = Type.Object(
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
const Level = Type.Object(
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
const TopologyResult = Type.Object(
  {
    log_seq: Type.Integer(),
    computed_at: Type.String(),
    as_of: Type.Union([Type.String(), Type.Null()]),
    entity_count: Type.Integer(),
    edge_count: Type.Integer(),
    levels: Type.Array(Level),
    topics: Type.Array(Topic),
  },
  open,
);
const Density = Type.Object(
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
const CrossDomainBridge = Type.Object(
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
const Status = Type.Union([
  Type.Object({ log_seq: Type.Integer(), computed_at: Type.String(), current: Type.Boolean() }, open),
  Type.Null(),
]);
const LevelQuery = Type.Optional(Type.Integer({ minimum: 0, maximum: 10, description: 'Hierarchy level (0: finest)' }));

const get = (
  api: FastifyInstance,
  path: string,
  summary: string,
  query: TSchema | undefined,
  response: TSchema,
  run: (q: never, p: never) => Promise<unknown>,
) =>
  api.get(
    path,
    {
      schema: {
        tags: ['topology'],
        summary,
        ...(query ? { querystring: query } : {}),
        response: { 200: response, ...errors(404, 409) },
      },
    },
    (req) => run(req.query as never, req.params as never),
  );

export async function registerTopologyRoutes(api: FastifyInstance, db: KbDB): Promise<void> {
  get(
    api,
    '/topology',
    'The topic hierarchy of the last computation, and whether it is current (409 not_computed before one)',
    Type.Object({ level: LevelQuery }, { additionalProperties: false }),
    Type.Object({ topics: Type.Array(Topic), status: Status }, open),
    async (q: { level?: number }) => ({
      topics: await db.topics({ level: q.level }),
      status: (await db.stats()).derived.topology,
    }),
  );
  get(
    api,
    '/topics/:id',
    'One topic: its entities with centrality, inside relationships and subtopics (404 for an unknown id)',
    Type.Object(
      { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 50 })) },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        topic: Topic,
        entities: Type.Array(TopicEntity),
        relationships: Type.Array(S.AnyObject),
        subtopics: Type.Array(Topic),
      },
      open,
    ),
    async (q: { limit?: number }, p: { id: string }) => db.queryTopic(p.id, { limit: q.limit }),
  );
  get(
    api,
    '/density',
    'Per topic: claim counts, source diversity, coverage, internal and external density',
    Type.Object({ level: LevelQuery }, { additionalProperties: false }),
    Type.Object({ topics: Type.Array(Density) }, open),
    async (q: { level?: number }) => ({ topics: await db.densityMap({ level: q.level }) }),
  );
  get(
    api,
    '/insights/cross-domain',
    'Entities joining topics: participation coefficient, bridge score, topics joined, the claims making the bridge',
    Type.Object(
      { top_k: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 20 })), level: LevelQuery },
      { additionalProperties: false },
    ),
    Type.Object({ bridges: Type.Array(CrossDomainBridge) }, open),
    async (q: { top_k?: number; level?: number }) => ({
      bridges: await db.crossDomainBridges({ top_k: q.top_k, level: q.level }),
    }),
  );
  api.post(
    '/topology/compute',
    {
      schema: {
        tags: ['topology'],
        summary: 'Compute the topic hierarchy (Leiden) over the active claims; kept beside the base',
        body: Type.Object(
          {
            resolution: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1000, default: 1 })),
            levels: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, default: 3 })),
            seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1, default: 0 })),
            min_topic_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
            restarts: Type.Optional(
              Type.Integer({
                minimum: 1,
                maximum: 16,
                default: 3,
                description: 'Leiden runs (seeds seed, seed + 1, ...); the partition of highest modularity is kept',
              }),
            ),
            // 0 passes the schema and the KB rejects it with a message that says what -1 means.
            n_iterations: Type.Optional(
              Type.Integer({
                minimum: -1,
                maximum: 100_000,
                default: -1,
                description:
                  "Leiden iterations, as leidenalg's n_iterations: -1 until no node moves, else at most this many",
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: TopologyResult, ...errors(429) },
      },
    },
    // Off the thread: Leiden on worker threads whatever the base's size, and 429 busy (Retry-After) when one
    // computation runs and two wait.
    async (req, reply) =>
      withRetryAfter(reply, () =>
        db.computeTopology({ ...((req.body ?? {}) as Parameters<KbDB['computeTopology']>[0]), off_thread: true }),
      ),
  );
}
