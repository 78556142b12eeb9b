// edgeR's negative-binomial GLM pieces (glmFit as edgeR 3.40 runs them): the one-group Newton fit
// (mglmOneGroup), the design's groups (for mglmOneWay: one mean per group), the unit deviance, the
// Levenberg-damped scoring for other designs and the prior-count augmentation behind its shrunk log fold
// changes (addPriorCount). fit-all.ts runs them over all genes.
import { crossprodWeighted, invertInPlace } from '../../stats/small-matrix.js';

const LOW = 1e-10;

/**
 * log mean (per unit offset) of one group by Newton-Raphson; -Inf when every count is zero. Takes the library
 * sizes exp(offset) rather than the offsets: each step's means are exp(beta) x library size, one exponential
 * per step instead of one per sample (edgeR's exp(beta + offset) differs by rounding only, ~1e-16 relative).
 */
export function oneGroup(
  y: ArrayLike<number>,
  yOff: number,
  idx: ArrayLike<number>,
  libs: ArrayLike<number>,
  disp: number,
  maxit = 50,
  tol = 1e-10,
  start = NaN,
): number {
  let beta = start;
  let nonzero = false;
  const m = idx.length;
  if (Number.isNaN(beta)) {
    beta = 0;
    for (let k = 0; k < m; k++) {
      const j = idx[k]!;
      const v = y[yOff + j]!;
      if (v > LOW) {
        beta += v / libs[j]!;
        nonzero = true;
      }
    }
    beta = Math.log(beta / m);
  } else {
    for (let k = 0; k < m; k++) if (y[yOff + idx[k]!]! > LOW) nonzero = true;
  }
  if (!nonzero) return -Infinity;
  for (let i = 0; i < maxit; i++) {
    let dl = 0;
    let info = 0;
    const eb = Math.exp(beta);
    for (let k = 0; k < m; k++) {
      const j = idx[k]!;
      const mu = eb * libs[j]!;
      const den = 1 + mu * disp;
      dl += (y[yOff + j]! - mu) / den;
      info += mu / den;
    }
    const step = dl / info;
    beta += step;
    if (Math.abs(step) < tol) break;
  }
  return beta;
}

/** The design's groups (distinct rows) in order of first appearance; a one-way layout has as many as columns. */
export function designGroups(x: Float64Array, n: number, p: number): { group: Int32Array; first: number[] } {
  const ids = new Map<string, number>();
  const group = new Int32Array(n);
  const first: number[] = [];
  for (let i = 0; i < n; i++) {
    const key = Array.from({ length: p }, (_, k) => x[k * n + i]).join('_');
    let g = ids.get(key);
    if (g === undefined) {
      g = first.length;
      ids.set(key, g);
      first.push(i);
    }
    group[i] = g;
  }
  return { group, first };
}

/** edgeR's unit deviance (Poisson below phi 1e-4, gamma limit above mu phi 1e6), with its 1e-8 guards. */
export function unitDeviance(y: number, mu: number, phi: number): number {
  y += 1e-8;
  mu += 1e-8;
  if (phi < 1e-4) {
    const r = y - mu;
    // edgeR's C++ writes 2/3*resid: integer division, so the term is -y.
    return 2 * (y * Math.log(y / mu) - r - 0.5 * r * r * phi * (1 + phi * (0 * r - y)));
  }
  const product = mu * phi;
  if (product > 1e6) return 2 * ((y - mu) / mu - Math.log(y / mu)) * (mu / (1 + product));
  const inv = 1 / phi;
  return 2 * (y * Math.log(y / mu) + (y + inv) * Math.log((mu + inv) / (y + inv)));
}

/**
 * edgeR's Levenberg-damped Fisher scoring (glm_levenberg): a Newton step on (X'WX + lambda I), lambda from
 * 1e-6 x the largest information at the start, doubled while the deviance does not fall, divided by ten after
 * an undamped success; stops when dl . dbeta < 1e-6 or after 250 iterations. Start: edgeR's "null" start, a weighted
 * average of count / library size projected on the design.
 */
