// The extraction pipeline: each unit of text through heuristic, model or 'smart' extraction, the candidates through
// the reviewer, and everything written in one ingestBatch (one text, conversation list or archive is one
// transaction).
import { createHash } from 'node:crypto';
import {
  KbValidationError,
  type ClaimInput,
  type CurateResult,
  type ExtractionMode,
  type ExtractOptions,
  type FlagReport,
  type IngestResult,
  type KbDB,
  type Provenance,
  type SkipReport,
  type StoredClaimWarning,
} from '@evident/kb-core';
import { reviewHeuristic, type Verdict } from '../curate/heuristic.js';
import { reviewWithModel } from '../curate/provider.js';
import { KbProviderError, resolveProvider, TokenBudget, type ResolvedProvider } from '../providers/index.js';
import { extractHeuristic, type ExtractContext, type ExtractedClaim, type ExtractOutput } from './heuristic.js';
import { extractWithModel } from './llm.js';
import { findMentions } from './ner.js';
import type { ClaimReviewer } from './reviewer.js';
import { contextOfSeed, extractSeed, textExtractorInUse } from './seed.js';

export const EXTRACTION_MODES: readonly ExtractionMode[] = ['heuristic', 'llm', 'smart'];

/** What an extraction keeps per base: its reviewer and the sentences 'smart' extraction already sent to a model. */
export interface ExtractionState {
  reviewer: ClaimReviewer;
  smartSeen: Set<string>;
}

/** A piece of text to extract from, and the provenance its claims get. */
export interface Unit {
  text: string;
  provenance: Provenance;
}

export const hash = (s: string) => createHash('sha256').update(s).digest('hex');

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
export async function runIngest(
  db: KbDB,
  owner: ExtractionState,
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
  const extractor = elsewhere ? textExtractorInUse() : undefined;
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

/** Reviews claims with the configured curator and stores those that pass (flagged ones too, marked). */
export async function curate(db: KbDB, owner: ExtractionState, claims: ClaimInput[]): Promise<CurateResult> {
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
