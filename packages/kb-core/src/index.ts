// @evident/kb-core: the claim-native knowledge base without extraction or surfaces. Users import '@evident/kb'
// (packages/kb/README.md), which opens bases with extraction wired in.
export { KbDB, type RetractResult } from './facade/kb.js';
export { open, quickstart } from './facade/open.js';
export { openOptionsOf, quickstartOptionsOf } from './facade/options.js';
export { BACKENDS, type Backend, type Curator, type OpenOptions, type QuickstartOptions } from './facade/options.js';
export { KbView, type KbReader, type ClaimsForOptions } from './facade/view.js';
export * from './errors.js';
export type * from './types.js';
export type { Vocabulary, PredicateSpec } from './model/registry.js';
export { bio, devops, ml, builtinVocabularies } from './vocab/index.js';
export type { KnowledgeHealth } from './analytics/health.js';
export type { Bridge } from './analytics/bridges.js';
export { KbTopologyNotComputedError } from './topology/index.js';
export type * from './topology/index.js';
export type { EmbeddingOptions } from './facade/view.js';
export type { ExpectedPattern, ConfidenceAlertOptions } from './analytics/quality.js';
export type { QueryOptions } from './graph/query.js';
export type { ClaimStore, LogEntry, LogRecord, StoreOpenOptions, OpenStore } from './store/types.js';
export { SqliteClaimStore } from './store/sqlite.js';
export type * from './facade/extraction-port.js';
export type { EmbeddingPort } from './embeddings/port.js';
export { normalizeName } from './model/normalize.js';
export {
  KbCypherReadOnlyError,
  MAX_PARAM_DEPTH,
  type RawQueryOptions,
  type RawQueryResult,
} from './cypher/raw-query.js';
export { isPostgresUrl } from './store/open-store.js';
export type * from './reasoning/index.js';
export {
  WHAT_IF_LIMITS,
  type WhatIfChanges,
  type WhatIfHypothesis,
  type WhatIfSide,
  type WhatIfSummary,
  type WhatIfSummaryInput,
} from './write/what-if-graph.js';
// work off the caller's thread (src/offload)
export {
  KbBusyError,
  KbOffThreadUnavailableError,
  KbWorkerMemoryError,
  KbWorkerTimeoutError,
} from './offload/errors.js';
export type { OffThreadSettings } from './replica/replica.js';
export { OPPOSITE_PREDICATES, PREDICATE_COMPOSITIONS, type PredicateComposition } from './vocab/bio.js';
// search and embeddings (src/search, src/embeddings)
export { KbEmbeddingError, type EmbeddingStatus } from './embeddings/queue.js';
export type { EmbeddingOption } from './facade/options.js';
export type {
  SearchAnswer,
  SearchHit,
  SearchSignals,
  SearchMode,
  SearchFilters,
  EntityHit,
  EntitySearchAnswer,
} from './search/search.js';
export type { SearchOptions, SearchEntitiesOptions } from './search/stage.js';
