// @evident/kb: a claim-native knowledge base. See README.md.
export { open, quickstart, KbDB, BACKENDS, type Backend, type Curator, type OpenOptions, type QuickstartOptions, type RetractResult } from './db/kb.js';
export { KbView, type ClaimsForOptions } from './db/view.js';
export * from './errors.js';
export type * from './types.js';
export type { Vocabulary, PredicateSpec } from './model/registry.js';
export { bio, builtinVocabularies } from './vocab/bio.js';
export type { KnowledgeHealth } from './analytics/health.js';
export type { Bridge } from './analytics/bridges.js';
export type { ExpectedPattern, ConfidenceAlertOptions } from './analytics/quality.js';
export type { QueryOptions } from './graph/query.js';
export type { ClaimStore, LogEntry, LogRecord, StoreOpenOptions, OpenStore } from './store/types.js';
export { SqliteClaimStore } from './store/sqlite.js';
export {
  ingestText, ingestChat, ingestChatFile, ingestTeamChat, curate, configureCurator, extractContext,
  EXTRACTION_MODES, TEXT_LIMITS, KbProviderError, PROVIDERS, PROVIDER_NAMES, KbArchiveError, ZIP_DEFAULTS,
  KbChatFileError, CHAT_PLATFORMS,
  type ExtractionMode, type ExtractOptions, type IngestResult, type IngestTextOptions, type IngestChatOptions,
  type IngestChatFileOptions, type IngestTeamChatOptions, type CurateResult, type CuratorSpec, type SkipReport,
  type FlagReport, type ProviderName, type ProviderOptions, type ZipLimits, type ChatPlatform,
} from './extract/api.js';
