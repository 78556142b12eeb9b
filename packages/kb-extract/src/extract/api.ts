// Claims from text, conversations and team chat, and claim review: the extraction a base delegates to (kb-core's
// ExtractionPort). One Extraction serves one base and owns that base's ClaimReviewer (set by configureCurator);
// it uses only the base's public methods, and each call ends in exactly one ingestBatch, so one text, one
// conversation list or one archive is one transaction (nothing half-ingested) and the ordinary events fire.
// The pipeline every call runs is pipeline.ts; the seed of heuristic extraction seed.ts; the reviewer reviewer.ts.
import { basename } from 'node:path';
import {
  KbValidationError,
  type ClaimInput,
  type CurateResult,
  type CuratorConfigured,
  type CuratorSpec,
  type ExtractionMode,
  type ExtractionPort,
  type ExtractOptions,
  type FlagReport,
  type IngestChatFileOptions,
  type IngestChatOptions,
  type IngestResult,
  type IngestTeamChatOptions,
  type IngestTextOptions,
  type KbDB,
  type Provenance,
  type SkipReport,
} from '@evident/kb-core';
import { readChatFile } from '../chat/files.js';
import { normalizeMessages, type ChatTurn } from '../chat/messages.js';
import { readSlackExport } from '../chat/slack.js';
import { HEURISTIC, claimReviewer, type ClaimReviewer } from './reviewer.js';
import { curate, hash, runIngest, type Unit } from './pipeline.js';

export type { ExtractOutput, ExtractedClaim, PredicateRule, SkippedStatement } from './heuristic.js';
export type {
  CurateResult,
  CuratorConfigured,
  CuratorSpec,
  ExtractionMode,
  ExtractOptions,
  FlagReport,
  IngestChatFileOptions,
  IngestChatOptions,
  IngestResult,
  IngestTeamChatOptions,
  IngestTextOptions,
  SkipReport,
};
export { EXTRACTION_MODES } from './pipeline.js';
export {
  contextOfSeed,
  extractContext,
  extractSeed,
  extractTextHeuristic,
  type ExtractSeed,
  type TextExtractor,
  useTextExtractor,
} from './seed.js';
export { claimReviewer, type ClaimReviewer } from './reviewer.js';

// ---- public calls ----------------------------------------------------------------------------------

export const TEXT_LIMITS = { max_chars: 10_000_000 } as const;

/** Claims from prose. One text is one source and one transaction. */
async function ingestText(
  db: KbDB,
  owner: Extraction,
  text: string,
  options: IngestTextOptions = {},
): Promise<IngestResult> {
  if (typeof text !== 'string') throw new KbValidationError('invalid_type', 'text', 'must be a string');
  if (text.trim() === '') throw new KbValidationError('empty_text', 'text', 'is empty');
  if (text.length > TEXT_LIMITS.max_chars)
    throw new KbValidationError('too_long', 'text', `is longer than ${TEXT_LIMITS.max_chars} characters`);
  if (options.source_id !== undefined && typeof options.source_id !== 'string')
    throw new KbValidationError('invalid_type', 'source_id', 'must be a string');
  const source_id = options.source_id?.trim() || `text:${hash(text).slice(0, 16)}`;
  const source_type = options.source_type ?? 'text';
  return runIngest(db, owner, [{ text, provenance: { source_type, source_id } }], options, true);
}

function chatUnits(turns: ChatTurn[], base: Omit<Provenance, 'source_id'>, prefix: string): Unit[] {
  return turns.map((t) => ({
    text: t.text,
    provenance: {
      ...base,
      source_id: `${prefix}/${t.message_id}`,
      message_id: t.message_id,
      role: t.role,
      ...(t.created_at ? { created_at: t.created_at } : {}),
      ...(t.author ? { author: t.author } : {}),
    } as unknown as Provenance,
  }));
}

/**
 * Claims from hosted-chat messages (OpenAI- or Anthropic-style). Each message is a source:
 * `chat:<conversation_id>/<message id or position>`.
 */
async function ingestChat(
  db: KbDB,
  owner: Extraction,
  messages: unknown[],
  options: IngestChatOptions = {},
): Promise<IngestResult> {
  const turns = normalizeMessages(messages);
  if (Array.isArray(messages) && messages.length === 0)
    throw new KbValidationError('empty', 'messages', 'holds no messages');
  const cid = options.conversation_id?.trim() || `chat-${hash(JSON.stringify(turns)).slice(0, 12)}`;
  return runIngest(
    db,
    owner,
    chatUnits(turns, { source_type: 'chat', platform: 'api', conversation_id: cid }, `chat:${cid}`),
    options,
  );
}

/**
 * Claims from a ChatGPT or Claude export ZIP, a JSON conversation or a text transcript. The whole file is
 * one transaction; source ids are `<platform>:<conversation id>/<message id>`.
 */
