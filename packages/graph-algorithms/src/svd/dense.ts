// Tall blocks (n rows × b columns, b small, column-major): products with a sparse symmetric matrix and a
// rank-revealing orthonormalisation through the b × b Gram matrix (the dense kernels are column-kernels.ts).
import type { CsrGraph } from '../csr.js';
import { combineColumns, crossColumns } from './column-kernels.js';
import { symmetricEigen } from './symmetric-eigen.js';

/**
 * Y = A·X for a CSR matrix A (n × n) and a column-major block X (n × b). X is first copied row-major so that one
 * pass over the CSR rows serves all b columns: each stored entry reads one contiguous row of b numbers instead of
 * b scattered ones, which matters once X no longer fits in cache.
 */
export function spmm(a: CsrGraph, x: Float64Array, b: number, y: Float64Array): void {
  const { n, offsets, targets, weights } = a;
  const xr = new Float64Array(n * b);
  for (let c = 0; c < b; c++) {
    const o = c * n;
    for (let i = 0; i < n; i++) xr[i * b + c] = x[o + i]!;
  }
  const acc = new Float64Array(b);
  for (let i = 0; i < n; i++) {
    acc.fill(0);
    const end = offsets[i + 1]!;
    for (let p = offsets[i]!; p < end; p++) {
      const w = weights[p]!;
      const o = targets[p]! * b;
      for (let c = 0; c < b; c++) acc[c]! += w * xr[o + c]!;
    }
    for (let c = 0; c < b; c++) y[c * n + i] = acc[c]!;
  }
}

/**
 * An orthonormal basis of the columns of W (n × b, column-major): W = V·M with V (n × r) orthonormal, M (r × b), r the
 * numerical rank. Through the Gram matrix's eigen-decomposition (G = UΛUᵀ, V = W·U·Λ^−½, M = Λ^½·Uᵀ), done twice
 * so that the loss of orthogonality from squaring the condition number is repaired (as in CholeskyQR2, Yamamoto
 * et al. 2015); directions with λ below ε·λ_max are dropped, so a rank-deficient block gives a narrower basis.
 */
export function orthonormalBasis(
  w: Float64Array,
  b: number,
  n: number,
): { v: Float64Array; r: number; m: Float64Array } {
  let v = w;
  let width = b;
  // M accumulated as (current width) × b.
  let m = new Float64Array(b * b);
  for (let i = 0; i < b; i++) m[i * b + i] = 1;
  for (let pass = 0; pass < 2; pass++) {
    const g = crossColumns(v, width, v, width, n);
    const { values, vectors } = symmetricEigen(g, width);
    let lmax = 0;
    for (const x of values) if (x > lmax) lmax = x;
    const keep: number[] = [];
    for (let j = width - 1; j >= 0; j--) if (lmax > 0 && values[j]! > 1e-13 * lmax) keep.push(j);
    const r = keep.length;
    // T = U_keep·Λ^−½ (width × r); M' = Λ^½·U_keepᵀ·M (r × b).
    const t = new Float64Array(width * r);
    const next = new Float64Array(r * b);
    for (let q = 0; q < r; q++) {
      const j = keep[q]!;
      const s = Math.sqrt(values[j]!);
      for (let a = 0; a < width; a++) t[a * r + q] = vectors[a * width + j]! / s;
      for (let c = 0; c < b; c++) {
        let acc = 0;
        for (let a = 0; a < width; a++) acc += vectors[a * width + j]! * m[a * b + c]!;
        next[q * b + c] = s * acc;
      }
    }
    const nextV = new Float64Array(n * r);
    combineColumns(v, n, width, t, r, nextV);
    v = nextV;
    m = next;
    width = r;
  }
  return { v, r: width, m };
}
