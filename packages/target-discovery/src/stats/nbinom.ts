// The negative-binomial log density as R's dnbinom(x, mu = mu, size = size, log = TRUE) computes it
// (Loader's saddle-point form: stirlerr, bd0, dbinom_raw). DESeq2's IRLS stops on the relative change of
// this deviance, so its value must carry R's precision, not the cancellation of a plain lgamma difference
// (which loses ~7 digits when size = 1/dispersion is large). Written here: stdlib has no dnbinom by mean.
import gammaln from '@stdlib/math-base-special-gammaln';

const LN_SQRT_2PI = 0.9189385332046728;
const LN_2PI = 1.8378770664093456;
const S0 = 1 / 12;
const S1 = 1 / 360;
const S2 = 1 / 1260;
const S3 = 1 / 1680;
const S4 = 1 / 1188;

/** Stirling's error log(n!) - log(sqrt(2 pi n) (n/e)^n); exact values at half-integers up to 15. */
export function stirlerr(n: number): number {
  if (n <= 15) {
    const nn = n + n;
    if (nn === Math.trunc(nn)) return SFERR_HALVES[nn]!;
    return gammaln(n + 1) - (n + 0.5) * Math.log(n) + n - LN_SQRT_2PI;
  }
  const nn = n * n;
  if (n > 500) return (S0 - S1 / nn) / n;
  if (n > 80) return (S0 - (S1 - S2 / nn) / nn) / n;
  if (n > 35) return (S0 - (S1 - (S2 - S3 / nn) / nn) / nn) / n;
  return (S0 - (S1 - (S2 - (S3 - S4 / nn) / nn) / nn) / nn) / n;
}

// stirlerr(k/2) for k = 0..30 (Loader 2000; the same constants R's nmath tabulates).
const SFERR_HALVES = [
  0.0, 0.15342640972002736, 0.08106146679532726, 0.05481412105191765, 0.0413406959554093, 0.03316287351993629,
  0.02767792568499834, 0.023746163656297496, 0.020790672103765093, 0.018488450532673187, 0.016644691189821193,
  0.015134973221917378, 0.013876128823070748, 0.012810465242920227, 0.01189670994589177, 0.011104559758206917,
  0.010411265261972096, 0.009799416126158804, 0.009255462182712733, 0.008768700134139386, 0.00833056343336287,
  0.00793411456431402, 0.007573675487951841, 0.007244554301320383, 0.00694284010720953, 0.006665247032707682,
  0.006408994188004207, 0.006171712263039458, 0.0059513701127588475, 0.0057462165130101155, 0.005554733551962801,
];

/** Deviance term x log(x/np) + np - x, by series when x is close to np. */
export function bd0(x: number, np: number): number {
  if (Math.abs(x - np) < 0.1 * (x + np)) {
    let v = (x - np) / (x + np);
    let s = (x - np) * v;
    if (Math.abs(s) < Number.MIN_VALUE) return s;
    let ej = 2 * x * v;
    v = v * v;
    for (let j = 1; j < 1000; j++) {
      ej *= v;
      const s1 = s + ej / ((j << 1) + 1);
      if (s1 === s) return s1;
      s = s1;
    }
  }
  return x * Math.log(x / np) + np - x;
}

/** log of the binomial density at (possibly non-integer) x out of n, with q = 1 - p given separately. */
export function dbinomRawLog(x: number, n: number, p: number, q: number): number {
  if (p === 0) return x === 0 ? 0 : -Infinity;
  if (q === 0) return x === n ? 0 : -Infinity;
  if (x === 0) {
    if (n === 0) return 0;
    return p < 0.1 ? -bd0(n, n * q) - n * p : n * Math.log(q);
  }
  if (x === n) return q < 0.1 ? -bd0(n, n * p) - n * q : n * Math.log(p);
  if (x < 0 || x > n) return -Infinity;
  const lc = stirlerr(n) - stirlerr(x) - stirlerr(n - x) - bd0(x, n * p) - bd0(n - x, n * q);
  const lf = LN_2PI + Math.log(x) + Math.log1p(-x / n);
  return lc - 0.5 * lf;
}

/** log dnbinom(x, size, mu) for a non-negative integer x (R's dnbinom_mu with give_log). */
export function dnbinomMuLog(x: number, size: number, mu: number): number {
  if (x < 0 || !Number.isFinite(x)) return -Infinity;
  if (x === 0 && size === 0) return 0;
  if (!Number.isFinite(size)) return x * Math.log(mu) - mu - gammaln(x + 1); // Poisson limit
  if (x === 0) return size * (size < mu ? Math.log(size / (size + mu)) : Math.log1p(-mu / (size + mu)));
  if (x < 1e-10 * size) {
    const p = size < mu ? Math.log(size / (1 + size / mu)) : Math.log(mu / (1 + mu / size));
    return x * p - mu - gammaln(x + 1) + Math.log1p((x * (x - 1)) / (2 * size));
  }
  const p = size / (size + x);
  return Math.log(p) + dbinomRawLog(size, x + size, size / (size + mu), mu / (size + mu));
}

export { gammaln };
