// glmFit for every gene, split over threads (../../parallel/pool.ts): one-way layouts by group means
// (mglmOneWay), other designs by edgeR's Levenberg-damped scoring (mglmLevenberg). Fitted means are not kept
// (a G x n matrix is 480 MB at 60,000 x 1,000): callers get the fitted-zero pattern and the smallest mean.
import { parallelFor } from '../../parallel/pool.js';
import { sharedF64, sharedU8 } from '@evident/worker-threads';
import { invertInPlace } from '../../stats/small-matrix.js';
import { leastSquaresOperator } from '../deseq2/glm.js';
import { designGroups, levenberg, oneGroup, unitDeviance } from './glm.js';

/** One gene's fit at a time, with the design's structure and the scratch space set up once per thread. */
export class GeneFitter {
  /** The last gene's fitted means, their logarithms (one-way layouts only) and coefficients (natural log). */
  readonly mu: Float64Array;
  readonly logMu: Float64Array;
  readonly beta: Float64Array;
  /** One mean per group (mglmOneWay); then fit(row, phi, false) also fills logMu. */
  readonly oneWay: boolean;
  private readonly group: Int32Array;
  private readonly members: number[][];
  private readonly inv: Float64Array;
  private readonly op: Float64Array;
  private readonly gb: Float64Array;
  private readonly eg: Float64Array;
  private readonly libs: Float64Array;

  constructor(
    readonly x: Float64Array,
    readonly n: number,
    readonly p: number,
    readonly offset: Float64Array,
  ) {
    this.mu = new Float64Array(n);
    this.logMu = new Float64Array(n);
    this.beta = new Float64Array(p);
    this.gb = new Float64Array(p);
    this.eg = new Float64Array(p);
    this.libs = Float64Array.from(offset, Math.exp);
    const { group, first } = designGroups(x, n, p);
    this.group = group;
    this.oneWay = first.length === p;
    this.members = first.map((_, g) => Array.from({ length: n }, (_, j) => j).filter((j) => group[j] === g));
    this.inv = new Float64Array(p * p);
    if (this.oneWay) {
      // Coefficients from group means: solve design[first rows] beta = group log-means.
      const du = new Float64Array(p * p);
      for (let r = 0; r < p; r++) for (let k = 0; k < p; k++) du[r * p + k] = x[k * n + first[r]!]!;
      invertInPlace(du, p, this.inv);
    }
    this.op = this.oneWay ? new Float64Array(0) : leastSquaresOperator(x, n, p);
  }

  /**
   * Fits `row` (n counts) at dispersion phi into mu and beta; returns the deviance, or NaN for a one-way
   * layout when `deviance` is false (the profile-likelihood grid needs only the means; logMu is then set).
   */
  fit(row: Float64Array, phi: number, deviance = true): number {
    const { n, p, offset, mu, beta, gb, eg, libs, group, inv } = this;
    if (!this.oneWay) return levenberg(row, 0, n, this.x, p, offset, phi, beta, mu, 0, this.op);
    for (let c = 0; c < p; c++) {
      gb[c] = Math.max(oneGroup(row, 0, this.members[c]!, libs, phi), -1e8);
      eg[c] = Math.exp(gb[c]!);
    }
    // The grid's 21 fits per gene take one exponential per group (as in oneGroup); the fits whose deviances
    // are tested keep edgeR's exp(log mean + offset), which costs little there.
    if (deviance) for (let j = 0; j < n; j++) mu[j] = Math.exp(gb[group[j]!]! + offset[j]!);
    else for (let j = 0; j < n; j++) mu[j] = eg[group[j]!]! * libs[j]!;
    for (let c = 0; c < p; c++) {
      let s = 0;
      for (let r = 0; r < p; r++) s += inv[c * p + r]! * gb[r]!;
      beta[c] = s;
    }
    if (!deviance) {
      for (let j = 0; j < n; j++) this.logMu[j] = gb[group[j]!]! + offset[j]!;
      return NaN;
    }
    let dev = 0;
    for (let j = 0; j < n; j++) dev += unitDeviance(row[j]!, mu[j]!, phi);
    return dev;
  }
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
  genes?: Int32Array;
  /** A per-sample amount added to every count (addPriorCount), without copying the matrix. */
  add?: Float64Array;
  /** Threads (1: the calling thread); counts must then be on shared memory. */
  threads?: number;
  signal?: AbortSignal;
}

export interface GlmFitArgs extends GlmFit {
  counts: Float64Array;
  n: number;
  x: Float64Array;
  p: number;
  offset: Float64Array;
  disp: Float64Array;
  /** Empty: genes 0..K-1. */
  genes: Int32Array;
  /** Empty: nothing added. */
  add: Float64Array;
}

export function glmFitAll(
  counts: Float64Array,
  G: number,
  n: number,
  x: Float64Array,
  p: number,
  offset: Float64Array,
  disp: Float64Array,
  opts: GlmFitOptions = {},
): GlmFit {
  const K = opts.genes ? opts.genes.length : G;
  const threads = opts.threads ?? 1;
  const f64 = threads > 1 ? sharedF64 : (k: number) => new Float64Array(k);
  const args: GlmFitArgs = {
    counts,
    n,
    x,
    p,
    offset,
    disp,
    genes: opts.genes ?? new Int32Array(0),
    add: opts.add ?? new Float64Array(0),
    coef: f64(K * p),
    deviance: f64(K),
    zeros: threads > 1 ? sharedU8(K * n) : new Uint8Array(K * n),
    minMu: f64(K),
  };
  parallelFor('edger.glmFit', glmFitRange, args, K, { threads, block: 256, signal: opts.signal });
  const { coef, deviance, zeros, minMu } = args;
  return { coef, deviance, zeros, minMu };
}

export function glmFitRange(a: GlmFitArgs, start: number, end: number): void {
  const { counts, n, p, add } = a;
  const fitter = new GeneFitter(a.x, n, p, a.offset);
  const row = new Float64Array(n);
  const { mu, beta } = fitter;
  const byList = a.genes.length > 0;
  const adding = add.length > 0;
  for (let k = start; k < end; k++) {
    const g = byList ? a.genes[k]! : k;
    for (let j = 0; j < n; j++) row[j] = counts[g * n + j]! + (adding ? add[j]! : 0);
    a.deviance[k] = fitter.fit(row, a.disp[k]!);
    a.coef.set(beta, k * p);
    let mm = Infinity;
    for (let j = 0; j < n; j++) {
      if (row[j]! < 1e-4 && mu[j]! < 1e-4) a.zeros[k * n + j] = 1;
      if (mu[j]! < mm) mm = mu[j]!;
    }
    a.minMu[k] = mm;
  }
}
