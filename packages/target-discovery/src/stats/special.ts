// Special functions and distributions. Maintained implementations from stdlib where they exist; the
// tetragamma (psi'') needed by limma's Newton step is not in stdlib, so it is computed here.
import digamma from '@stdlib/math-base-special-digamma';
import trigamma from '@stdlib/math-base-special-trigamma';
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';

export { digamma, trigamma };

/** psi''(x) for x > 0: recurrence up to x >= 20, then the asymptotic (Bernoulli) series. */
export function tetragamma(x: number): number {
  let acc = 0;
  while (x < 20) {
    acc -= 2 / (x * x * x);
    x += 1;
  }
  const x2 = 1 / (x * x);
  // psi''(x) ~ -1/x^2 - 1/x^3 - sum_k B_2k (2k+1)! / (2k)! / x^(2k+2)
  const series =
    -1 / (x * x) -
    1 / (x * x * x) -
    x2 * x2 * (1 / 2 - x2 * (1 / 6 - x2 * (1 / 6 - x2 * (3 / 10 - x2 * (5 / 6 - x2 * (691 / 210 - x2 * (35 / 2)))))));
  return acc + series;
}

/** limma's trigammaInverse: solve trigamma(y) = x by Newton's method from y = 0.5 + 1/x. */
export function trigammaInverse(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x < 0) return NaN;
  if (x > 1e7) return 1 / Math.sqrt(x);
  if (x < 1e-6) return 1 / x;
  let y = 0.5 + 1 / x;
  for (let iter = 1; ; iter++) {
    const tri = trigamma(y);
    const dif = (tri * (1 - tri / x)) / tetragamma(y);
    y += dif;
    if (-dif / y < 1e-8) break;
    if (iter > 50) break;
  }
  return y;
}

/** P(T <= q) for Student's t with df degrees of freedom. */
export function pt(q: number, df: number): number {
  if (df === Infinity) df = 1e300;
  return tCdf(q, df);
}

/** Two-sided p-value 2 * P(T <= -|t|). */
export function twoSidedP(t: number, df: number): number {
  return 2 * pt(-Math.abs(t), df);
}

/** Quantile: the q with P(T <= q) = p. */
export function qt(p: number, df: number): number {
  return tQuantile(p, df);
}
