// voom (Law et al. 2014): log-CPM with precision weights from a lowess fit of sqrt(residual sd) on
// average log-count, as limma::voom computes them.
import type { Matrix } from './matrix.js';
import type { Design } from './lmfit.js';
import { lmFit } from './lmfit.js';
import { lowess, approxFun } from './lowess.js';

export interface VoomResult {
  /** log2-CPM values. */
  E: Matrix;
  weights: Matrix;
  /** The lowess trend (for diagnostics and plots). */
  trend: { x: Float64Array; y: Float64Array };
}

/** `libSize` = library sizes times normalisation factors. */
export function voom(counts: Matrix, design: Design, libSize: Float64Array, span = 0.5): VoomResult {
  const { nrow: G, ncol: n } = counts;
  if (G < 2) throw new Error('voom: need at least two genes to fit a mean-variance trend');
  const E = new Float64Array(G * n);
  const logLib = new Float64Array(n);
  for (let j = 0; j < n; j++) logLib[j] = Math.log2(libSize[j]! + 1);
  const c = counts.data;
  for (let i = 0; i < G * n; i++) {
    const j = i % n;
    E[i] = Math.log2(((c[i]! + 0.5) / (libSize[j]! + 1)) * 1e6);
  }
  const Em: Matrix = { nrow: G, ncol: n, data: E };
  const fit = lmFit(Em, design);
  let meanLogLib = 0;
  for (let j = 0; j < n; j++) meanLogLib += logLib[j]!;
  meanLogLib /= n;
  const sx: number[] = [];
  const sy: number[] = [];
  for (let g = 0; g < G; g++) {
    let rowSum = 0;
    for (let j = 0; j < n; j++) rowSum += c[g * n + j]!;
    if (rowSum === 0) continue;
    sx.push(fit.amean[g]! + meanLogLib - Math.log2(1e6));
    sy.push(Math.sqrt(fit.sigma[g]!));
  }
  const l = lowess(sx, sy, span);
  const f = approxFun(l.x, l.y);
  // Fitted log-counts: log2(1e-6 * 2^(X b) * (lib + 1)) = X b + log2(lib + 1) - log2(1e6), per gene and sample.
  const W = new Float64Array(G * n);
  const p = design.p;
  const X = design.x;
  const coef = fit.coefficients;
  const shift = new Float64Array(n);
  for (let j = 0; j < n; j++) shift[j] = logLib[j]! - Math.log2(1e6);
  for (let g = 0; g < G; g++) {
    const o = g * n;
    for (let j = 0; j < n; j++) {
      let fv = 0;
      for (let k = 0; k < p; k++) fv += coef[g * p + k]! * X[k * n + j]!;
      const s = f(fv + shift[j]!);
      const s2 = s * s;
      W[o + j] = 1 / (s2 * s2);
    }
  }
  return { E: Em, weights: { nrow: G, ncol: n, data: W }, trend: l };
}
