// DESeq2's results() defaults: Cook's-distance outliers lose their p-value (cutoff: the 0.99 quantile of
// F(p, m - p)), then independent filtering by mean normalised count (Bourgon, Gentleman & Huber 2010): BH at
// 50 filter quantiles, the number of rejections at alpha = 0.1 smoothed by lowess, and the first quantile whose
// rejections exceed the fit's maximum minus its residual root-mean-square.
import { adjustBH } from '../../stats/bh.js';
import { lowess } from '../../stats/lowess.js';
import { quantileSorted, sortedCopy } from '../../stats/summary.js';

export interface IndependentFilter {
  padj: Float64Array;
  /** The baseMean below which genes were filtered (R's metadata(res)$filterThreshold). */
  threshold: number;
  theta: number;
  alpha: number;
}

export function independentFiltering(baseMean: Float64Array, pvalue: Float64Array, alpha = 0.1): IndependentFilter {
  const G = baseMean.length;
  let zeros = 0;
  for (let g = 0; g < G; g++) if (baseMean[g] === 0) zeros++;
  const lower = zeros / G;
  const upper = lower < 0.95 ? 0.95 : 1;
  const N = 50;
  const theta = new Float64Array(N);
  const by = (upper - lower) / (N - 1);
  theta[0] = lower;
  for (let i = 1; i < N - 1; i++) theta[i] = lower + i * by;
  theta[N - 1] = upper;
  const sorted = sortedCopy(baseMean);
  const cutoffs = Array.from(theta, (t) => quantileSorted(sorted, t));
  const padjs: Float64Array[] = [];
  const numRej = new Float64Array(N);
  const sub = new Float64Array(G);
  for (let i = 0; i < N; i++) {
    const out = new Float64Array(G).fill(NaN);
    let k = 0;
    const idx: number[] = [];
    for (let g = 0; g < G; g++)
      if (baseMean[g]! >= cutoffs[i]!) {
        idx.push(g);
        sub[k++] = pvalue[g]!;
      }
    const adj = adjustBH(sub.subarray(0, k));
    let rej = 0;
    for (let r = 0; r < k; r++) {
      out[idx[r]!] = adj[r]!;
      if (adj[r]! < alpha) rej++;
    }
    padjs.push(out);
    numRej[i] = rej;
  }
  const lo = lowess(theta, numRej, 1 / 5);
  let j = 0;
  let maxRej = 0;
  for (const r of numRej) maxRej = Math.max(maxRej, r);
  if (maxRej > 10) {
    let ss = 0;
    let cnt = 0;
    for (let i = 0; i < N; i++)
      if (numRej[i]! > 0) {
        const r = numRej[i]! - lo.y[i]!;
        ss += r * r;
        cnt++;
      }
    let maxFit = -Infinity;
    for (const v of lo.y) maxFit = Math.max(maxFit, v);
    const thresh = maxFit - Math.sqrt(cnt ? ss / cnt : 0);
    j = 0;
    for (let i = 0; i < N; i++)
      if (numRej[i]! > thresh) {
        j = i;
        break;
      }
  }
  return { padj: padjs[j]!, threshold: cutoffs[j]!, theta: theta[j]!, alpha };
}
