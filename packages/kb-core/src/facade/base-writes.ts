// KbDB's writes of claims and retractions (kb.ts keeps their public signatures): each checks its input, captures
// claims as a run (write/capture.ts) and goes through the write path (write/write-path.ts), then fires the claim
// warnings for what it stored.
import { KbClosedError, KbNotFoundError, KbValidationError } from '../errors.js';
import type { PendingEvent } from '../graph/events.js';
import { LIMITS } from '../model/validate.js';
import type { BatchClaimWarning, ClaimInput, IngestBatchResult, IngestOneResult, Provenance } from '../types.js';
import { type ClaimCapture, checkClaims, claimIdsOf, type RunWarnings } from '../write/capture.js';
import type { EventHub } from '../write/events.js';
import type { WritePath } from '../write/write-path.js';

/** What the writes need of a base. */
export interface BaseWrites {
  readonly w: WritePath;
  readonly capture: ClaimCapture;
  readonly events: EventHub;
  readonly strict: boolean;
}

export interface IngestOptions {
  confidence?: number | null;
  payload?: unknown;
}

export interface RetractResult {
  source_id: string;
  reason: string;
  claim_ids: string[];
  degraded_claim_ids: string[];
}

/**
 * Ingests claims atomically (KbDB.ingestBatch).
 */
export async function ingestBatch(b: BaseWrites, claims: ClaimInput[]): Promise<IngestBatchResult> {
  if (!Array.isArray(claims)) throw new KbValidationError('invalid_type', 'claims', 'must be an array of claims');
  if (claims.length > LIMITS.batch_claims)
    throw new KbValidationError('too_large', 'claims', `more than ${LIMITS.batch_claims} claims in one batch`);
  if (b.w.closed) throw new KbClosedError();
  const run = b.capture.capture(claims, true);
  let warned: RunWarnings = new Map();
  const result = await b.w.write(() => {
    warned = checkClaims(b.w.ref.current, run, true, b.strict);
    return {
      entries: run.n ? [run] : [],
      finish: (applied) => {
        const out = (applied[0] as Int32Array | undefined) ?? new Int32Array(0);
        let duplicates = 0;
        for (let i = 0; i < out.length; i++) if (out[i]! < 0) duplicates++;
        const warnings: BatchClaimWarning[] = [];
        for (const [index, list] of warned) for (const w of list) warnings.push({ index, ...w });
        return withLazyClaimIds({ ingested: run.n - duplicates, duplicates, claim_ids: NO_IDS, warnings }, b, out);
      },
    };
  });
  // The write is over and the stores serialise before their first await: nothing refers to the run now.
  b.capture.recycle(run);
  emitWarnings(b, warned, () => result.claim_ids);
  return result;
}

const NO_IDS: string[] = [];

/**
 * The batch's claim ids are made when the caller first reads `claim_ids` (a feed that only counts what it
 * ingested never does), then kept as a plain property. A claim's index and id never change in a graph, so they
 * are the ids an eager result held, whenever read.
 */
function withLazyClaimIds(result: IngestBatchResult, b: BaseWrites, applied: Int32Array): IngestBatchResult {
  // The graph that applied the batch, not whichever the base holds when read (a closed base's, say).
  const g = b.w.ref.current;
  const settle = (ids: string[]) =>
    Object.defineProperty(result, 'claim_ids', { value: ids, writable: true, enumerable: true, configurable: true });
  // Redefining the literal's own property keeps its place among the keys (and in JSON).
  Object.defineProperty(result, 'claim_ids', {
    get() {
      const ids = claimIdsOf(g, applied);
      settle(ids);
      return ids;
    },
    set(ids: string[]) {
      settle(ids);
    },
    enumerable: true,
    configurable: true,
  });
  return result;
}

/** `ids`: read only when some claim has warnings and someone listens. */
function emitWarnings(b: BaseWrites, warned: RunWarnings, ids: () => string[]): void {
  if (warned.size === 0 || !b.events.has('claim_warnings')) return;
  const claimIds = ids();
  for (const [i, warnings] of warned) b.events.emit('claim_warnings', { claim_id: claimIds[i]!, warnings });
}

/** Ingests one claim (KbDB.ingest, ingestDetailed). */
export async function ingestOne(
  b: BaseWrites,
  subject: [string, string],
  predicate: [string, string],
  object: [string, string],
  provenance: Provenance,
  options: IngestOptions,
): Promise<IngestOneResult> {
  const input: ClaimInput = { subject, predicate, object, provenance };
  if (options.confidence !== undefined && options.confidence !== null) input.confidence = options.confidence;
  if (options.payload !== undefined) input.payload = options.payload;
  if (b.w.closed) throw new KbClosedError();
  const run = b.capture.capture([input], false);
  let warned: RunWarnings = new Map();
  const result = await b.w.write(() => {
    warned = checkClaims(b.w.ref.current, run, false, b.strict);
    return {
      entries: [run],
      finish: (applied) => {
        const out = applied[0] as Int32Array;
        return {
          claim_id: claimIdsOf(b.w.ref.current, out)[0]!,
          duplicate: out[0]! < 0,
          warnings: warned.get(0) ?? [],
        };
      },
    };
  });
  emitWarnings(b, warned, () => [result.claim_id]);
  return result;
}

/** Retracts every claim of a source; `cascade` degrades what derives from them (KbDB.retract, retractCascade). */
export function retract(b: BaseWrites, sourceId: string, reason: string, cascade: boolean): Promise<RetractResult> {
  if (typeof sourceId !== 'string' || sourceId.trim() === '')
    throw new KbValidationError('invalid_type', 'source_id', 'must be a non-empty string');
  if (typeof reason !== 'string' || reason.trim() === '')
    throw new KbValidationError('missing_field', 'reason', 'a retraction needs a reason (kept for audit)');
  return b.w.write(() => {
    if (!b.w.ref.current.sourceIndex.has(sourceId)) throw new KbNotFoundError('source', sourceId);
    return {
      entries: [{ kind: 'retract', source_id: sourceId, reason, cascade }],
      finish: (_applied, events) => {
        const ev = events.find((e) => e.name === 'source_retracted') as Extract<
          PendingEvent,
          { name: 'source_retracted' }
        >;
        const ids = (l: number[]) => l.map((c) => b.w.ref.current.claimIdOf(c));
        return { source_id: sourceId, reason, claim_ids: ids(ev.retracted), degraded_claim_ids: ids(ev.degraded) };
      },
    };
  });
}
