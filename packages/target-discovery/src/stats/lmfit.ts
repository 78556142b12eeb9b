// limma's lmFit: an ordinary (or weighted) least-squares fit of the design to every feature, by QR.
// Missing values (NaN) are dropped per feature, as limma's lm.series does.
import type { Matrix } from './matrix.js';
import { applyQt, backSolve, householder, unscaledVariances } from './qr.js';

/** Design matrix: n samples x p coefficients, column-major. */
export interface Design {
  readonly n: number;
  readonly p: number;
  readonly x: Float64Array;
  readonly columns: readonly string[];
}

export interface LinearFit {
  readonly nGenes: number;
  readonly p: number;
  /** nGenes x p, row-major. */
  readonly coefficients: Float64Array;
  readonly stdevUnscaled: Float64Array;
  readonly sigma: Float64Array;
  readonly dfResidual: Float64Array;
  /** Row means of the (unweighted) values, NaN removed. */
  readonly amean: Float64Array;
}

export class RankDeficientDesignError extends Error {}

export function lmFit(y: Matrix, design: Design, weights?: Matrix): LinearFit {
  const { n, p } = design;
  const G = y.nrow;
  if (y.ncol !== n) throw new Error(`lmFit: ${y.ncol} samples but design has ${n} rows`);
  const coefficients = new Float64Array(G * p).fill(NaN);
  const stdevUnscaled = new Float64Array(G * p).fill(NaN);
  const sigma = new Float64Array(G).fill(NaN);
  const dfResidual = new Float64Array(G);
  const amean = new Float64Array(G);

  // Shared QR of the full design for the common case (complete rows, no weights).
  const qx = Float64Array.from(design.x);
  const vhead = new Float64Array(p);
  const rdiag = new Float64Array(p);
  if (!householder(qx, n, p, vhead, rdiag))
    throw new RankDeficientDesignError('design matrix is not of full column rank');
  const fullUnscaled = new Float64Array(p);
  unscaledVariances(qx, n, p, rdiag, fullUnscaled);

  const work = new Float64Array(n);
  const wx = new Float64Array(n * p);
  const wvh = new Float64Array(p);
  const wrd = new Float64Array(p);
  const data = y.data;
  const wdata = weights?.data;
  for (let g = 0; g < G; g++) {
    const o = g * n;
    let complete = true;
    let sum = 0;
    let nobs = 0;
    for (let j = 0; j < n; j++) {
      const v = data[o + j]!;
      if (Number.isNaN(v)) complete = false;
      else {
        sum += v;
        nobs++;
      }
    }
    amean[g] = nobs > 0 ? sum / nobs : NaN;
    if (complete && !wdata) {
      work.set(data.subarray(o, o + n));
      applyQt(qx, n, p, vhead, work);
      backSolve(qx, n, p, rdiag, work, coefficients, g * p);
      let rss = 0;
      for (let i = p; i < n; i++) rss += work[i]! * work[i]!;
      for (let k = 0; k < p; k++) stdevUnscaled[g * p + k] = Math.sqrt(fullUnscaled[k]!);
      dfResidual[g] = n - p;
      sigma[g] = n > p ? Math.sqrt(rss / (n - p)) : NaN;
      continue;
    }
    // Per-feature fit on the observed samples (weighted when weights are given).
    let m = 0;
    for (let j = 0; j < n; j++) {
      const v = data[o + j]!;
      const w = wdata ? wdata[o + j]! : 1;
      if (Number.isNaN(v) || !(w > 0) || !Number.isFinite(w)) continue;
      const sw = Math.sqrt(w);
      work[m] = v * sw;
      for (let k = 0; k < p; k++) wx[k * n + m] = design.x[k * n + j]! * sw;
      m++;
    }
    if (m <= p) continue; // no residual degrees of freedom
    // Compact the columns to stride m.
    const xm = m === n ? wx : compact(wx, n, m, p);
    if (!householder(xm, m, p, wvh, wrd)) continue;
    const yw = work.subarray(0, m);
    applyQt(xm, m, p, wvh, yw);
    backSolve(xm, m, p, wrd, yw, coefficients, g * p);
    let rss = 0;
    for (let i = p; i < m; i++) rss += yw[i]! * yw[i]!;
    unscaledVariances(xm, m, p, wrd, stdevUnscaled, g * p);
    for (let k = 0; k < p; k++) stdevUnscaled[g * p + k] = Math.sqrt(stdevUnscaled[g * p + k]!);
    dfResidual[g] = m - p;
    sigma[g] = Math.sqrt(rss / (m - p));
  }
  return { nGenes: G, p, coefficients, stdevUnscaled, sigma, dfResidual, amean };
}

function compact(x: Float64Array, n: number, m: number, p: number): Float64Array {
  const out = new Float64Array(m * p);
  for (let k = 0; k < p; k++) out.set(x.subarray(k * n, k * n + m), k * m);
  return out;
}
