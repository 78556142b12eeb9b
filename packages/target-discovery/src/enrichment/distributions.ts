// The distribution pieces limma's enrichment tests use that the stats folder does not have: the normal quantile
// (for fry's expected maximum), the upper tail of the hypergeometric (goana), the Hill approximation of a t
// statistic's z-score (camera) and Gauss-Legendre quadrature on [0, 1] (statmod::gauss.quad.prob, fry).
import gammaln from '@stdlib/math-base-special-gammaln';

/**
 * The standard normal quantile, Wichura's algorithm AS 241 (PPND16, Applied Statistics 37, 1988), the one R's qnorm
 * uses; about 1e-16 relative accuracy. `upper`: p is an upper-tail probability (keeps precision near 1).
 */
export function qnorm(p: number, upper = false): number {
  if (Number.isNaN(p) || p < 0 || p > 1) return NaN;
  const q = upper ? 0.5 - p : p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return (
      (q *
        (((((((r * 2509.0809287301227 + 33430.57558358813) * r + 67265.7709270087) * r + 45921.95393154987) * r +
          13731.69376550946) *
          r +
          1971.5909503065513) *
          r +
          133.14166789178438) *
          r +
          3.3871328727963665)) /
      (((((((r * 5226.495278852546 + 28729.085735721943) * r + 39307.89580009271) * r + 21213.794301586597) * r +
        5394.196021424751) *
        r +
        687.1870074920579) *
        r +
        42.31333070160091) *
        r +
        1)
    );
  }
  // the smaller tail probability, taken directly from p so that p near 1 keeps its precision
  const tail = q < 0 ? (upper ? 1 - p : p) : upper ? p : 1 - p;
  if (tail === 0) return q < 0 ? -Infinity : Infinity;
  let r = Math.sqrt(-Math.log(tail));
  let val: number;
  if (r <= 5) {
    r -= 1.6;
    val =
      (((((((r * 0.0007745450142783414 + 0.022723844989269184) * r + 0.2417807251774506) * r + 1.2704582524523684) * r +
        3.6478483247632045) *
        r +
        5.769497221460691) *
        r +
        4.630337846156546) *
        r +
        1.4234371107496835) /
      (((((((r * 1.0507500716444169e-9 + 0.0005475938084995345) * r + 0.015198666563616457) * r + 0.14810397642748008) *
        r +
        0.6897673349851) *
        r +
        1.6763848301838038) *
        r +
        2.053191626637759) *
        r +
        1);
  } else {
    r -= 5;
    val =
      (((((((r * 2.0103343992922881e-7 + 2.7115555687434876e-5) * r + 0.0012426609473880784) * r +
        0.026532189526576124) *
        r +
        0.29656057182850487) *
        r +
        1.7848265399172913) *
        r +
        5.463784911164114) *
        r +
        6.657904643501103) /
      (((((((r * 2.0442631033899397e-15 + 1.421511758316446e-7) * r + 1.8463183175100548e-5) * r +
        0.0007868691311456133) *
        r +
        0.014875361290850615) *
        r +
        0.1369298809227358) *
        r +
        0.599832206555888) *
        r +
        1);
  }
  return q < 0 ? -val : val;
}

/** qchisq(p, df = 1): the square of the normal quantile of (1 + p) / 2, taken from the upper tail (1 - p) / 2. */
export function qchisq1(p: number, oneMinusP = 1 - p): number {
  const z = qnorm(oneMinusP / 2, true);
  return z * z;
}

/**
 * P(X >= k) for X hypergeometric: `white` marked balls among `white + black`, `drawn` drawn (R's
 * phyper(k - 0.5, white, black, drawn, lower.tail = FALSE), goana's test). The probabilities from k upwards are
 * summed by the ratio of consecutive terms, the first one from log-gamma.
 */
export function hypergeometricUpper(k: number, white: number, black: number, drawn: number): number {
  const lo = Math.max(0, drawn - black);
  const hi = Math.min(drawn, white);
  if (k <= lo) return 1;
  if (k > hi) return 0;
  const lchoose = (n: number, r: number) => gammaln(n + 1) - gammaln(r + 1) - gammaln(n - r + 1);
  // the smaller side is summed: above the mode the upper tail, below it the lower tail, as 1 minus it
  const mode = Math.floor(((drawn + 1) * (white + 1)) / (white + black + 2));
  const logTotal = lchoose(white + black, drawn);
  const pmf = (x: number) => Math.exp(lchoose(white, x) + lchoose(black, drawn - x) - logTotal);
  if (k > mode) {
    let term = pmf(k);
    let sum = term;
    for (let x = k; x < hi && term > sum * 1e-17; x++) {
      term *= ((white - x) * (drawn - x)) / ((x + 1) * (black - drawn + x + 1));
      sum += term;
    }
    return sum;
  }
  let term = pmf(k - 1);
  let sum = term;
  for (let x = k - 1; x > lo && term > sum * 1e-17; x--) {
    term *= (x * (black - drawn + x)) / ((white - x + 1) * (drawn - x + 1));
    sum += term;
  }
  return 1 - sum;
}

/** limma's zscoreT(x, df, approx = TRUE, method = "hill"): Hill's (1970) normal deviate of a t statistic. */
export function zscoreTHill(x: number, df: number): number {
  const d = Math.min(df, 1e100);
  const a = d - 0.5;
  const b = 48 * a * a;
  let z = a * Math.log1p((x / d) * x);
  z = (((((-0.4 * z - 3.3) * z - 24) * z - 85.5) / (0.8 * z * z + 100 + b) + z + 3) / b + 1) * Math.sqrt(z);
  return z * Math.sign(x);
}

/** The Legendre polynomial P_n at x (three-term recurrence) and its derivative there. */
function legendre(n: number, x: number): [p: number, dp: number] {
  let p0 = 1;
  let p1 = x;
  for (let k = 2; k <= n; k++) {
    const p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
    p0 = p1;
    p1 = p2;
  }
  return [p1, (n * (x * p1 - p0)) / (x * x - 1)];
}

/**
 * Gauss-Legendre nodes and weights for a uniform density on [0, 1] (statmod::gauss.quad.prob(n, "uniform")):
 * weights sum to 1. `oneMinus[i]` is 1 - nodes[i] computed without cancellation (the mirrored node).
 */
export function gaussLegendreUniform(n: number): {
  nodes: Float64Array;
  oneMinus: Float64Array;
  weights: Float64Array;
} {
  const t = new Float64Array(n);
  const w = new Float64Array(n);
  const half = Math.ceil(n / 2);
  for (let i = 0; i < half; i++) {
    // Newton's method on the Legendre polynomial P_n from Tricomi's initial guess
    let x = Math.cos((Math.PI * (i + 0.75)) / (n + 0.5));
    for (let iter = 0; iter < 100; iter++) {
      const [p, dpx] = legendre(n, x);
      const dx = p / dpx;
      x -= dx;
      if (Math.abs(dx) < 1e-16) break;
    }
    const dp = legendre(n, x)[1];
    const weight = 2 / ((1 - x * x) * dp * dp);
    t[i] = -x; // ascending
    t[n - 1 - i] = x;
    w[i] = weight;
    w[n - 1 - i] = weight;
  }
  const nodes = new Float64Array(n);
  const oneMinus = new Float64Array(n);
  const weights = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    nodes[i] = (1 + t[i]!) / 2;
    oneMinus[i] = (1 - t[i]!) / 2;
    weights[i] = w[i]! / 2;
  }
  return { nodes, oneMinus, weights };
}
