// estimateDisp's adjusted profile log-likelihoods (Cox-Reid) of every gene at the 21 grid dispersions
// 0.1 x 2^(-10..10), split over threads by gene. Genes with fitted zeros use the samples that are not zero and
// the columns still estimable there, as edgeR does.
import { lgammaFast as gammaln } from '../../stats/gamma-fast.js';
import { householder } from '../../stats/qr.js';
import { crossprodWeighted } from '../../stats/small-matrix.js';
import { parallelFor } from '../../parallel/pool.js';
import { sharedF64 } from '@evident/worker-threads';
import { GeneFitter, glmFitAll } from './fit-all.js';

/** log2(dispersion / 0.1) of the grid: seq(-10, 10, length.out = 21). */
export const GRID = Array.from({ length: 21 }, (_, i) => -10 + i);
const LOW = 1e-10;

/** The columns of x (rows `rows`) that stay linearly independent, in order (R's qr() pivot[1:rank]). */
export function independentColumns(x: Float64Array, n: number, p: number, rows: number[]): number[] {
  const kept: number[] = [];
  for (let k = 0; k < p; k++) {
    const cand = [...kept, k];
    const m = rows.length;
    const a = new Float64Array(m * cand.length);
    cand.forEach((c, ci) => {
      rows.forEach((r, ri) => {
        a[ci * m + ri] = x[c * n + r]!;
      });
    });
    if (householder(a, m, cand.length, new Float64Array(cand.length), new Float64Array(cand.length))) kept.push(k);
  }
  return kept;
}

/** S x 21 profile log-likelihoods of the genes `sel` (rows of y, G x n). */
export function profileLikelihoodGrid(
  y: Float64Array,
  sel: Int32Array,
  n: number,
  x: Float64Array,
  p: number,
  offset: Float64Array,
  threads: number,
  signal?: AbortSignal,
): Float64Array {
  const L = GRID.length;
  const S = sel.length;
  const l0 = threads > 1 ? sharedF64(S * L) : new Float64Array(S * L);
  const first = glmFitAll(y, 0, n, x, p, offset, new Float64Array(S).fill(0.05), { genes: sel, threads, signal });
  const byPattern = new Map<string, number[]>();
  for (let r = 0; r < S; r++) {
    const key = first.zeros.subarray(r * n, r * n + n).join('');
    const list = byPattern.get(key);
    if (list) list.push(r);
    else byPattern.set(key, [r]);
  }
  for (const [key, members] of byPattern) {
    const rows = Array.from({ length: n }, (_, j) => j).filter((j) => key[j] === '0');
    if (rows.length === 0) continue;
    const full = rows.length === n;
    const cols = full ? Array.from({ length: p }, (_, k) => k) : independentColumns(x, n, p, rows);
    const m = rows.length;
    const q = cols.length;
    if (m === q) continue;
    // The common case (no fitted zeros) reads the counts in place; reduced designs copy their few genes.
    const args: GridArgs = {
      ys: y,
      genes: Int32Array.from(members, (r) => sel[r]!),
      m,
      xs: x,
      q,
      off: offset,
      outRows: Int32Array.from(members),
      l0,
    };
    if (!full) {
      const xs = new Float64Array(m * q);
      cols.forEach((c, ci) => {
        rows.forEach((r, ri) => {
          xs[ci * m + ri] = x[c * n + r]!;
        });
      });
      const ys = new Float64Array(members.length * m);
      args.genes.forEach((g, gi) => {
        rows.forEach((r, ri) => {
          ys[gi * m + ri] = y[g * n + r]!;
        });
      });
      Object.assign(args, {
        ys,
        xs,
        genes: Int32Array.from(members, (_, gi) => gi),
        off: Float64Array.from(rows, (r) => offset[r]!),
      });
    }
    // Small reduced groups stay on the calling thread (their copies are not on shared memory).
    const t = full ? threads : 1;
    parallelFor('edger.grid', gridRange, args, members.length, { threads: t, block: 32, signal });
  }
  return l0;
}

