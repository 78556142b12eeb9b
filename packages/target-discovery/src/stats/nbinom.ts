// The negative-binomial log density as R's dnbinom(x, mu = mu, size = size, log = TRUE) computes it
// (Loader's saddle-point form: stirlerr, bd0, dbinom_raw). DESeq2's IRLS stops on the relative change of
// this deviance, so its value must carry R's precision, not the cancellation of a plain lgamma difference
// (which loses ~7 digits when size = 1/dispersion is large). Written here: stdlib has no dnbinom by mean.
import gammaln from '@stdlib/math-base-special-gammaln';

const LN_SQRT_2PI = 0.918938533204672741780329736406;
const LN_2PI = 1.837877066409345483560659472811;
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
  0.0, 0.1534264097200273452913848, 0.0810614667953272582196702, 0.0548141210519176538961390,
  0.0413406959554092940938221, 0.03316287351993628748511048, 0.02767792568499833914878929,
  0.02374616365629749597132920, 0.02079067210376509311152277, 0.01848845053267318523077934,
  0.01664469118982119216319487, 0.01513497322191737887351255, 0.01387612882307074799874573,
  0.01281046524292022692424986, 0.01189670994589177009505572, 0.01110455975820691732662991,
  0.010411265261972096497478567, 0.009799416126158803298389475, 0.009255462182712732917728637,
  0.008768700134139385462952823, 0.008330563433362871256469318, 0.007934114564314020547248100,
  0.007573675487951840794972024, 0.007244554301320383179543912, 0.006942840107209529865664152,
  0.006665247032707682442354394, 0.006408994188004207068439631, 0.006171712263039457647532867,
  0.005951370112758847735624416, 0.005746216513010115682023589, 0.005554733551962801371038690,
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
