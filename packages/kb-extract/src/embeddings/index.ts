// Embedding providers for kb-core's EmbeddingPort (see README.md, "Embedding providers").
export {
  createEmbeddingPort,
  MAX_TEXTS_PER_CALL,
  type EmbeddingPort,
  type EmbeddingPortInfo,
  type ProviderEmbeddingPort,
} from './port.js';
export {
  EMBEDDING_CONFIG_KEYS,
  EMBEDDING_DEFAULTS,
  resolveEmbeddingConfig,
  type EmbeddingConfig,
  type ResolvedEmbeddingConfig,
} from './config.js';
export {
  EMBEDDING_PROVIDERS,
  EMBEDDING_PROVIDER_NAMES,
  knownDim,
  type EmbeddingProviderInfo,
  type EmbeddingProviderName,
} from './catalog.js';
export { KbEmbeddingError, type EmbeddingErrorCode } from './errors.js';