export function levenberg(
  y: Float64Array,
  yOff: number,
  n: number,
  x: Float64Array,
  p: number,
  offset: Float64Array,
  phi: number,
  beta: Float64Array,
  muOut: Float64Array,
  muOff: number,
  op: Float64Array,
): number {
  const tol = 1e-6;
  const maxit = 250;
  let ymax = 0;
  for (let j = 0; j < n; j++) ymax = Math.max(ymax, y[yOff + j]!);
  const mu = new Float64Array(n);
  if (ymax < LOW) {
    beta.fill(NaN);
    muOut.fill(0, muOff, muOff + n);
    return 0;
  }
  // The null start: log of the average count / library-size ratio, weighted by N / (1 + phi N).
  let se = 0;
  let sw = 0;
  for (let j = 0; j < n; j++) {
    const N = Math.exp(offset[j]!);
    const cw = N / (1 + phi * N);
    se += (y[yOff + j]! * cw) / N;
    sw += cw;
  }
  const b0 = Math.log(se / sw);
  for (let k = 0; k < p; k++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += op[k * n + j]! * b0;
    beta[k] = s;
  }
  const fill = (b: Float64Array, out: Float64Array) => {
    for (let j = 0; j < n; j++) {
      let e = offset[j]!;
      for (let k = 0; k < p; k++) e += x[k * n + j]! * b[k]!;
      out[j] = Math.exp(e);
    }
  };
  const devOf = (m: Float64Array) => {
    let d = 0;
    for (let j = 0; j < n; j++) d += unitDeviance(y[yOff + j]!, m[j]!, phi);
    return d;
  };
  fill(beta, mu);
  let dev = devOf(mu);
  const w = new Float64Array(n);
  const deriv = new Float64Array(n);
  const xtwx = new Float64Array(p * p);
  const a = new Float64Array(p * p);
  const inv = new Float64Array(p * p);
  const dl = new Float64Array(p);
  const dbeta = new Float64Array(p);
  const bNew = new Float64Array(p);
  const muNew = new Float64Array(n);
  let maxInfo = -1;
  let lambda = 0;
  for (let iter = 1; iter <= maxit; iter++) {
    for (let j = 0; j < n; j++) {
      const den = 1 + mu[j]! * phi;
      w[j] = mu[j]! / den;
      deriv[j] = (y[yOff + j]! - mu[j]!) / den;
    }
    crossprodWeighted(x, n, p, w, xtwx);
    for (let k = 0; k < p; k++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += deriv[j]! * x[k * n + j]!;
      dl[k] = s;
      if (xtwx[k * p + k]! > maxInfo) maxInfo = xtwx[k * p + k]!;
    }
    if (iter === 1) lambda = Math.max(maxInfo * 1e-6, 1e-13);
    let lev = 0;
    let lowDev = false;
    let failed = false;
    for (;;) {
      lev++;
      a.set(xtwx);
      for (let k = 0; k < p; k++) a[k * p + k]! += lambda;
      invertInPlace(a, p, inv);
      for (let k = 0; k < p; k++) {
        let s = 0;
        for (let c = 0; c < p; c++) s += inv[k * p + c]! * dl[c]!;
        dbeta[k] = s;
        bNew[k] = beta[k]! + s;
      }
      fill(bNew, muNew);
      const devNew = devOf(muNew);
      if (devNew / ymax < 1e-13) lowDev = true;
      if (devNew <= dev || lowDev) {
        beta.set(bNew);
        mu.set(muNew);
        dev = devNew;
        break;
      }
      lambda *= 2;
      if (lambda <= 0) lambda = 1e-100;
      if (lambda / maxInfo > 1e13) {
        failed = true;
        break;
      }
    }
    if (failed || lowDev) break;
    let divergence = 0;
    for (let k = 0; k < p; k++) divergence += dl[k]! * dbeta[k]!;
    if (divergence < tol) break;
    if (lev === 1) lambda /= 10;
  }
  muOut.set(mu, muOff);
  return dev;
}

/** addPriorCount without copying the counts: the per-sample prior to add and the adjusted log library sizes. */
export function priorCount(
  n: number,
  offset: Float64Array,
  prior: number,
): { add: Float64Array; offset: Float64Array } {
  const lib = Array.from(offset, Math.exp);
  const ave = lib.reduce((s, v) => s + v, 0) / n;
  const add = Float64Array.from(lib, (l) => (prior * l) / ave);
  return { add, offset: Float64Array.from(lib, (l, j) => Math.log(l + 2 * add[j]!)) };
}

/** aveLogCPM: the one-group fit of prior-augmented counts (prior 2), on the log2-CPM scale. */
export function aveLogCPM(
  counts: Float64Array,
  G: number,
  n: number,
  offset: Float64Array,
  disp: ArrayLike<number>,
): Float64Array {
  const { add, offset: off } = priorCount(n, offset, 2);
  const libs = Float64Array.from(off, Math.exp);
  const all = Array.from({ length: n }, (_, j) => j);
  const row = new Float64Array(n);
  const out = new Float64Array(G);
  for (let g = 0; g < G; g++) {
    for (let j = 0; j < n; j++) row[j] = counts[g * n + j]! + add[j]!;
    out[g] = (oneGroup(row, 0, all, libs, disp[g]!) + Math.log(1e6)) / Math.LN2;
  }
  return out;
}
