// Claims from text, conversations and team chat, and claim review: the extraction a base delegates to (kb-core's
// ExtractionPort). One Extraction serves one base and owns that base's ClaimReviewer (set by configureCurator);
// it uses only the base's public methods, and each call ends in exactly one ingestBatch, so one text, one
// conversation list or one archive is one transaction (nothing half-ingested) and the ordinary events fire.
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import {
  KbValidationError,
  builtinVocabularies,
  bio,
  type ClaimInput,
  type CurateResult,
  type CuratorConfigured,
  type CuratorSpec,
  type ExtractionMode,
  type ExtractionPort,
  type ExtractOptions,
  type FlagReport,
  type HeuristicCuratorOptions,
  type IngestChatFileOptions,
  type IngestChatOptions,
  type IngestResult,
  type IngestTeamChatOptions,
  type IngestTextOptions,
  type KbDB,
  type Provenance,
  type SkipReport,
  type StoredClaimWarning,
  type Vocabulary,
} from '@evident/kb-core';
import { readChatFile } from '../chat/files.js';
import { normalizeMessages, type ChatTurn } from '../chat/messages.js';
import { readSlackExport } from '../chat/slack.js';
import { reviewHeuristic, type Verdict } from '../curate/heuristic.js';
import { reviewWithModel } from '../curate/provider.js';
import {
  KbProviderError,
  parseProviderSpec,
  resolveProvider,
  TokenBudget,
  type ProviderOptions,
  type ResolvedProvider,
} from '../providers/index.js';
import {
  contextFrom,
  extractHeuristic,
  type ExtractContext,
  type ExtractedClaim,
  type ExtractOutput,
  type PredicateRule,
} from './heuristic.js';
import { extractWithModel } from './llm.js';
import { findMentions } from './ner.js';

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
export const EXTRACTION_MODES: readonly ExtractionMode[] = ['heuristic', 'llm', 'smart'];

// ---- the claim reviewer ----------------------------------------------------------------------------

/**
 * What reviews candidate claims before they are stored (upstream calls it the curator; `configureCurator`
 * sets it): the offline heuristic, or a language-model provider after the heuristic's checks.
 */
export interface ClaimReviewer {
  /** 'heuristic' or the provider's name. */
  name: string;
  provider: ResolvedProvider | undefined;
  options: HeuristicCuratorOptions;
}

const HEURISTIC: ClaimReviewer = { name: 'heuristic', provider: undefined, options: {} };

/**
 * 'heuristic' (offline, the default), a provider name ('anthropic') or 'provider:model'
 * ('openai:gpt-4o-mini'), or an options object → the reviewer. A provider without its API key in the
 * environment fails here with KbProviderError('missing_api_key'), not later in the middle of an ingest.
 */
export function claimReviewer(spec: CuratorSpec, env: NodeJS.ProcessEnv = process.env): ClaimReviewer {
  const isObj = typeof spec === 'object' && spec !== null;
  const options: HeuristicCuratorOptions = {};
  if (isObj) {
    const o = spec as HeuristicCuratorOptions;
    for (const k of ['min_confidence', 'flag_below'] as const) {
      const v = o[k];
      if (v !== undefined && (typeof v !== 'number' || !(v >= 0 && v <= 1)))
        throw new KbValidationError('out_of_range', k, 'must be a number from 0 to 1');
      if (v !== undefined) options[k] = v;
    }
  }
  if (spec === 'heuristic' || (isObj && (spec as { provider?: string }).provider === 'heuristic')) {
    return { name: 'heuristic', provider: undefined, options };
  }
  if (!isObj && typeof spec !== 'string')
    throw new KbValidationError(
      'invalid_type',
      'curator',
      "must be 'heuristic', a provider name, 'provider:model' or an options object",
    );
  const provider = resolveProvider(isObj ? (spec as ProviderOptions) : parseProviderSpec(spec as string), env);
  return { name: provider.provider, provider, options };
}

// ---- the pipeline ----------------------------------------------------------------------------------

interface Unit {
  text: string;
  provenance: Provenance;
}

/**
 * What heuristic extraction reads from a base, as plain data (it crosses to another thread or process): the
 * vocabularies registered in the base (those shipped with the library) and `extra`, the registered predicates'
 * type constraints (none when no predicate is registered), and the base's entity names with their types.
 */
export interface ExtractSeed {
  vocabularies: Vocabulary[];
  predicates?: Record<string, PredicateRule>;
  entities: [name: string, type: string][];
}

