// The extension port through which a base reaches claim extraction and review (packages/kb-extract). The core
// never imports extraction: a base opened with an `extraction` port delegates ingestText, ingestChat,
// ingestChatFile, ingestTeamChat, curate and configureCurator to it; a base opened without one throws
// KbExtractionUnavailableError from them. `open` from '@evident/kb' opens every base with one.
//
// The option and result types of those six methods are defined here, so that KbDB's signatures stay exact
// without the core knowing how extraction works; kb-extract implements them and re-exports them.
import type { Vocabulary } from '../model/registry.js';
import type { ClaimInput } from '../types.js';
import type { KbDB } from './kb.js';

export type ExtractionMode = 'heuristic' | 'llm' | 'smart';

export type ProviderName = 'openai' | 'anthropic' | 'google' | 'mistral' | 'groq' | 'deepseek' | 'xai';

export interface ProviderOptions {
  provider: ProviderName;
  model?: string;
  /** Overrides the environment (never logged, never stored in the base). */
  api_key?: string;
  base_url?: string;
  /** Per attempt. Default 60 s. */
  timeout_ms?: number;
  /** Retries after the first attempt on 429, 5xx, timeouts and schema-invalid output. Default 3. */
  max_retries?: number;
  /** First backoff delay; doubles per retry, capped at 30 s. Default 1000 ms. */
  backoff_ms?: number;
  /** Output tokens per call. Default 2048. */
  max_output_tokens?: number;
  /** Prompt characters per call (longer inputs are split by the caller). Default 24,000 (~6k tokens). */
  max_input_chars?: number;
  /** Tokens (input + output) one ingest or curate call may spend in all. Default 200,000. */
  max_total_tokens?: number;
}

export interface ExtractOptions {
  /** 'heuristic' (default, offline), 'llm' (a provider extracts), 'smart' (heuristic, then the model for text
   * it found nothing in). */
  extraction?: ExtractionMode;
  /** Provider for 'llm' / 'smart'; default: the provider given to configureCurator. */
  provider?: string | ProviderOptions;
  /** Extra vocabularies for entity recognition (registered custom vocabularies are not readable through KbDB). */
  vocabularies?: Vocabulary[];
}

export interface SkipReport {
  reason: string;
  source_id?: string;
  claim?: ClaimInput;
  sentence?: string;
  subject?: string;
  predicate?: string;
  object?: string;
}

export interface FlagReport {
  claim_id: string;
  claim: ClaimInput;
  reasons: string[];
}

/** A stored claim's warning (see ClaimWarning), with the claim it belongs to. */
export interface StoredClaimWarning {
  claim_id: string;
  code: string;
  field: string;
  message: string;
}

export interface IngestResult {
  /** Stored claim ids (for a duplicate, the id of the claim already stored). */
  claim_ids: string[];
  ingested: number;
  duplicates: number;
  skipped: SkipReport[];
  flagged: FlagReport[];
  /** Source ids written (retract() takes these). */
  source_ids: string[];
  /** Warnings of stored claims (vocabulary violations a non-strict base stores, a source retracted before). */
  warnings: StoredClaimWarning[];
}

export interface IngestTextOptions extends ExtractOptions {
  /** Names the document; default `text:<sha256 of the text, 16 hex digits>`. */
  source_id?: string;
  /** Default 'text'. */
  source_type?: string;
}

export interface IngestChatOptions extends ExtractOptions {
  /** Names the conversation; default `chat-<hash of the messages>`. */
  conversation_id?: string;
}

export interface ZipLimits {
  max_total_bytes?: number;
  max_entries?: number;
}

export interface ChatFileLimits extends ZipLimits {
  /** Bytes of a plain-text transcript or a single JSON conversation object read whole. Default 256 MiB. */
  max_document_bytes?: number;
  /**
   * Characters of one string in a chat file: a JSON string value (read as a stream, refused before it is held
   * whole) or a message's text. Default 16 Mi (16,777,216); beyond, `too_large` naming the file and member.
   */
  max_string_chars?: number;
}

export type ChatPlatform = 'auto' | 'chatgpt' | 'claude' | 'json' | 'text';

export interface IngestChatFileOptions extends ExtractOptions, ChatFileLimits {
  platform?: ChatPlatform;
}

export interface IngestTeamChatOptions extends ExtractOptions, ChatFileLimits {
  /** Channel names to read (with or without '#'); default all. */
  channels?: string[];
}

export interface CurateResult {
  stored: { index: number; claim_id: string; claim: ClaimInput }[];
  skipped: { index: number; claim: ClaimInput; reason: string }[];
  flagged: { index: number; claim_id: string; claim: ClaimInput; reasons: string[] }[];
  ingested: number;
  duplicates: number;
  /** Warnings of stored claims, as in IngestResult. */
  warnings: StoredClaimWarning[];
}

/** Thresholds of the offline review (also applied before a model reviews). */
export interface HeuristicCuratorOptions {
  /** Claims below this confidence are skipped. Default 0.3. */
  min_confidence?: number;
  /** Claims below this confidence (and hedged claims) are flagged. Default 0.5. */
  flag_below?: number;
}

/** What configureCurator takes: 'heuristic', a provider name, 'provider:model' or an options object. */
export type CuratorSpec =
  | 'heuristic'
  | string
  | (ProviderOptions & HeuristicCuratorOptions)
  | ({ provider: 'heuristic' } & HeuristicCuratorOptions);

/** What configureCurator answers: the reviewer now in use (and its model, for a provider). */
export interface CuratorConfigured {
  curator: string;
  model?: string;
}

/**
 * Extraction and review for one base. Every call gets the base it works on; an implementation uses only the
 * base's public API and ends each ingest in one ingestBatch (one text, conversation list or archive is one
 * transaction). One port instance serves one base: it may keep per-base state (the configured reviewer).
 */
export interface ExtractionPort {
  ingestText(db: KbDB, text: string, options?: IngestTextOptions): Promise<IngestResult>;
  ingestChat(db: KbDB, messages: unknown[], options?: IngestChatOptions): Promise<IngestResult>;
  ingestChatFile(db: KbDB, path: string, options?: IngestChatFileOptions): Promise<IngestResult>;
  ingestTeamChat(db: KbDB, path: string, options?: IngestTeamChatOptions): Promise<IngestResult>;
  curate(db: KbDB, claims: ClaimInput[]): Promise<CurateResult>;
  configureCurator(db: KbDB, spec: CuratorSpec): CuratorConfigured | Promise<CuratorConfigured>;
}

// The option keys each call takes; any other key is refused (KbValidationError naming it).
const EXTRACT_KEYS = ['extraction', 'provider', 'vocabularies'] as const;
const FILE_LIMIT_KEYS = ['max_total_bytes', 'max_entries', 'max_document_bytes', 'max_string_chars'] as const;
export const OPTION_KEYS = {
  ingestText: [...EXTRACT_KEYS, 'source_id', 'source_type'],
  ingestChat: [...EXTRACT_KEYS, 'conversation_id'],
  ingestChatFile: [...EXTRACT_KEYS, ...FILE_LIMIT_KEYS, 'platform'],
  ingestTeamChat: [...EXTRACT_KEYS, ...FILE_LIMIT_KEYS, 'channels'],
} as const;