// Deliberate likeness: ingestTeamChat opens alike (path check, a units generator); readers and source ids differ.
async function ingestChatFile(
  db: KbDB,
  owner: Extraction,
  path: string,
  options: IngestChatFileOptions = {},
): Promise<IngestResult> {
  if (typeof path !== 'string' || path.trim() === '')
    throw new KbValidationError('invalid_type', 'path', 'must be a file path');
  const file = basename(path);
  async function* units(): AsyncGenerator<Unit> {
    for await (const conv of readChatFile(path, options.platform ?? 'auto', options)) {
      const base = {
        source_type: 'chat',
        platform: conv.platform,
        conversation_id: conv.conversation_id,
        file,
        ...(conv.title ? { conversation_title: conv.title } : {}),
      };
      yield* chatUnits(conv.turns, base, `${conv.platform}:${conv.conversation_id}`);
    }
  }
  return runIngest(db, owner, units(), options);
}

/**
 * Claims from a Slack workspace export ZIP. Source ids are `slack:<workspace>/<channel>/<ts>`; a reply
 * carries its thread root's source id in `provenance.thread_source_id`.
 */
// Deliberate likeness: ingestChatFile opens alike (path check, a units generator); readers and source ids differ.
async function ingestTeamChat(
  db: KbDB,
  owner: Extraction,
  path: string,
  options: IngestTeamChatOptions = {},
): Promise<IngestResult> {
  if (typeof path !== 'string' || path.trim() === '')
    throw new KbValidationError('invalid_type', 'path', 'must be a file path');
  const file = basename(path);
  async function* units(): AsyncGenerator<Unit> {
    for await (const m of readSlackExport(path, options)) {
      const prefix = `slack:${m.workspace}/${m.channel}`;
      yield {
        text: m.text,
        provenance: {
          source_type: 'team_chat',
          source_id: `${prefix}/${m.ts}`,
          platform: 'slack',
          workspace: m.workspace,
          channel: m.channel,
          channel_id: m.channel_id,
          message_ts: m.ts,
          user_name: m.user_name,
          posted_at: m.posted_at,
          file,
          ...(m.user_id ? { user_id: m.user_id } : {}),
          ...(m.thread_ts ? { thread_ts: m.thread_ts, thread_source_id: `${prefix}/${m.thread_ts}` } : {}),
        },
      };
    }
  }
  return runIngest(db, owner, units(), options);
}

/**
 * The extraction one base is opened with (kb-core's ExtractionPort): holds that base's reviewer and the
 * sentences 'smart' extraction already sent to a model from it. One instance per base.
 */
export class Extraction implements ExtractionPort {
  /** What curate and every ingest review with; set by configureCurator (default: the offline heuristic). */
  reviewer: ClaimReviewer = HEURISTIC;
  /** Hashes of sentences 'smart' extraction sent to a model from this base. */
  readonly smartSeen = new Set<string>();

  ingestText(db: KbDB, text: string, options?: IngestTextOptions): Promise<IngestResult> {
    return ingestText(db, this, text, options);
  }

  ingestChat(db: KbDB, messages: unknown[], options?: IngestChatOptions): Promise<IngestResult> {
    return ingestChat(db, this, messages, options);
  }

  ingestChatFile(db: KbDB, path: string, options?: IngestChatFileOptions): Promise<IngestResult> {
    return ingestChatFile(db, this, path, options);
  }

  ingestTeamChat(db: KbDB, path: string, options?: IngestTeamChatOptions): Promise<IngestResult> {
    return ingestTeamChat(db, this, path, options);
  }

  curate(db: KbDB, claims: ClaimInput[]): Promise<CurateResult> {
    return curate(db, this, claims);
  }

  /** Sets the reviewer (see claimReviewer); `env` is where API keys are looked up. Synchronous at heart. */
  configureCurator(_db: KbDB, spec: CuratorSpec, env: NodeJS.ProcessEnv = process.env): CuratorConfigured {
    this.reviewer = claimReviewer(spec, env);
    const p = this.reviewer.provider;
    return p ? { curator: p.provider, model: p.model } : { curator: 'heuristic' };
  }
}

/** A fresh extraction for one base: `open(path, { extraction: createExtraction() })`. */
export function createExtraction(): Extraction {
  return new Extraction();
}

export {
  KbProviderError,
  PROVIDERS,
  PROVIDER_NAMES,
  type ProviderName,
  type ProviderOptions,
} from '../providers/index.js';
export { KbArchiveError, ZIP_DEFAULTS, type ZipLimits } from '../archive/zip.js';
export { KbChatFileError, CHAT_FILE_DEFAULTS, CHAT_PLATFORMS, type ChatPlatform } from '../chat/files.js';
