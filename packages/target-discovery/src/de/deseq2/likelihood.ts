// DESeq2's Cox-Reid adjusted log posterior of log dispersion for one gene and its first derivative
// (Love, Huber & Anders 2014, methods: "Dispersion estimation"), in the arithmetic order DESeq2 uses so that
// the line search takes the same steps.
import { digammaFast as digamma, lgammaFast as gammaln } from '../../stats/gamma-fast.js';
import { crossprodWeighted, invertInPlace } from '../../stats/small-matrix.js';

/** Per-gene inputs and scratch space for the likelihood; one instance per loop, reused across genes. */
export class DispersionProblem {
  readonly n: number;
  readonly p: number;
  readonly x: Float64Array;
  y!: Float64Array;
  yOff = 0;
  mu!: Float64Array;
  muOff = 0;
  priorMean = 0;
  priorVar = 1;
  usePrior = false;
  useCR = true;
  private readonly w: Float64Array;
  private readonly dw: Float64Array;
  private readonly b: Float64Array;
  private readonly bi: Float64Array;
  private readonly db: Float64Array;

  constructor(x: Float64Array, n: number, p: number) {
    this.x = x;
    this.n = n;
    this.p = p;
    this.w = new Float64Array(n);
    this.dw = new Float64Array(n);
    this.b = new Float64Array(p * p);
    this.bi = new Float64Array(p * p);
    this.db = new Float64Array(p * p);
  }

  setGene(y: Float64Array, yOff: number, mu: Float64Array, muOff: number): void {
    this.y = y;
    this.yOff = yOff;
    this.mu = mu;
    this.muOff = muOff;
  }

  /** log posterior (log likelihood + Cox-Reid term + optional normal prior on log alpha). */
  logPosterior(logAlpha: number): number {
    const { n, y, yOff, mu, muOff } = this;
    const alpha = Math.exp(logAlpha);
    let cr = 0;
    if (this.useCR) {
      for (let i = 0; i < n; i++) this.w[i] = 1 / (1 / mu[muOff + i]! + alpha);
      crossprodWeighted(this.x, n, this.p, this.w, this.b);
      const det = invertInPlace(this.b, this.p, this.bi);
      cr = -0.5 * Math.log(det);
    }
    const a1 = 1 / alpha;
    const lga1 = gammaln(a1);
    const loga1 = Math.log(a1);
    let ll = 0;
    for (let i = 0; i < n; i++) {
      const yi = y[yOff + i]!;
      const mi = mu[muOff + i]!;
      // log(mu + 1/alpha) = log(1/alpha) + log(1 + mu alpha): one logarithm per sample instead of two.
      const l = Math.log(1.0 + mi * alpha);
      ll += gammaln(yi + a1) - lga1 - yi * (loga1 + l) - a1 * l;
    }
    let prior = 0;
    if (this.usePrior) {
      const d = logAlpha - this.priorMean;
      prior = (-0.5 * (d * d)) / this.priorVar;
    }
    return ll + prior + cr;
  }

  /** d/d(log alpha) of logPosterior. */
  dLogPosterior(logAlpha: number): number {
    const { n, p, y, yOff, mu, muOff } = this;
    const alpha = Math.exp(logAlpha);
    let cr = 0;
    if (this.useCR) {
      for (let i = 0; i < n; i++) {
        const v = 1 / mu[muOff + i]! + alpha;
        this.w[i] = 1 / v;
        this.dw[i] = -1 / (v * v);
      }
      crossprodWeighted(this.x, n, p, this.w, this.b);
      crossprodWeighted(this.x, n, p, this.dw, this.db);
      invertInPlace(this.b, p, this.bi);
      // d log det(b) = trace(b^-1 db)
      let tr = 0;
      for (let a = 0; a < p; a++) for (let c = 0; c < p; c++) tr += this.bi[a * p + c]! * this.db[c * p + a]!;
      cr = -0.5 * tr;
    }
    const a1 = 1 / alpha;
    const a2 = a1 * a1;
    const dga1 = digamma(a1);
    let s = 0;
    for (let i = 0; i < n; i++) {
      const yi = y[yOff + i]!;
      const mi = mu[muOff + i]!;
      s += dga1 + Math.log(1 + mi * alpha) - (mi * alpha) / (1.0 + mi * alpha) - digamma(yi + a1) + yi / (mi + a1);
    }
    const ll = a2 * s;
    const prior = this.usePrior ? (-1.0 * (logAlpha - this.priorMean)) / this.priorVar : 0;
    return (ll + cr) * alpha + prior;
  }
}

export interface LineSearchResult {
  logAlpha: number;
  iter: number;
  initialLp: number;
  lastLp: number;
}

/**
 * DESeq2's fitDisp: backtracking line search (Armijo rule) on log alpha from a start, step kappa_0 = 1,
 * bounded to [-30, 10], stopping when the log posterior improves by less than tol or falls below minLogAlpha.
 */
export function lineSearch(
  prob: DispersionProblem,
  start: number,
  minLogAlpha: number,
  tol = 1e-6,
  maxit = 100,
  kappa0 = 1,
): LineSearchResult {
  const epsilon = 1e-4;
  let a = start;
  let lp = prob.logPosterior(a);
  let dlp = prob.dLogPosterior(a);
  let kappa = kappa0;
  const initialLp = lp;
  let iter = 0;
  let accepted = 0;
  for (let t = 0; t < maxit; t++) {
    iter++;
    const propose = a + kappa * dlp;
    if (propose < -30) kappa = (-30 - a) / dlp;
    if (propose > 10) kappa = (10 - a) / dlp;
    const thetaKappa = -1 * prob.logPosterior(a + kappa * dlp);
    const thetaHatKappa = -1 * lp - kappa * epsilon * (dlp * dlp);
    if (thetaKappa <= thetaHatKappa) {
      accepted++;
      a = a + kappa * dlp;
      const lpnew = prob.logPosterior(a);
      const change = lpnew - lp;
      if (change < tol) {
        lp = lpnew;
        break;
      }
      if (a < minLogAlpha) break;
      lp = lpnew;
      dlp = prob.dLogPosterior(a);
      kappa = Math.min(kappa * 1.1, kappa0);
      if (accepted % 5 === 0) kappa = kappa / 2;
    } else {
      kappa = kappa / 2;
    }
  }
  return { logAlpha: a, iter, initialLp, lastLp: lp };
}

/**
 * DESeq2's fitDispGrid: the log posterior on 20 points of log alpha from log(1e-8) to log(max(10, n)), then on
 * 20 points around the best one (one coarse step either side); returns the best log alpha.
 */
export function gridSearch(prob: DispersionProblem): number {
  const N = 20;
  const lo = Math.log(1e-8);
  const hi = Math.log(Math.max(10, prob.n));
  const by = (hi - lo) / (N - 1);
  const grid = new Float64Array(N);
  for (let i = 0; i < N - 1; i++) grid[i] = lo + i * by;
  grid[N - 1] = hi;
  const delta = grid[1]! - grid[0]!;
  const best = (g: Float64Array) => {
    let bi = 0;
    let bv = -Infinity;
    for (let i = 0; i < N; i++) {
      const v = prob.logPosterior(g[i]!);
      if (v > bv) {
        bv = v;
        bi = i;
      }
    }
    return g[bi]!;
  };
  const aHat = best(grid);
  const fine = new Float64Array(N);
  const start = aHat - delta;
  const end = aHat + delta;
  const step = (end - start) / (N - 1);
  for (let i = 0; i < N - 1; i++) fine[i] = start + i * step;
  fine[N - 1] = end;
  return best(fine);
}
