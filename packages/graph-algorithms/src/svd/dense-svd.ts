// The k eigenpairs of largest magnitude of a small sparse symmetric matrix through its dense eigen-decomposition
// (symmetric-eigen.ts): O(n³) time and n² numbers, about a second at n = 500 and ten times that at 1,000 (cache
// misses of the tridiagonalisation), so it is the fallback for small matrices when a Lanczos answer fails its
// check, and what `solver: 'dense'` asks for.
import type { CsrGraph } from '../csr.js';
import { symmetricEigen } from './symmetric-eigen.js';

/** Largest n for which the dense decomposition runs as a fallback (about a second). */
// Deliberate likeness: constants and an interface, alike in shape only to kb-core's reasoning/hypothesis.ts.
export const DENSE_FALLBACK_MAX_N = 512;
/** Largest n for which `solver: 'dense'` is accepted (n² numbers: 32 MB; minutes of CPU time). */
export const DENSE_MAX_N = 2048;

export interface DenseEigenpairs {
  /** Largest magnitude first; among equal magnitudes, positive first. */
  theta: Float64Array;
  /** Column-major n × k, unit vectors. */
  vectors: Float64Array;
  /** ‖A·u − θ·u‖ per pair, measured. */
  residuals: Float64Array;
}

export function denseEigenpairs(a: CsrGraph, k: number): DenseEigenpairs {
  const n = a.n;
  const dense = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let p = a.offsets[i]!; p < a.offsets[i + 1]!; p++) dense[i * n + a.targets[p]!]! += a.weights[p]!;
  }
  const eig = symmetricEigen(dense, n);
  const order = Array.from(eig.values, (_, i) => i).sort(
    (x, y) => Math.abs(eig.values[y]!) - Math.abs(eig.values[x]!) || eig.values[y]! - eig.values[x]!,
  );
  const theta = new Float64Array(k);
  const vectors = new Float64Array(n * k);
  const residuals = new Float64Array(k);
  for (let c = 0; c < k; c++) {
    const e = order[c]!;
    theta[c] = eig.values[e]!;
    for (let i = 0; i < n; i++) vectors[c * n + i] = eig.vectors[i * n + e]!;
    let s = 0;
    for (let i = 0; i < n; i++) {
      let au = 0;
      for (let p = a.offsets[i]!; p < a.offsets[i + 1]!; p++) au += a.weights[p]! * vectors[c * n + a.targets[p]!]!;
      s += (au - theta[c]! * vectors[c * n + i]!) ** 2;
    }
    residuals[c] = Math.sqrt(s);
  }
  return { theta, vectors, residuals };
}
