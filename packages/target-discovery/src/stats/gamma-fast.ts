// log-gamma and digamma on Math.log: the per-gene likelihoods call them millions of times, and stdlib's
// versions (built on its own pure-JS logarithm) cost several times more. Accuracy: ~1e-15 relative for
// x >= 10 by the Stirling / asymptotic series; smaller arguments are shifted up by the recurrence.

const HALF_LN_2PI = 0.9189385332046728;

/** log Gamma(x) for x > 0. */
export function lgammaFast(x: number): number {
  if (!(x > 0)) return x === 0 ? Infinity : NaN;
  if (x < 10) {
    // Recurrence: lgamma(x) = lgamma(x + k) - log(x (x+1) ... (x+k-1)).
    let prod = 1;
    while (x < 10) {
      prod *= x;
      x += 1;
    }
    return stirling(x) - Math.log(prod);
  }
  return stirling(x);
}

function stirling(x: number): number {
  const r = 1 / x;
  const r2 = r * r;
  const series =
    r *
    (1 / 12 - r2 * (1 / 360 - r2 * (1 / 1260 - r2 * (1 / 1680 - r2 * (1 / 1188 - r2 * (691 / 360360 - r2 / 156))))));
  return (x - 0.5) * Math.log(x) - x + HALF_LN_2PI + series;
}

/** psi(x) = d/dx log Gamma(x) for x > 0. */
export function digammaFast(x: number): number {
  if (!(x > 0)) return NaN;
  let acc = 0;
  while (x < 10) {
    acc -= 1 / x;
    x += 1;
  }
  const r = 1 / x;
  const r2 = r * r;
  return (
    acc +
    Math.log(x) -
    0.5 * r -
    r2 * (1 / 12 - r2 * (1 / 120 - r2 * (1 / 252 - r2 * (1 / 240 - r2 * (1 / 132 - r2 * (691 / 32760 - r2 / 12))))))
  );
}
