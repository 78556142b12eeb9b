// Natural cubic spline regression basis. limma's fitFDist uses splines::ns(covariate, df, intercept=TRUE),
// whose knots are the boundary (range) plus df-2 interior knots at equally spaced quantiles (type 7). Only
// the column space matters for fitted values, so the truncated-power natural-spline basis (Hastie,
// Tibshirani & Friedman, eq. 5.4-5.5) on the same knots gives the same fit. x is rescaled to [0, 1] for
// conditioning. Outside the boundary knots the basis is linear, as ns() predictions are.
import { quantileSorted, sortedCopy } from './summary.js';

/** Basis with knots placed from `knotSource`, evaluated at `at`: at.length x df, column-major. */
export function naturalSplineBasis(
  knotSource: ArrayLike<number>,
  df: number,
  at: ArrayLike<number> = knotSource,
): Float64Array {
  const s = sortedCopy(knotSource);
  const lo = s[0]!;
  const hi = s[s.length - 1]!;
  const span = hi - lo || 1;
  const knots: number[] = [0];
  for (let k = 1; k <= df - 2; k++) knots.push((quantileSorted(s, k / (df - 1)) - lo) / span);
  knots.push(1);
  const K = knots.length;
  const N = at.length;
  const out = new Float64Array(N * df);
  const cube = (v: number) => (v > 0 ? v * v * v : 0);
  const d = (k: number, u: number) => (cube(u - knots[k]!) - cube(u - knots[K - 1]!)) / (knots[K - 1]! - knots[k]!);
  for (let i = 0; i < N; i++) {
    const u = (at[i]! - lo) / span;
    out[i] = 1;
    if (df > 1) out[N + i] = u;
    for (let k = 0; k < K - 2; k++) out[(k + 2) * N + i] = d(k, u) - d(K - 2, u);
  }
  return out;
}
