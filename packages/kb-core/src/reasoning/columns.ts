// The claim and fact columns a whole-base reasoning pass reads, fetched once per call. The snapshot exposes
// them through getters (GraphState's, or a what-if overlay's own properties); read inside a loop over a
// million claims, those property reads cost more than the loop's work. The arrays are the snapshot's own
// (no copy): valid for one synchronous call, as the ReadContext they come from.
import type { ReadContext } from '../graph/read.js';
import { ACTIVE } from '../graph/state.js';

export interface ScanColumns {
  claimCount: number;
  factCount: number;
  claimTs: Float64Array;
  claimRetractTs: Float64Array;
  claimDegradeTs: Float64Array;
  claimStatus: Uint8Array;
  claimFact: Int32Array;
  claimSource: Int32Array;
  claimConf: Float64Array;
  claimNext: Int32Array;
  factFirst: Int32Array;
  factS: Int32Array;
  factO: Int32Array;
  factSources: Int32Array;
}

export function scanColumns(rc: ReadContext): ScanColumns {
  const s = rc.s;
  return {
    claimCount: s.claimCount,
    factCount: s.factCount,
    claimTs: s.claimTs,
    claimRetractTs: s.claimRetractTs,
    claimDegradeTs: s.claimDegradeTs,
    claimStatus: s.claimStatus,
    claimFact: s.claimFact,
    claimSource: s.claimSource,
    claimConf: s.claimConf,
    claimNext: s.claimNextInFact,
    factFirst: s.factFirst,
    factS: s.factS,
    factO: s.factO,
    factSources: s.factSources,
  };
}

/**
 * ReadContext.isLive on the fetched columns: the status column for the live base (cutoff Infinity), the
 * three times otherwise.
 */
export function liveAt(k: ScanColumns, c: number, cutoff: number): boolean {
  if (cutoff === Infinity) return k.claimStatus[c] === ACTIVE;
  return k.claimTs[c]! <= cutoff && k.claimRetractTs[c]! > cutoff && k.claimDegradeTs[c]! > cutoff;
}

/**
 * A fact's combined confidence and distinct-source count at `cutoff` (see factStrength in common.ts, which
 * delegates here): noisy-OR over sources, each with its most confident active claim; zeros when none is active.
 */
export function strengthAt(
  k: ScanColumns,
  f: number,
  cutoff: number,
  noisyOr: (xs: Iterable<number>) => number,
): { confidence: number; source_count: number } {
  const out = new Float64Array(2);
  strengthInto(k, f, cutoff, noisyOr, out);
  return { confidence: out[0]!, source_count: out[1]! };
}

// Per-source best confidences of the fact being measured, in order of each source's first active claim (the
// order a Map's values would have: noisy-OR multiplies in that order, so the result is the same to the bit).
// Facts with more sources than this use a Map.
const SCRATCH = 32;
const scratchSrc = new Int32Array(SCRATCH);
const scratchConf = new Float64Array(SCRATCH);

// Deliberate copy: strengthByMap (below) repeats this signature and claim walk, for facts with more sources.
/** strengthAt into out[0] (confidence) and out[1] (source count): no object per fact for whole-base passes. */
export function strengthInto(
  k: ScanColumns,
  f: number,
  cutoff: number,
  noisyOr: (xs: Iterable<number>) => number,
  out: Float64Array,
): void {
  let n = 0;
  for (let c = k.factFirst[f]!; c >= 0; c = k.claimNext[c]!) {
    if (!liveAt(k, c, cutoff)) continue;
    const src = k.claimSource[c]!;
    const conf = k.claimConf[c]!;
    let i = 0;
    while (i < n && scratchSrc[i] !== src) i++;
    if (i < n) {
      if (conf > scratchConf[i]!) scratchConf[i] = conf;
    } else if (n < SCRATCH) {
      scratchSrc[n] = src;
      scratchConf[n++] = conf;
    } else {
      strengthByMap(k, f, cutoff, noisyOr, out);
      return;
    }
  }
  out[1] = n;
  if (n === 0) out[0] = 0;
  else if (n === 1) out[0] = scratchConf[0]!;
  else out[0] = noisyOr(scratchConf.subarray(0, n));
}

// Deliberate copy: strengthInto's signature and claim walk; kept apart so that the common path (few sources)
// allocates nothing and this fallback, rare, is the only one with a Map.
function strengthByMap(
  k: ScanColumns,
  f: number,
  cutoff: number,
  noisyOr: (xs: Iterable<number>) => number,
  out: Float64Array,
): void {
  const best = new Map<number, number>();
  for (let c = k.factFirst[f]!; c >= 0; c = k.claimNext[c]!) {
    if (!liveAt(k, c, cutoff)) continue;
    const src = k.claimSource[c]!;
    const conf = k.claimConf[c]!;
    if (conf > (best.get(src) ?? -1)) best.set(src, conf);
  }
  out[0] = noisyOr(best.values());
  out[1] = best.size;
}

/** Distinct sources among the fact's active claims at `cutoff`, counted up to 2 (enough for "exactly one"). */
export function sourcesUpTo2(k: ScanColumns, f: number, cutoff: number): number {
  let first = -1;
  for (let c = k.factFirst[f]!; c >= 0; c = k.claimNext[c]!) {
    if (!liveAt(k, c, cutoff)) continue;
    const src = k.claimSource[c]!;
    if (first < 0) first = src;
    else if (src !== first) return 2;
  }
  return first < 0 ? 0 : 1;
}
