// The last word on a Lanczos answer, measured on A itself rather than on the projection: that the returned
// vectors are orthonormal, and that each pair's residual ‖A·u − θ·u‖ is what the Lanczos relation said it was.
// Both follow from an orthonormal basis, so a failure means the basis was not one and the values cannot be
// trusted: they need not even be eigenvalues (values of 23.9 and 10⁵ came out of a matrix whose largest row sum
// was 12 before this check existed). Cost: one product per vector and a k × k Gram matrix, about what the range
// finder's orthonormalisation costs, a few percent of the polish on the benchmark graph.
import type { CsrGraph } from '../csr.js';
import { crossColumns } from './column-kernels.js';
import { spmm } from './dense.js';

/** Largest |UᵀU − I| accepted: semi-orthogonality (√ε), at which Rayleigh quotients are exact to about ε·‖A‖. */
export const ORTHONORMAL_WITHIN = 1.5e-8;

export interface PairCheck {
  ok: boolean;
  /** max |UᵀU − I|. */
  orthogonality: number;
  /** UᵀU (w × w, row-major). */
  gram: Float64Array;
  /** ‖A·u_c − θ_c·u_c‖ for each pair, measured. */
  residuals: Float64Array;
  /** The largest absolute row sum of A (a bound on every |λ|). */
  normBound: number;
  /** Why it failed, for the error message. */
  reason?: string;
}

/**
 * Checks w pairs (θ_c, column c of `vectors`, column-major n × w) against A. `estimates` are the residuals the
 * solver computed for them; a measured one may exceed its estimate by a factor of two plus rounding.
 */
// Deliberate likeness: a parameter list alike in shape only to kb-core's keepExtras (graph/apply.ts); unrelated.
export function checkPairs(
  a: CsrGraph,
  theta: Float64Array,
  vectors: Float64Array,
  estimates: Float64Array,
): PairCheck {
  const n = a.n;
  const width = theta.length;
  const normBound = maxRowSum(a);
  const gram = crossColumns(vectors, width, vectors, width, n);
  let orthogonality = 0;
  for (let c = 0; c < width; c++) {
    for (let d = 0; d < width; d++) {
      orthogonality = Math.max(orthogonality, Math.abs(gram[c * width + d]! - (c === d ? 1 : 0)));
    }
  }
  const av = new Float64Array(n * width);
  spmm(a, vectors, width, av);
  const residuals = new Float64Array(width);
  for (let c = 0; c < width; c++) {
    const o = c * n;
    const th = theta[c]!;
    let s = 0;
    for (let i = 0; i < n; i++) s += (av[o + i]! - th * vectors[o + i]!) ** 2;
    residuals[c] = Math.sqrt(s);
  }
  // What rounding alone leaves in a residual of vectors orthonormal to ORTHONORMAL_WITHIN.
  const floor = 1e-9 * normBound;
  let reason: string | undefined;
  if (!(orthogonality <= ORTHONORMAL_WITHIN))
    reason = `the vectors are orthonormal only to ${orthogonality.toExponential(2)}`;
  for (let c = 0; c < width && reason === undefined; c++) {
    const th = theta[c]!;
    if (!(Math.abs(th) <= normBound * (1 + 1e-12))) {
      reason = `value ${c + 1} (${th}) exceeds the largest row sum (${normBound})`;
    } else if (!(residuals[c]! <= 2 * estimates[c]! + floor)) {
      reason = `pair ${c + 1} has residual ${residuals[c]!.toExponential(2)} where ${estimates[c]!.toExponential(2)} was computed`;
    }
  }
  return { ok: reason === undefined, orthogonality, gram, residuals, normBound, reason };
}

function maxRowSum(a: CsrGraph): number {
  let best = 0;
  for (let i = 0; i < a.n; i++) {
    let s = 0;
    for (let p = a.offsets[i]!; p < a.offsets[i + 1]!; p++) s += Math.abs(a.weights[p]!);
    if (s > best) best = s;
  }
  return best;
}
