// Inverse and determinant of the small (p x p, p = design columns) matrices of per-gene GLM fits.
// Gauss-Jordan with partial pivoting, row-major; written here because it runs millions of times on 2x2..6x6
// matrices, where a general linear-algebra library's call overhead would dominate.

/** Inverts a (p x p, row-major) into inv and returns det(a); a is overwritten. NaN det when singular. */
export function invertInPlace(a: Float64Array, p: number, inv: Float64Array): number {
  inv.fill(0);
  for (let i = 0; i < p; i++) inv[i * p + i] = 1;
  let det = 1;
  for (let c = 0; c < p; c++) {
    let piv = c;
    let best = Math.abs(a[c * p + c]!);
    for (let r = c + 1; r < p; r++) {
      const v = Math.abs(a[r * p + c]!);
      if (v > best) {
        best = v;
        piv = r;
      }
    }
    if (best === 0) return NaN;
    if (piv !== c) {
      det = -det;
      for (let k = 0; k < p; k++) {
        let t = a[c * p + k]!;
        a[c * p + k] = a[piv * p + k]!;
        a[piv * p + k] = t;
        t = inv[c * p + k]!;
        inv[c * p + k] = inv[piv * p + k]!;
        inv[piv * p + k] = t;
      }
    }
    const d = a[c * p + c]!;
    det *= d;
    for (let k = 0; k < p; k++) {
      a[c * p + k]! /= d;
      inv[c * p + k]! /= d;
    }
    for (let r = 0; r < p; r++) {
      if (r === c) continue;
      const f = a[r * p + c]!;
      if (f === 0) continue;
      for (let k = 0; k < p; k++) {
        a[r * p + k]! -= f * a[c * p + k]!;
        inv[r * p + k]! -= f * inv[c * p + k]!;
      }
    }
  }
  return det;
}

/** X' diag(w) X for a column-major n x p design, into out (p x p row-major). */
export function crossprodWeighted(
  x: Float64Array,
  n: number,
  p: number,
  w: ArrayLike<number>,
  out: Float64Array,
): void {
  for (let a = 0; a < p; a++) {
    for (let b = a; b < p; b++) {
      let s = 0;
      const ca = a * n;
      const cb = b * n;
      for (let i = 0; i < n; i++) s += x[ca + i]! * w[i]! * x[cb + i]!;
      out[a * p + b] = s;
      out[b * p + a] = s;
    }
  }
}