export async function extractSeed(db: KbDB, extra: Vocabulary[] = []): Promise<ExtractSeed> {
  const schema = await db.schema();
  const vocabularies = schema.registered.vocabularies
    .map((n) => builtinVocabularies[n])
    .filter((v): v is Vocabulary => v !== undefined);
  vocabularies.push(...extra);
  const registered = schema.registered.predicates;
  // Without registered predicates nothing constrains types; the bio table still guides the choice among
  // a trigger's candidate predicates ('induces' -> causes | activates | upregulates).
  let predicates: Record<string, PredicateRule> | undefined;
  if (Object.keys(registered).length) {
    predicates = {};
    for (const [k, r] of Object.entries(registered))
      predicates[k] = {
        ...(r.predicate_class ? { predicate_class: r.predicate_class } : {}),
        subject_types: r.subject_types,
        object_types: r.object_types,
      };
  }
  const entities = (await db.listEntities({ limit: 200_000 })).map((e): [string, string] => [e.name, e.type]);
  return { vocabularies, ...(predicates ? { predicates } : {}), entities };
}

/** The extraction context of a seed: the lexicon (vocabularies, then the base's names) and the predicate rules. */
export function contextOfSeed(seed: ExtractSeed): ExtractContext {
  const ctx = contextFrom(seed.vocabularies.length ? seed.vocabularies : [bio], seed.predicates);
  for (const [name, type] of seed.entities) ctx.lexicon.add(name, name, type);
  return ctx;
}

/** Vocabularies registered in the base (those shipped with the library), plus the base's own entity names. */
export async function extractContext(db: KbDB, extra: Vocabulary[] = []): Promise<ExtractContext> {
  return contextOfSeed(await extractSeed(db, extra));
}

/**
 * What ingestText's 'heuristic' extraction finds in `text` over a base's seed: pure and synchronous, so that a
 * server can run it on another thread or process (see TextExtractor).
 */
export function extractTextHeuristic(text: string, seed: ExtractSeed): ExtractOutput {
  return extractHeuristic(text, contextOfSeed(seed));
}

/**
 * Where ingestText's 'heuristic' extraction runs: by default on the caller's thread (extractTextHeuristic); a
 * server sets one that runs it elsewhere (kb-console: a child process with a heap cap and a time budget) with
 * useTextExtractor, for every base of the process. It answers what extractTextHeuristic answers, or rejects.
 */
export type TextExtractor = (text: string, seed: ExtractSeed) => Promise<ExtractOutput>;

let textExtractor: TextExtractor | undefined;

/** Sets (or, with undefined, clears) the process's TextExtractor. */
export function useTextExtractor(extractor: TextExtractor | undefined): void {
  textExtractor = extractor;
}

const hash = (s: string) => createHash('sha256').update(s).digest('hex');

function resolveExtraction(
  reviewer: ClaimReviewer,
  o: ExtractOptions,
): { mode: ExtractionMode; provider: ResolvedProvider | undefined } {
  const mode = o.extraction ?? 'heuristic';
  if (!EXTRACTION_MODES.includes(mode))
    throw new KbValidationError('invalid_value', 'extraction', `must be one of ${EXTRACTION_MODES.join(', ')}`);
  if (mode === 'heuristic') return { mode, provider: undefined };
  const provider = o.provider !== undefined ? resolveProvider(o.provider) : reviewer.provider;
  if (!provider) {
    throw new KbProviderError(
      'no_provider',
      'extraction',
      `extraction '${mode}' needs a language-model provider: call configureCurator(db, '<provider>') or pass { provider }`,
    );
  }
  return { mode, provider };
}

/**
 * True when a claim in the base already came from this very sentence (looked up through the entities the
 * sentence mentions; entities with more than 5,000 claims are not scanned).
 */
async function sentenceKnown(
  db: KbDB,
  ctx: ExtractContext,
  sentence: string,
  cache: Map<string, Set<string> | null>,
): Promise<boolean> {
  for (const m of findMentions(sentence, ctx.lexicon)) {
    const id = await db.resolve(m.name, m.type);
    if (id === null) continue;
    let set = cache.get(id);
    if (set === undefined) {
      const e = await db.getEntity(id);
      set =
        e && e.claim_count <= 5000
          ? new Set(
              (await db.claimsFor(id))
                .map((c) => (c.payload as { sentence?: unknown } | undefined)?.sentence)
                .filter((x): x is string => typeof x === 'string'),
            )
          : null;
      cache.set(id, set);
    }
    if (set?.has(sentence)) return true;
  }
  return false;
}

/** The heuristic's findings in one unit's text: on this thread from the context, or through a TextExtractor. */
type Heuristic = (text: string) => ExtractOutput | Promise<ExtractOutput>;

