// edgeR's negative-binomial GLM pieces (glmFit as edgeR 3.40 runs them): the one-group Newton fit
// (mglmOneGroup), the one-way layout (mglmOneWay: one mean per group), the unit deviance, the prior-count
// augmentation behind its shrunk log fold changes (addPriorCount) and the Cox-Reid adjusted profile likelihood.
import { lgammaFast as gammaln } from '../../stats/gamma-fast.js';
import { crossprodWeighted, invertInPlace } from '../../stats/small-matrix.js';
import { leastSquaresOperator } from '../deseq2/glm.js';

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
  /** K x p coefficients (natural log), K = the genes fitted. */
  coef: Float64Array;
  deviance: Float64Array;
  /** K x n: 1 where both the count and the fitted mean are below 1e-4 (edgeR's "fitted zero"). */
  zeros: Uint8Array;
  /** Per gene, the smallest fitted mean. */
  minMu: Float64Array;
}

export interface GlmFitOptions {
  /** Fit these rows of counts (default: all G). disp is indexed like this list. */
  genes?: ArrayLike<number>;
  /** A per-sample amount added to every count (addPriorCount), without copying the matrix. */
  add?: ArrayLike<number>;
  /** Called per gene with its fitted means (a scratch buffer, valid during the call). */
  onGene?: (k: number, g: number, mu: Float64Array) => void;
}

/**
 * glmFit for every gene: one-way layouts by group means (mglmOneWay), other designs by edgeR's
 * Levenberg-damped scoring (mglmLevenberg). Fitted means are not kept (a G x n matrix is 480 MB at
 * 60,000 x 1,000): callers get the fitted-zero pattern, the smallest mean, or a per-gene callback.
 */
export function glmFitAll(
  counts: Float64Array,
  G: number,
  n: number,
  x: Float64Array,
  p: number,
  offset: Float64Array,
  disp: ArrayLike<number>,
  opts: GlmFitOptions = {},
): GlmFit {
  const K = opts.genes ? opts.genes.length : G;
  const coef = new Float64Array(K * p);
  const deviance = new Float64Array(K);
  const zeros = new Uint8Array(K * n);
  const minMu = new Float64Array(K);
  const row = new Float64Array(n);
  const mu = new Float64Array(n);
  const { group, first } = designGroups(x, n, p);
  const oneWay = first.length === p;
  const members = first.map((_, g) => Array.from({ length: n }, (_, j) => j).filter((j) => group[j] === g));
  const inv = new Float64Array(p * p);
  if (oneWay) {
    // Coefficients from group means: solve design[first rows] beta = group log-means.
    const du = new Float64Array(p * p);
    for (let r = 0; r < p; r++) for (let k = 0; k < p; k++) du[r * p + k] = x[k * n + first[r]!]!;
    invertInPlace(du, p, inv);
  }
  const gb = new Float64Array(p);
  const beta = new Float64Array(p);
  const op = oneWay ? new Float64Array(0) : leastSquaresOperator(x, n, p);
  for (let k = 0; k < K; k++) {
    const g = opts.genes ? opts.genes[k]! : k;
    for (let j = 0; j < n; j++) row[j] = counts[g * n + j]! + (opts.add ? opts.add[j]! : 0);
    const phi = disp[k]!;
    if (oneWay) {
      for (let c = 0; c < p; c++) gb[c] = Math.max(oneGroup(row, 0, members[c]!, offset, phi), -1e8);
      for (let j = 0; j < n; j++) mu[j] = Math.exp(gb[group[j]!]! + offset[j]!);
      for (let c = 0; c < p; c++) {
        let s = 0;
        for (let r = 0; r < p; r++) s += inv[c * p + r]! * gb[r]!;
        coef[k * p + c] = s;
      }
      let dev = 0;
      for (let j = 0; j < n; j++) dev += unitDeviance(row[j]!, mu[j]!, phi);
      deviance[k] = dev;
    } else {
      deviance[k] = levenberg(row, 0, n, x, p, offset, phi, beta, mu, 0, op);
      coef.set(beta, k * p);
    }
    let mm = Infinity;
    for (let j = 0; j < n; j++) {
      if (row[j]! < 1e-4 && mu[j]! < 1e-4) zeros[k * n + j] = 1;
      if (mu[j]! < mm) mm = mu[j]!;
    }
    minMu[k] = mm;
    opts.onGene?.(k, g, mu);
  }
  return { coef, deviance, zeros, minMu };
}

/**
 * edgeR's Levenberg-damped Fisher scoring (glm_levenberg): a Newton step on (X'WX + lambda I), lambda from
 * 1e-6 x the largest information at the start, doubled while the deviance does not fall, divided by ten after
 * an undamped success; stops when dl . dbeta < 1e-6 or after 250 iterations. Start: edgeR's "null" start, a weighted
 * average of count / library size projected on the design.
 */
function levenberg(
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
  const all = Array.from({ length: n }, (_, j) => j);
  const row = new Float64Array(n);
  const out = new Float64Array(G);
  for (let g = 0; g < G; g++) {
    for (let j = 0; j < n; j++) row[j] = counts[g * n + j]! + add[j]!;
    out[g] = (oneGroup(row, 0, all, off, disp[g]!) + Math.log(1e6)) / Math.LN2;
  }
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