export interface GridArgs {
  /** Counts, row g at g * m. */
  ys: Float64Array;
  genes: Int32Array;
  /** Samples and design columns used (column-major m x q design xs, offsets off). */
  m: number;
  xs: Float64Array;
  q: number;
  off: Float64Array;
  /** Row of l0 for each gene. */
  outRows: Int32Array;
  /** Output: S x 21. */
  l0: Float64Array;
}

export function gridRange(a: GridArgs, start: number, end: number): void {
  const { ys, m, xs, q } = a;
  const L = GRID.length;
  const fitter = new GeneFitter(xs, m, q, a.off);
  const logMu = fitter.oneWay ? fitter.logMu : null;
  const row = new Float64Array(m);
  const lgy1 = new Float64Array(m);
  const work = {
    w: new Float64Array(m),
    b: new Float64Array(q * q),
    l: new Float64Array(q * q),
    d: new Float64Array(q),
  };
  for (let k = start; k < end; k++) {
    const off = a.genes[k]! * m;
    for (let j = 0; j < m; j++) {
      row[j] = ys[off + j]!;
      lgy1[j] = gammaln(row[j]! + 1);
    }
    for (let i = 0; i < L; i++) {
      const phi = 0.1 * 2 ** GRID[i]!;
      fitter.fit(row, phi, false);
      a.l0[a.outRows[k]! * L + i] = adjustedProfileLik(row, fitter.mu, logMu, lgy1, xs, q, phi, work);
    }
  }
}

/**
 * The Cox-Reid adjusted profile log-likelihood of one gene at dispersion phi, given its fitted means mu (and
 * their logarithms when the fit has them: log mean + offset, no logarithm per sample) and log Gamma(y + 1) per
 * sample (the same at every phi, so computed once per gene), over its (reduced) design xs
 * (column-major, y.length x q). The terms are summed in edgeR's order; only values that do not change between
 * samples are taken out of the loop.
 */
export function adjustedProfileLik(
  y: Float64Array,
  mu: Float64Array,
  logMu: Float64Array | null,
  lgy1: Float64Array,
  xs: Float64Array,
  q: number,
  phi: number,
  work: { w: Float64Array; b: Float64Array; l: Float64Array; d: Float64Array },
): number {
  const m = y.length;
  let ll = 0;
  const r = 1 / phi;
  const rLogR = r * Math.log(r);
  const lgR = gammaln(r);
  for (let k = 0; k < m; k++) {
    const cy = y[k]!;
    const cm = mu[k]!;
    work.w[k] = 0;
    if (cm === 0) continue;
    const logmur = Math.log(cm + r);
    const logm = logMu ? logMu[k]! : Math.log(cm);
    ll +=
      phi > 0
        ? cy * logm - cy * logmur + rLogR - r * logmur + gammaln(cy + r) - lgy1[k]! - lgR
        : cy * logm - cm - lgy1[k]!;
    work.w[k] = cm / (1 + phi * cm);
  }
  crossprodWeighted(xs, m, q, work.w, work.b);
  // 0.5 log det(X'WX) via the LDL' diagonal; a tiny or non-finite pivot counts as 1e-10 (as edgeR does).
  const d = ldlDiagonal(work.b, q, work.l, work.d);
  let logdet = 0;
  for (let i = 0; i < q; i++) logdet += d[i]! < LOW || !Number.isFinite(d[i]) ? Math.log(LOW) : Math.log(d[i]!);
  return ll - 0.5 * logdet;
}

/** The D of A = L D L' (a q x q, symmetric) into d; L is scratch (its used entries are all written first). */
function ldlDiagonal(a: Float64Array, q: number, L: Float64Array, d: Float64Array): Float64Array {
  for (let j = 0; j < q; j++) {
    let s = a[j * q + j]!;
    for (let k = 0; k < j; k++) s -= L[j * q + k]! * L[j * q + k]! * d[k]!;
    d[j] = s;
    for (let i = j + 1; i < q; i++) {
      let t = a[i * q + j]!;
      for (let k = 0; k < j; k++) t -= L[i * q + k]! * L[j * q + k]! * d[k]!;
      L[i * q + j] = t / s;
    }
  }
  return d;
}