async function extractUnit(
  db: KbDB,
  seen: Set<string>,
  unit: Unit,
  ctx: () => ExtractContext,
  heuristic: Heuristic,
  mode: ExtractionMode,
  provider: ResolvedProvider | undefined,
  budget: TokenBudget,
  known: Map<string, Set<string> | null>,
): Promise<ExtractOutput> {
  if (mode === 'llm') return extractWithModel(unit.text, ctx(), provider!, budget);
  const out = await heuristic(unit.text);
  if (mode !== 'smart') return out;
  // Sentences the heuristic found nothing in, that are new (not sent before from this handle, and no
  // stored claim came from them) and long enough to state a relationship. They go to the model together.
  const fresh: string[] = [];
  for (const s of out.empty_sentences) {
    const key = hash(s.replace(/\s+/g, ' ').trim().toLowerCase());
    if (s.split(/\s+/).filter((w) => /[A-Za-z]/.test(w)).length < 4 || seen.has(key)) continue;
    if (await sentenceKnown(db, ctx(), s, known)) continue;
    if (seen.size > 100_000) seen.clear();
    seen.add(key);
    fresh.push(s);
  }
  if (fresh.length) {
    const more = await extractWithModel(fresh.join(' '), ctx(), provider!, budget);
    out.claims.push(...more.claims);
    out.skipped.push(...more.skipped);
  }
  return out;
}

function toClaim(c: ExtractedClaim, provenance: Provenance): ClaimInput {
  return {
    subject: c.subject,
    predicate: c.predicate,
    object: c.object,
    provenance: { ...provenance },
    confidence: c.confidence,
    payload: c.payload,
  };
}

/**
 * `elsewhere`: the heuristic runs through the process's TextExtractor when one is set (ingestText: one text, one
 * call; a conversation's many short messages stay on this thread, where one call each would cost more than it saves).
 */
async function runIngest(
  db: KbDB,
  owner: Extraction,
  units: AsyncIterable<Unit> | Iterable<Unit>,
  o: ExtractOptions,
  elsewhere = false,
): Promise<IngestResult> {
  const { mode, provider } = resolveExtraction(owner.reviewer, o);
  // 'heuristic' extraction never calls a provider: a model curator set by configureCurator reviews 'llm' and
  // 'smart' ingests; a heuristic one reviews offline, with the thresholds configured.
  const curator: ClaimReviewer = mode === 'heuristic' ? { ...owner.reviewer, provider: undefined } : owner.reviewer;
  const budget = new TokenBudget((provider ?? curator.provider)?.max_total_tokens ?? Infinity);
  const seed = await extractSeed(db, o.vocabularies);
  let context: ExtractContext | undefined;
  const ctx = () => {
    context ??= contextOfSeed(seed);
    return context;
  };
  const extractor = elsewhere ? textExtractor : undefined;
  const heuristic: Heuristic = extractor ? (text) => extractor(text, seed) : (text) => extractHeuristic(text, ctx());
  const claims: ClaimInput[] = [];
  const skipped: SkipReport[] = [];
  const sources = new Set<string>();
  const known = new Map<string, Set<string> | null>();
  for await (const unit of units) {
    const out = await extractUnit(db, owner.smartSeen, unit, ctx, heuristic, mode, provider, budget, known);
    for (const s of out.skipped)
      skipped.push({
        reason: s.reason,
        source_id: unit.provenance.source_id,
        sentence: s.sentence,
        subject: s.subject,
        predicate: s.predicate,
        object: s.object,
      });
    for (const c of out.claims) claims.push(toClaim(c, unit.provenance));
    if (claims.length > 1_000_000)
      throw new KbValidationError(
        'too_large',
        'claims',
        'more than 1,000,000 claims extracted in one call; split the input',
      );
  }
  const result = await writeCurated(db, claims, curator, budget);
  for (const c of claims) sources.add(c.provenance.source_id);
  return {
    ...result.summary,
    skipped: [...skipped, ...result.skipped],
    source_ids: [...sources],
    warnings: result.warnings,
  };
}

interface WriteOutcome {
  summary: Omit<IngestResult, 'skipped' | 'source_ids' | 'warnings'>;
  warnings: StoredClaimWarning[];
  skipped: (SkipReport & { index: number })[];
  /** Duplicates the curator found (counted in `duplicates` by the ingest calls, listed by curate). */
  duplicate_skips: (SkipReport & { index: number })[];
  stored: { index: number; claim_id: string; claim: ClaimInput }[];
}

