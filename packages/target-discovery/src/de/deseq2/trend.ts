// DESeq2's dispersion trend: the parametric fit alpha(mu) = a + b / mu by a Gamma-family GLM with identity
// link, refitted on the genes whose residual ratio lies in (1e-4, 15) until the coefficients settle
// (parametricDispersionFit), and the prior variance of log dispersions around it (estimateDispersionsPriorVar).
import trigamma from '@stdlib/math-base-special-trigamma';
import { applyQt, backSolve, householder } from '../../stats/qr.js';
import { median } from '../../stats/summary.js';

export interface ParametricTrend {
  asymptDisp: number;
  extraPois: number;
}

/** Returns null where DESeq2 would fall back ("parametric dispersion fit failed" / "did not converge"). */
export function parametricDispersionFit(means: ArrayLike<number>, disps: ArrayLike<number>): ParametricTrend | null {
  let coefs = [0.1, 1];
  for (let iter = 0; ; ) {
    const gx: number[] = [];
    const gy: number[] = [];
    for (let i = 0; i < means.length; i++) {
      const r = disps[i]! / (coefs[0]! + coefs[1]! / means[i]!);
      if (r > 1e-4 && r < 15) {
        gx.push(1 / means[i]!);
        gy.push(disps[i]!);
      }
    }
    const fit = glmGammaIdentity(gx, gy, coefs);
    if (!fit) return null;
    const old = coefs;
    coefs = fit.coef;
    if (!(coefs[0]! > 0 && coefs[1]! > 0)) return null;
    const l0 = Math.log(coefs[0]! / old[0]!);
    const l1 = Math.log(coefs[1]! / old[1]!);
    if (l0 * l0 + l1 * l1 < 1e-6 && fit.converged) break;
    iter++;
    if (iter > 10) return null;
  }
  return { asymptDisp: coefs[0]!, extraPois: coefs[1]! };
}

/**
 * R's glm.fit for y ~ 1 + x, family Gamma(link = "identity"), from a start: IRLS with weights 1/mu^2, step
 * halving while a mean is not positive, convergence on |dev - devold| / (|dev| + 0.1) < 1e-8, at most 25
 * iterations. Null when no valid step exists (glm.fit's error).
 */
function glmGammaIdentity(xv: number[], y: number[], start: number[]): { coef: number[]; converged: boolean } | null {
  const n = y.length;
  if (n < 2) return null;
  const dev = (mu: Float64Array) => {
    let d = 0;
    for (let i = 0; i < n; i++) d += -2 * (Math.log(y[i] === 0 ? 1 : y[i]! / mu[i]!) - (y[i]! - mu[i]!) / mu[i]!);
    return d;
  };
  const mu = new Float64Array(n);
  const eta = (c: number[]) => {
    for (let i = 0; i < n; i++) mu[i] = c[0]! + c[1]! * xv[i]!;
  };
  let coef = start.slice();
  eta(coef);
  let devold = dev(mu);
  let coefold = start.slice();
  const A = new Float64Array(n * 2);
  const z = new Float64Array(n);
  const vh = new Float64Array(2);
  const rd = new Float64Array(2);
  const b = new Float64Array(2);
  for (let iter = 1; iter <= 25; iter++) {
    for (let i = 0; i < n; i++) {
      const w = 1 / mu[i]!;
      A[i] = w;
      A[n + i] = xv[i]! * w;
      z[i] = y[i]! * w; // z = eta + (y - mu) / mu.eta = y for the identity link
    }
    if (!householder(A, n, 2, vh, rd)) return null;
    applyQt(A, n, 2, vh, z);
    backSolve(A, n, 2, rd, z, b);
    coef = [b[0]!, b[1]!];
    eta(coef);
    let d = dev(mu);
    let halvings = 0;
    const valid = () => {
      for (let i = 0; i < n; i++) if (!(Number.isFinite(mu[i]) && mu[i]! > 0)) return false;
      return true;
    };
    while (!Number.isFinite(d) || !valid()) {
      if (++halvings > 25) return null;
      coef = [(coef[0]! + coefold[0]!) / 2, (coef[1]! + coefold[1]!) / 2];
      eta(coef);
      d = dev(mu);
    }
    if (Math.abs(d - devold) / (Math.abs(d) + 0.1) < 1e-8) return { coef, converged: true };
    devold = d;
    coefold = coef;
  }
  return { coef, converged: false };
}

/** R's mad(): 1.4826 x median absolute deviation from the median. */
export function mad(x: ArrayLike<number>): number {
  const m = median(x);
  const d = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) d[i] = Math.abs(x[i]! - m);
  return 1.4826 * median(d);
}

/**
 * The prior variance of log dispersions: the variance of the log residuals around the trend (mad^2) minus the
 * sampling variance expected with m - p residual degrees of freedom (trigamma((m - p) / 2)), at least 0.25.
 */
export function dispersionPriorVar(varLogDispEsts: number, m: number, p: number): number {
  if (m > p) return Math.max(varLogDispEsts - trigamma((m - p) / 2), 0.25);
  return varLogDispEsts;
}
