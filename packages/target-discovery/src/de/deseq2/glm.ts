// DESeq2's negative-binomial GLM fit per gene (fitBeta): iteratively reweighted least squares on the log link,
// solved by QR of the weighted design stacked over a ridge sqrt(lambda) I (lambda = 1e-6 on the log2 scale
// when betaPrior = FALSE), stopped on the relative change of the deviance; then the coefficient covariance
// (X'WX + ridge)^-1 X'WX (X'WX + ridge)^-1 and the hat-matrix diagonal.
import { applyQt, backSolve, householder } from '../../stats/qr.js';
import { dnbinomMuLog } from '../../stats/nbinom.js';
import { invertInPlace } from '../../stats/small-matrix.js';

/** The least-squares operator (X'X)^-1 X' (p x n, row-major) of a column-major n x p design, by QR as R's qr(). */
export function leastSquaresOperator(x: Float64Array, n: number, p: number): Float64Array {
  const qx = Float64Array.from(x);
  const vh = new Float64Array(p);
  const rd = new Float64Array(p);
  if (!householder(qx, n, p, vh, rd)) throw new Error('design matrix is not of full column rank');
  const op = new Float64Array(p * n);
  const e = new Float64Array(n);
  const b = new Float64Array(p);
  for (let i = 0; i < n; i++) {
    e.fill(0);
    e[i] = 1;
    applyQt(qx, n, p, vh, e);
    backSolve(qx, n, p, rd, e, b);
    for (let k = 0; k < p; k++) op[k * n + i] = b[k]!;
  }
  return op;
}

/** Fitted values X (op y) of one row (DESeq2's linearModelMu), into out. */
export function linearFit(
  op: Float64Array,
  x: Float64Array,
  n: number,
  p: number,
  y: ArrayLike<number>,
  yOff: number,
  out: Float64Array,
  outOff: number,
  beta: Float64Array,
): void {
  for (let k = 0; k < p; k++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += op[k * n + i]! * y[yOff + i]!;
    beta[k] = s;
  }
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let k = 0; k < p; k++) s += x[k * n + i]! * beta[k]!;
    out[outOff + i] = s;
  }
}

export interface BetaFit {
  iter: number;
  /** Deviance -2 log L at the last iteration. */
  deviance: number;
}

/** Reusable scratch space and settings for fitBeta over many genes. */
export class BetaFitter {
  readonly beta: Float64Array;
  readonly betaVar: Float64Array;
  /** mu clamped at minmu (the weights' mu). */
  readonly muHat: Float64Array;
  readonly hat: Float64Array;
  private readonly a: Float64Array;
  private readonly bz: Float64Array;
  private readonly vh: Float64Array;
  private readonly rd: Float64Array;
  private readonly w: Float64Array;
  private readonly m1: Float64Array;
  private readonly m2: Float64Array;
  private readonly inv: Float64Array;

  constructor(
    readonly x: Float64Array,
    readonly n: number,
    readonly p: number,
    /** Ridge on the natural-log scale, one per coefficient. */
    readonly lambda: Float64Array,
    readonly tol = 1e-8,
    readonly maxit = 100,
    readonly minmu = 0.5,
  ) {
    this.beta = new Float64Array(p);
    this.betaVar = new Float64Array(p);
    this.muHat = new Float64Array(n);
    this.hat = new Float64Array(n);
    this.a = new Float64Array((n + p) * p);
    this.bz = new Float64Array(n + p);
    this.vh = new Float64Array(p);
    this.rd = new Float64Array(p);
    this.w = new Float64Array(n);
    this.m1 = new Float64Array(p * p);
    this.m2 = new Float64Array(p * p);
    this.inv = new Float64Array(p * p);
  }

  private updateMu(nf: ArrayLike<number>): void {
    const { n, p, x, beta, muHat, minmu } = this;
    for (let i = 0; i < n; i++) {
      let eta = 0;
      for (let k = 0; k < p; k++) eta += x[k * n + i]! * beta[k]!;
      muHat[i] = Math.max(nf[i]! * Math.exp(eta), minmu);
    }
  }

  /** Fits one gene from the start in this.beta; leaves beta, betaVar, muHat and hat for it. */
  fit(y: ArrayLike<number>, yOff: number, nf: ArrayLike<number>, alpha: number, withHat: boolean): BetaFit {
    const { n, p, x, beta, muHat, a, bz, vh, rd, w, lambda, maxit, tol } = this;
    const m = n + p;
    this.updateMu(nf);
    let dev = 0;
    let devOld = 0;
    let iter = 0;
    const size = 1 / alpha;
    for (let t = 0; t < maxit; t++) {
      iter++;
      for (let i = 0; i < n; i++) {
        const mi = muHat[i]!;
        w[i] = mi / (1 + alpha * mi);
      }
      a.fill(0);
      for (let k = 0; k < p; k++) {
        for (let i = 0; i < n; i++) a[k * m + i] = x[k * n + i]! * Math.sqrt(w[i]!);
        a[k * m + n + k] = Math.sqrt(lambda[k]!);
      }
      for (let i = 0; i < n; i++) {
        const mi = muHat[i]!;
        const z = Math.log(mi / nf[i]!) + (y[yOff + i]! - mi) / mi;
        bz[i] = z * Math.sqrt(w[i]!);
      }
      for (let k = 0; k < p; k++) bz[n + k] = 0;
      householder(a, m, p, vh, rd);
      applyQt(a, m, p, vh, bz);
      backSolve(a, m, p, rd, bz, beta);
      let large = false;
      for (let k = 0; k < p; k++) if (Math.abs(beta[k]!) > 30) large = true;
      if (large) {
        iter = maxit;
        break;
      }
      this.updateMu(nf);
      dev = 0;
      for (let i = 0; i < n; i++) dev += -2.0 * dnbinomMuLog(y[yOff + i]!, size, muHat[i]!);
      const conv = Math.abs(dev - devOld) / (Math.abs(dev) + 0.1);
      if (Number.isNaN(conv)) {
        iter = maxit;
        break;
      }
      if (t > 0 && conv < tol) break;
      devOld = dev;
    }
    // Covariance and hat diagonal at the final mu.
    for (let i = 0; i < n; i++) {
      const mi = muHat[i]!;
      w[i] = mi / (1 + alpha * mi);
    }
    const { m1, m2, inv } = this;
    for (let r = 0; r < p; r++)
      for (let c = r; c < p; c++) {
        let s = 0;
        for (let i = 0; i < n; i++) s += x[r * n + i]! * w[i]! * x[c * n + i]!;
        m1[r * p + c] = s;
        m1[c * p + r] = s;
      }
    m2.set(m1);
    for (let k = 0; k < p; k++) m2[k * p + k]! += lambda[k]!;
    invertInPlace(m2, p, inv);
    // sigma = inv m1 inv; only the diagonal is needed.
    for (let k = 0; k < p; k++) {
      let s = 0;
      for (let r = 0; r < p; r++) {
        let t = 0;
        for (let c = 0; c < p; c++) t += m1[r * p + c]! * inv[c * p + k]!;
        s += inv[k * p + r]! * t;
      }
      this.betaVar[k] = s;
    }
    if (withHat) {
      for (let i = 0; i < n; i++) {
        let h = 0;
        for (let r = 0; r < p; r++) {
          const xr = x[r * n + i]!;
          for (let c = 0; c < p; c++) h += xr * x[c * n + i]! * inv[c * p + r]!;
        }
        this.hat[i] = h * w[i]!;
      }
    }
    return { iter, deviance: dev };
  }
}