/** Curates, then writes what passes in one ingestBatch; claims the engine still refuses are skipped with its message. */
async function writeCurated(
  db: KbDB,
  claims: ClaimInput[],
  curator: ClaimReviewer,
  budget: TokenBudget,
): Promise<WriteOutcome> {
  const verdicts: Verdict[] = curator.provider
    ? await reviewWithModel(db, claims, curator.provider, budget, curator.options)
    : await reviewHeuristic(db, claims, curator.options);
  const skipped: WriteOutcome['skipped'] = [];
  const duplicateSkips: WriteOutcome['skipped'] = [];
  let duplicates = 0;
  const pending: { index: number; claim: ClaimInput; reasons: string[] }[] = [];
  const dupIds: string[] = [];
  verdicts.forEach((v, i) => {
    const claim = claims[i]!;
    if (v.decision === 'skip') {
      const dup = /^duplicate: already stored as (\S+)/.exec(v.reasons[0] ?? '');
      if (dup) dupIds.push(dup[1]!);
      if (v.reasons[0]?.startsWith('duplicate:')) {
        duplicates++;
        duplicateSkips.push({ index: i, reason: v.reasons.join('; '), claim, source_id: claim.provenance.source_id });
      } else
        skipped.push({
          index: i,
          reason: v.reasons.join('; '),
          claim,
          source_id: (claim as { provenance?: Provenance })?.provenance?.source_id ?? '',
        });
      return;
    }
    const stored =
      v.decision === 'flag'
        ? {
            ...claim,
            provenance: {
              ...claim.provenance,
              curation: {
                curator: curator.provider ? `${curator.provider.provider}:${curator.provider.model}` : 'heuristic',
                flags: v.reasons,
              },
            },
          }
        : claim;
    pending.push({ index: i, claim: stored, reasons: v.decision === 'flag' ? v.reasons : [] });
  });
  let batch: Awaited<ReturnType<KbDB['ingestBatch']>> = { ingested: 0, duplicates: 0, claim_ids: [], warnings: [] };
  for (let attempt = 0; ; attempt++) {
    try {
      batch = await db.ingestBatch(pending.map((p) => p.claim));
      break;
    } catch (e) {
      // A claim the engine refuses (e.g. a registered payload schema) is skipped, not the whole batch.
      if (!(e instanceof KbValidationError) || e.index === undefined || attempt > 10_000) throw e;
      const [bad] = pending.splice(e.index, 1);
      skipped.push({
        index: bad!.index,
        reason: `refused: ${e.message}`,
        claim: claims[bad!.index]!,
        source_id: bad!.claim.provenance.source_id,
      });
    }
  }
  const flagged: FlagReport[] = [];
  const stored: WriteOutcome['stored'] = [];
  pending.forEach((p, k) => {
    const id = batch.claim_ids[k]!;
    stored.push({ index: p.index, claim_id: id, claim: p.claim });
    if (p.reasons.length) flagged.push({ claim_id: id, claim: p.claim, reasons: p.reasons });
  });
  const warnings = batch.warnings.map(({ index, ...w }) => ({ claim_id: batch.claim_ids[index]!, ...w }));
  return {
    warnings,
    summary: {
      claim_ids: [...batch.claim_ids, ...dupIds],
      ingested: batch.ingested,
      duplicates: duplicates + batch.duplicates,
      flagged,
    },
    skipped,
    duplicate_skips: duplicateSkips,
    stored,
  };
}

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

/** Reviews claims with the configured curator and stores those that pass (flagged ones too, marked). */
async function curate(db: KbDB, owner: Extraction, claims: ClaimInput[]): Promise<CurateResult> {
  if (!Array.isArray(claims)) throw new KbValidationError('invalid_type', 'claims', 'must be an array of claims');
  const curator = owner.reviewer;
  const budget = new TokenBudget(curator.provider?.max_total_tokens ?? Infinity);
  const out = await writeCurated(db, claims, curator, budget);
  const flaggedIds = new Map(out.summary.flagged.map((f) => [f.claim_id, f.reasons]));
  return {
    stored: out.stored.filter((s) => !flaggedIds.has(s.claim_id)),
    skipped: [...out.skipped, ...out.duplicate_skips]
      .sort((a, b) => a.index - b.index)
      .map(({ index, claim, reason }) => ({ index, claim: claim!, reason })),
    flagged: out.stored
      .filter((s) => flaggedIds.has(s.claim_id))
      .map((s) => ({ ...s, reasons: flaggedIds.get(s.claim_id)! })),
    ingested: out.summary.ingested,
    duplicates: out.summary.duplicates,
    warnings: out.warnings,
  };
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
