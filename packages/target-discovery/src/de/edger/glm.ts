// edgeR's negative-binomial GLM pieces (glmFit as edgeR 3.40 runs them): the one-group Newton fit
// (mglmOneGroup), the one-way layout (mglmOneWay: one mean per group), the unit deviance, the prior-count
// augmentation behind its shrunk log fold changes (addPriorCount) and the Cox-Reid adjusted profile likelihood.
import { gammaln } from '../../stats/nbinom.js';
import { crossprodWeighted, invertInPlace } from '../../stats/small-matrix.js';
import { applyQt, backSolve, householder } from '../../stats/qr.js';

const LOW = 1e-10;

/** log mean (per unit offset) of one group by Newton-Raphson; -Inf when every count is zero. */
export function oneGroup(
  y: ArrayLike<number>,
  yOff: number,
  idx: ArrayLike<number>,
  offset: ArrayLike<number>,
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
        beta += v / Math.exp(offset[j]!);
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
    for (let k = 0; k < m; k++) {
      const j = idx[k]!;
      const mu = Math.exp(beta + offset[j]!);
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

export interface GlmFit {
  /** G x p coefficients (natural log). */
  coef: Float64Array;
  /** G x n fitted means. */
  mu: Float64Array;
  deviance: Float64Array;
}

/**
 * glmFit for every gene: one-way layouts by group means (mglmOneWay), other designs by Fisher scoring with
 * step halving to a tight deviance tolerance (edgeR uses its Levenberg-damped variant; both reach the MLE).
 */
export function glmFitAll(
  counts: Float64Array,
  G: number,
  n: number,
  x: Float64Array,
  p: number,
  offset: Float64Array,
  disp: ArrayLike<number>,
): GlmFit {
  const coef = new Float64Array(G * p);
  const mu = new Float64Array(G * n);
  const deviance = new Float64Array(G);
  const { group, first } = designGroups(x, n, p);
  if (first.length === p) {
    const members = first.map((_, g) => Array.from({ length: n }, (_, j) => j).filter((j) => group[j] === g));
    // Coefficients from group means: solve design[first rows] beta = group log-means.
    const du = new Float64Array(p * p);
    for (let r = 0; r < p; r++) for (let k = 0; k < p; k++) du[r * p + k] = x[k * n + first[r]!]!;
    const inv = new Float64Array(p * p);
    invertInPlace(Float64Array.from(du), p, inv);
    const gb = new Float64Array(p);
    for (let gi = 0; gi < G; gi++) {
      for (let g = 0; g < p; g++) gb[g] = Math.max(oneGroup(counts, gi * n, members[g]!, offset, disp[gi]!), -1e8);
      for (let j = 0; j < n; j++) mu[gi * n + j] = Math.exp(gb[group[j]!]! + offset[j]!);
      for (let k = 0; k < p; k++) {
        let s = 0;
        for (let r = 0; r < p; r++) s += inv[k * p + r]! * gb[r]!;
        coef[gi * p + k] = s;
      }
      let dev = 0;
      for (let j = 0; j < n; j++) dev += unitDeviance(counts[gi * n + j]!, mu[gi * n + j]!, disp[gi]!);
      deviance[gi] = dev;
    }
    return { coef, mu, deviance };
  }
  const beta = new Float64Array(p);
  for (let gi = 0; gi < G; gi++) {
    deviance[gi] = fisherScoring(counts, gi * n, n, x, p, offset, disp[gi]!, beta, mu, gi * n);
    coef.set(beta, gi * p);
  }
  return { coef, mu, deviance };
}

function fisherScoring(
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
): number {
  const a = new Float64Array(n * p);
  const z = new Float64Array(n);
  const vh = new Float64Array(p);
  const rd = new Float64Array(p);
  const nb = new Float64Array(p);
  const mu = new Float64Array(n);
  const eta = (b: Float64Array) => {
    for (let j = 0; j < n; j++) {
      let e = offset[j]!;
      for (let k = 0; k < p; k++) e += x[k * n + j]! * b[k]!;
      mu[j] = Math.exp(e);
    }
  };
  const devOf = () => {
    let d = 0;
    for (let j = 0; j < n; j++) d += unitDeviance(y[yOff + j]!, mu[j]!, phi);
    return d;
  };
  // Start: least squares of log((y + 0.5) / exp(offset)).
  for (let j = 0; j < n; j++) {
    z[j] = Math.log((y[yOff + j]! + 0.5) / Math.exp(offset[j]!));
    for (let k = 0; k < p; k++) a[k * n + j] = x[k * n + j]!;
  }
  householder(a, n, p, vh, rd);
  applyQt(a, n, p, vh, z);
  backSolve(a, n, p, rd, z, beta);
  eta(beta);
  let dev = devOf();
  for (let it = 0; it < 250; it++) {
    for (let j = 0; j < n; j++) {
      const m = mu[j]!;
      const w = m / (1 + phi * m);
      const sw = Math.sqrt(w);
      let e = 0;
      for (let k = 0; k < p; k++) e += x[k * n + j]! * beta[k]!;
      z[j] = (e + (y[yOff + j]! - m) / m) * sw;
      for (let k = 0; k < p; k++) a[k * n + j] = x[k * n + j]! * sw;
    }
    if (!householder(a, n, p, vh, rd)) break;
    applyQt(a, n, p, vh, z);
    backSolve(a, n, p, rd, z, nb);
    let step = 1;
    const old = Float64Array.from(beta);
    let newDev = Infinity;
    for (let h = 0; h < 30; h++) {
      for (let k = 0; k < p; k++) beta[k] = old[k]! + step * (nb[k]! - old[k]!);
      eta(beta);
      newDev = devOf();
      if (newDev <= dev + 1e-12 * Math.abs(dev)) break;
      step /= 2;
    }
    const conv = Math.abs(dev - newDev) / (Math.abs(newDev) + 0.1);
    dev = newDev;
    if (conv < 1e-12) break;
  }
  muOut.set(mu, muOff);
  return dev;
}

/** addPriorCount: counts + prior scaled by library size, offsets log(lib + 2 prior). */
export function addPriorCount(
  counts: Float64Array,
  G: number,
  n: number,
  offset: Float64Array,
  prior: number,
): { y: Float64Array; offset: Float64Array } {
  const lib = Array.from(offset, Math.exp);
  const ave = lib.reduce((s, v) => s + v, 0) / n;
  const adj = lib.map((l) => (prior * l) / ave);
  const y = new Float64Array(G * n);
  for (let g = 0; g < G; g++) for (let j = 0; j < n; j++) y[g * n + j] = counts[g * n + j]! + adj[j]!;
  return { y, offset: Float64Array.from(lib, (l, j) => Math.log(l + 2 * adj[j]!)) };
}

/** aveLogCPM: the one-group fit of prior-augmented counts (prior 2), on the log2-CPM scale. */
export function aveLogCPM(
  counts: Float64Array,
  G: number,
  n: number,
  offset: Float64Array,
  disp: ArrayLike<number>,
): Float64Array {
  const { y, offset: off } = addPriorCount(counts, G, n, offset, 2);
  const all = Array.from({ length: n }, (_, j) => j);
  const out = new Float64Array(G);
  for (let g = 0; g < G; g++) out[g] = (oneGroup(y, g * n, all, off, disp[g]!) + Math.log(1e6)) / Math.LN2;
  return out;
}

/**
 * The Cox-Reid adjusted profile log-likelihood of one gene at dispersion phi, given its fitted means, over
 * the samples in `idx` and their (reduced) design xs (column-major, idx.length x q).
 */
export function adjustedProfileLik(
  y: Float64Array,
  yOff: number,
  mu: Float64Array,
  muOff: number,
  idx: ArrayLike<number>,
  xs: Float64Array,
  q: number,
  phi: number,
  work: { w: Float64Array; b: Float64Array; bi: Float64Array },
): number {
  const m = idx.length;
  let ll = 0;
  const r = 1 / phi;
  for (let k = 0; k < m; k++) {
    const j = idx[k]!;
    const cy = y[yOff + j]!;
    const cm = mu[muOff + j]!;
    work.w[k] = 0;
    if (cm === 0) continue;
    const logmur = Math.log(cm + r);
    ll +=
      phi > 0
        ? cy * Math.log(cm) -
          cy * logmur +
          r * Math.log(r) -
          r * logmur +
          gammaln(cy + r) -
          gammaln(cy + 1) -
          gammaln(r)
        : cy * Math.log(cm) - cm - gammaln(cy + 1);
    work.w[k] = cm / (1 + phi * cm);
  }
  crossprodWeighted(xs, m, q, work.w, work.b);
  // 0.5 log det(X'WX) via the LDL' diagonal; a tiny or non-finite pivot counts as 1e-10 (as edgeR does).
  const d = ldlDiagonal(work.b, q);
  let logdet = 0;
  for (let i = 0; i < q; i++) logdet += d[i]! < LOW || !Number.isFinite(d[i]) ? Math.log(LOW) : Math.log(d[i]!);
  return ll - 0.5 * logdet;
}

function ldlDiagonal(a: Float64Array, q: number): Float64Array {
  const L = new Float64Array(q * q);
  const d = new Float64Array(q);
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
