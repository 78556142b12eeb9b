// Reports over the whole base: schema, stats, health, quality, predicted links, weak and missing knowledge.
import { Type, type Static } from '@sinclair/typebox';
import * as S from '../surface/schemas.js';
import { fits, type Matches, open, operation, type Param, strict } from './operation.js';

const none = Type.Object({}, strict);

const AlertOptions = Type.Object(
  {
    stale_days: Type.Optional(Type.Number({ minimum: 0, maximum: 36500, default: 365 })),
    low_confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: 0.5 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000, default: 100 })),
  },
  strict,
);
fits<Matches<Static<typeof AlertOptions>, Param<'findConfidenceAlerts', 0>>>();

const BridgeOptions = Type.Object(
  { top_k: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 20 })) },
  strict,
);
fits<Matches<Static<typeof BridgeOptions>, Param<'findBridges', 0>>>();

const GapOptions = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000, default: 100 })) },
  strict,
);
fits<Matches<Static<typeof GapOptions>, Param<'findGaps', 1>>>();

const EmbeddingStatus = Type.Object({
  provider: Type.String(),
  model: Type.String(),
  dim: Type.Integer(),
  indexed: Type.Integer(),
  pending: Type.Integer(),
  last_error: Type.Union([Type.String(), Type.Null()]),
  progress: Type.Number({ minimum: 0, maximum: 1 }),
  eta_ms: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
  index_pending: Type.Integer({ minimum: 0 }),
  index_progress: Type.Number({ minimum: 0, maximum: 1 }),
});

// Deliberate likeness: each operation declares its own fields (the catalogue's one shape), not repeated logic.
export const REPORT_OPERATIONS = [
  operation({
    name: 'get_schema',
    title: 'Schema',
    description:
      'Entity types, predicates and relationship patterns with counts, and the registered vocabularies and predicate constraints (also the MCP resource kb://schema).',
    rest: { method: 'GET', path: '/schema', tag: 'reports' },
    input: none,
    output: S.AnyObject,
    effect: 'read',
    library: ['schema'],
    example: {},
    run: (db) => db.schema(),
  }),
  operation({
    name: 'get_stats',
    title: 'Stats',
    description: 'Entity and claim counts, the index size, the store, and the derived data kept beside the base.',
    rest: { method: 'GET', path: '/stats', tag: 'reports' },
    input: none,
    output: S.AnyObject,
    effect: 'read',
    library: ['stats'],
    example: {},
    run: (db) => db.stats(),
  }),
  operation({
    name: 'embedding_status',
    title: 'Embedding status',
    description:
      "The vectors' progress (issue 41): provider, model, dimensions, facts and entities indexed and pending, the last " +
      'error, `progress` (share done of the work queued since nothing was last pending; 1 when idle) and `eta_ms` ' +
      '(milliseconds until nothing is pending at the rate so far; null when idle or too early to tell), then ' +
      "`index_pending` and `index_progress` (the local lanes' HNSW still to build after the vectors are searchable; " +
      '0 and 1 when done or with one tier). `status` is ' +
      'null on a base opened without vectors.',
    rest: { method: 'GET', path: '/embeddings/status', tag: 'reports' },
    input: none,
    output: Type.Object({ status: Type.Union([EmbeddingStatus, Type.Null()]) }),
    effect: 'read',
    library: ['embeddingStatus'],
    example: {},
    run: async (db) => ({ status: db.embeddingStatus() }),
  }),
  operation({
    name: 'knowledge_health',
    title: 'Knowledge health',
    description:
      'Overall health score 0..100 of the base, from five metrics 0..1 weighted 30/25/20/15/10: multi_source_ratio (entities backed by more than one source), ' +
      'corroboration_ratio (claims independently confirmed), freshness (30-day half-life), source_diversity (distinct source types), confidence_trend.',
    rest: { method: 'GET', path: '/health', tag: 'reports' },
    input: none,
    output: S.Health,
    effect: 'read',
    library: ['knowledgeHealth'],
    example: {},
    run: (db) => db.knowledgeHealth(),
  }),
  operation({
    name: 'quality_report',
    title: 'Quality report',
    description:
      'Quality report: single-source entities (count, ratio, examples), claims per source type and top sources, knowledge density. Use it to decide what to corroborate next.',
    rest: { method: 'GET', path: '/quality', tag: 'reports' },
    input: none,
    output: S.QualityReport,
    effect: 'read',
    library: ['qualityReport'],
    example: {},
    run: (db) => db.qualityReport(),
  }),
  operation({
    name: 'find_bridges',
    title: 'Find bridges',
    description:
      'Predicted links: pairs of entities not linked yet that share neighbours (Adamic-Adar score), with a suggested predicate and the reason. Candidates for new claims or inquiries.',
    rest: { method: 'GET', path: '/insights/bridges', tag: 'insights' },
    input: BridgeOptions,
    output: Type.Object({ bridges: Type.Array(S.Bridge) }, open),
    effect: 'read',
    library: ['findBridges'],
    example: { top_k: 5 },
    run: async (db, a) => ({ bridges: await db.findBridges(a) }),
  }),
  operation({
    name: 'confidence_alerts',
    title: 'Confidence alerts',
    description:
      'Entities whose knowledge is weak: single_source, stale (newest claim older than stale_days) or low_confidence (mean confidence below the threshold).',
    rest: { method: 'GET', path: '/insights/gaps', tag: 'insights' },
    input: AlertOptions,
    output: Type.Object({ alerts: Type.Array(S.ConfidenceAlert) }, open),
    effect: 'read',
    library: ['findConfidenceAlerts'],
    example: { low_confidence: 0.99 },
    run: async (db, a) => ({ alerts: await db.findConfidenceAlerts(a) }),
  }),
  operation({
    name: 'find_gaps',
    title: 'Missing relationships',
    description:
      'Entities lacking a relationship their type usually has: a relationship is expected of a type when at least half of its (at least 5) entities have it.',
    rest: { method: 'GET', path: '/insights/missing', tag: 'insights' },
    input: GapOptions,
    output: Type.Object({ gaps: Type.Array(S.AnyObject) }, open),
    effect: 'read',
    library: ['findGaps'],
    example: { limit: 10 },
    run: async (db, a) => ({ gaps: await db.findGaps(undefined, a) }),
  }),
];
