// @evident/kb-extract: claims from text, chats and team chat, and claim review, for a base of @evident/kb-core.
// Users reach it through '@evident/kb' (its open wires an Extraction into every base). See README.md.
export {
  Extraction, createExtraction, claimReviewer, extractContext, EXTRACTION_MODES, TEXT_LIMITS,
  KbProviderError, PROVIDERS, PROVIDER_NAMES, KbArchiveError, ZIP_DEFAULTS, KbChatFileError, CHAT_PLATFORMS,
  type ClaimReviewer, type ExtractionMode, type ExtractOptions, type IngestResult, type IngestTextOptions,
  type IngestChatOptions, type IngestChatFileOptions, type IngestTeamChatOptions, type CurateResult, type CuratorSpec,
  type CuratorConfigured, type SkipReport, type FlagReport, type ProviderName, type ProviderOptions, type ZipLimits,
  type ChatPlatform,
} from './extract/api.js';
