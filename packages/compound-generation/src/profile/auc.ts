// PMO's measures of a run (Gao et al., NeurIPS 2022; wenhao-gao/mol_opt, main/optimizer.py, top_auc):
// the area under the curve of the mean of the top-k scores against oracle calls, read every `freq_log` calls,
// the points joined by trapezoids from (0, 0), the last segment to the number of molecules scored (with all of
// their top-k), held flat up to `max_oracle_calls` when the run stopped early (`finish`), divided by
// max_oracle_calls. A curve of top-k means therefore scores 1 only when a perfect molecule is found at once.

export interface AucOptions {
  /** Calls between points (PMO: 100). */
  freq_log?: number;
  /** The run has ended: a run short of max_oracle_calls is held at its last value (PMO: true at the end). */
  finish?: boolean;
}

/** The mean of the k highest scores (all of them when fewer than k; 0 for none). */
export function topKMean(scores: readonly number[], k: number): number {
  if (scores.length === 0) return 0;
  const top = [...scores].sort((a, b) => b - a).slice(0, k);
  return top.reduce((a, b) => a + b, 0) / top.length;
}

/**
 * PMO's AUC of the top-k curve for scores in call order (scores[0] is call 1), over a budget of
 * `maxOracleCalls`.
 */
export function aucTopK(
  scores: readonly number[],
  k: number,
  maxOracleCalls: number,
  { freq_log = 100, finish = true }: AucOptions = {},
): number {
  if (scores.length === 0) return 0;
  let sum = 0;
  let prev = 0;
  let called = 0;
  const limit = Math.min(scores.length, maxOracleCalls);
  for (let idx = freq_log; idx < limit; idx += freq_log) {
    const now = topKMean(scores.slice(0, idx), k);
    sum += (freq_log * (now + prev)) / 2;
    prev = now;
    called = idx;
  }
  const now = topKMean(scores, k);
  sum += ((scores.length - called) * (now + prev)) / 2;
  if (finish && scores.length < maxOracleCalls) sum += (maxOracleCalls - scores.length) * now;
  return sum / maxOracleCalls;
}
