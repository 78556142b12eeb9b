// The topology calls (kb-core's src/topology): the computation (off the caller's thread: Leiden on worker threads
// whatever the base's size, and 429 busy with Retry-After when one runs and two wait), then the topics, one topic,
// the density map and the entities joining topics. A read before the first computation is 409 not_computed.
import { Type, type Static } from '@sinclair/typebox';
import * as S from '../surface/schemas.js';
import * as T from '../surface/topology-schemas.js';
import { fits, type Matches, open, operation, type Param, strict } from './operation.js';

// Deliberate likeness: each operation declares its own fields (the catalogue's one shape), not repeated logic.
const Level = Type.Optional(Type.Integer({ minimum: 0, maximum: 10, description: 'Hierarchy level (0: finest)' }));
const LevelOptions = Type.Object({ level: Level }, strict);
fits<Matches<Static<typeof LevelOptions>, Param<'topics', 0>>>();
fits<Matches<Static<typeof LevelOptions>, Param<'densityMap', 0>>>();
const CrossDomainOptions = Type.Object(
  { top_k: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 20 })), level: Level },
  strict,
);
fits<Matches<Static<typeof CrossDomainOptions>, Param<'crossDomainBridges', 0>>>();

const ComputeOptions = Type.Object(
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
        description: "Leiden iterations, as leidenalg's n_iterations: -1 until no node moves, else at most this many",
      }),
    ),
    full: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'Recompute from scratch. Default: update the previous result around the changed entities when it has ' +
          'the same settings and at most incremental_max_fraction of the entities changed (mode in the answer)',
      }),
    ),
    // kb-core takes 0 too (never incremental); full: true says that plainly, so the surfaces ask for (0, 1].
    incremental_max_fraction: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 1,
        default: 0.01,
        description: 'The largest share of the entities changed since the previous result for an incremental update',
      }),
    ),
  },
  strict,
);
fits<Matches<Static<typeof ComputeOptions>, Param<'computeTopology', 0>>>();

const errors = [404, 409] as const;

export const TOPOLOGY_OPERATIONS = [
  operation({
    name: 'compute_topology',
    title: 'Compute topics',
    description:
      'Compute the topic hierarchy (Leiden) over the active claims; kept beside the base for the topology reads. ' +
      'Updates the previous result incrementally when few entities changed (full: true recomputes). ' +
      "Runs off the server's thread; 429 busy (Retry-After) while one computation runs and two wait.",
    // The library's own queue: one computation running, two waiting.
    rest: { method: 'POST', path: '/topology/compute', tag: 'topology', errors: [429], heavy: { most: 3 } },
    input: ComputeOptions,
    output: T.TopologyResult,
    effect: 'write',
    idempotent: true,
    library: ['computeTopology'],
    example: { levels: 2 },
    run: (db, a) => db.computeTopology({ ...a, off_thread: true }),
  }),
  operation({
    name: 'list_topics',
    title: 'Topics',
    description:
      'The topic hierarchy of the last computation, and whether it is current (409 not_computed before one).',
    rest: { method: 'GET', path: '/topology', tag: 'topology', errors },
    input: LevelOptions,
    output: Type.Object({ topics: Type.Array(T.Topic), status: T.Status }, open),
    effect: 'read',
    library: ['topics', 'stats'],
    example: { level: 0 },
    run: async (db, a) => ({ topics: await db.topics(a), status: (await db.stats()).derived.topology }),
  }),
  operation({
    name: 'get_topic',
    title: 'One topic',
    description: 'One topic: its entities with centrality, inside relationships and subtopics (404 for an unknown id).',
    rest: { method: 'GET', path: '/topics/:topic_id', tag: 'topology', errors },
    input: Type.Object(
      {
        topic_id: Type.String({ minLength: 1, maxLength: 200 }),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 50 })),
      },
      strict,
    ),
    output: Type.Object(
      {
        topic: T.Topic,
        entities: Type.Array(T.TopicEntity),
        relationships: Type.Array(S.AnyObject),
        subtopics: Type.Array(T.Topic),
      },
      open,
    ),
    effect: 'read',
    library: ['queryTopic'],
    example: { topic_id: '0.0', limit: 10 },
    run: (db, { topic_id, ...o }) => db.queryTopic(topic_id, o),
  }),
  operation({
    name: 'density_map',
    title: 'Density map',
    description: 'Per topic: claim counts, source diversity, coverage, internal and external density.',
    rest: { method: 'GET', path: '/density', tag: 'topology', errors },
    input: LevelOptions,
    output: Type.Object({ topics: Type.Array(T.Density) }, open),
    effect: 'read',
    library: ['densityMap'],
    example: {},
    run: async (db, a) => ({ topics: await db.densityMap(a) }),
  }),
  operation({
    name: 'cross_domain_bridges',
    title: 'Cross-domain bridges',
    description:
      'Entities joining topics: participation coefficient, bridge score, topics joined, the claims making the bridge.',
    rest: { method: 'GET', path: '/insights/cross-domain', tag: 'topology', errors },
    input: CrossDomainOptions,
    output: Type.Object({ bridges: Type.Array(T.CrossDomainBridge) }, open),
    effect: 'read',
    library: ['crossDomainBridges'],
    example: { top_k: 5 },
    run: async (db, a) => ({ bridges: await db.crossDomainBridges(a) }),
  }),
];
