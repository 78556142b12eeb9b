// Which log a kept topology or embedding belongs to, and as of which claim (issue 41, point 3). A result kept
// beside a base is served after a reopen only when it is this log's: the base's index holds at least the claims and
// retractions the result was computed over, the claims at spread positions up to the last one it saw have the ids
// they had then, and so has the last retraction. A file left by another base at the same path, by this base before
// it was restored from an older snapshot, or damaged, then fails the check and is ignored: the next read asks for
// a computation instead of answering from a graph that is not this one.
import { createHash } from 'node:crypto';
import type { ReadSnapshot } from '../graph/snapshot.js';

/** Claims whose ids the mark hashes: spread evenly over the claims read, the first and the last included. */
const SAMPLES = 64;

export interface LogMark {
  /** Claims in the index when the result's graph was read (numbered in log order). */
  claim_count: number;
  /** Retractions applied then. */
  retraction_count: number;
  /** The id of the last claim read (claim_count − 1), '' when none: "as of which claim". */
  last_claim_id: string;
  /** SHA-256 of the ids of SAMPLES claims spread over [0, claim_count). */
  claims_hash: string;
  /** SHA-256 of the last retraction's time, source, reason and claims ('' when none). */
  retraction_hash: string;
}

/** Where the index stands for a result read now: its counts, read in the same synchronous step as its graph. */
export function countsOf(s: ReadSnapshot): { claim_count: number; retraction_count: number } {
  return { claim_count: s.claimCount, retraction_count: s.retractions.length };
}

function claimsHash(s: ReadSnapshot, count: number): string {
  const h = createHash('sha256');
  if (count > 0) {
    const step = (count - 1) / (SAMPLES - 1);
    let prev = -1;
    for (let k = 0; k < SAMPLES; k++) {
      const c = Math.round(k * step);
      if (c === prev) continue;
      prev = c;
      h.update(`${c}:${s.claimIdOf(c)}\n`);
    }
  }
  return h.digest('hex');
}

function retractionHash(s: ReadSnapshot, count: number): string {
  if (count === 0) return '';
  const r = s.retractions[count - 1]!;
  return createHash('sha256')
    .update(JSON.stringify([r.ts, r.source_id, r.reason, r.cascade, r.retracted, r.degraded]))
    .digest('hex');
}

/** The mark of a result read at `counts`; the claims and retractions up to them do not change afterwards. */
export function logMark(s: ReadSnapshot, counts: { claim_count: number; retraction_count: number }): LogMark {
  const { claim_count, retraction_count } = counts;
  return {
    claim_count,
    retraction_count,
    last_claim_id: claim_count === 0 ? '' : s.claimIdOf(claim_count - 1),
    claims_hash: claimsHash(s, claim_count),
    retraction_hash: retractionHash(s, retraction_count),
  };
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** Whether `mark` (as read from a file: anything) is of this log, whose index is `s` now. */
export function matchesLog(s: ReadSnapshot, mark: unknown): boolean {
  if (typeof mark !== 'object' || mark === null) return false;
  const m = mark as Partial<LogMark>;
  if (!isCount(m.claim_count) || !isCount(m.retraction_count)) return false;
  if (m.claim_count > s.claimCount || m.retraction_count > s.retractions.length) return false;
  const now = logMark(s, { claim_count: m.claim_count, retraction_count: m.retraction_count });
  return (
    m.last_claim_id === now.last_claim_id &&
    m.claims_hash === now.claims_hash &&
    m.retraction_hash === now.retraction_hash
  );
}
