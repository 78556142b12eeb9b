// Eigenvalues of a symmetric matrix: Householder reduction to tridiagonal form and the implicit QL iteration
// (Martin, Reinsch & Wilkinson 1968, EISPACK tred1 + tql1). fry needs the squared singular values of a set's
// effects, the eigenvalues of their Gram matrix.

/**
 * The smallest and largest eigenvalues of the symmetric k x k matrix `a` (row-major; overwritten): tridiagonal
 * reduction, then bisection on Sturm sequence counts (Wilkinson 1965), each to the precision of the reduction.
 * `d` and `e` are scratch of length >= k.
 */
export function extremeEigenvalues(
  a: Float64Array,
  k: number,
  d: Float64Array,
  e: Float64Array,
): { min: number; max: number } {
  tridiagonalize(a, k, d, e);
  // Gershgorin bounds of the tridiagonal matrix (e[i] couples i and i + 1)
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < k; i++) {
    const r = (i > 0 ? Math.abs(e[i - 1]!) : 0) + (i < k - 1 ? Math.abs(e[i]!) : 0);
    lo = Math.min(lo, d[i]! - r);
    hi = Math.max(hi, d[i]! + r);
  }
  return { min: bisect(d, e, k, 1, lo, hi), max: bisect(d, e, k, k, lo, hi) };
}

/** Eigenvalues below x of the tridiagonal matrix (diagonal d, off-diagonal e). */
function sturmCount(d: Float64Array, e: Float64Array, k: number, x: number): number {
  let count = 0;
  let q = d[0]! - x;
  if (q < 0) count++;
  for (let i = 1; i < k; i++) {
    const off = e[i - 1]!;
    q = d[i]! - x - (off * off) / (q === 0 ? Number.MIN_VALUE * 1e10 : q);
    if (q < 0) count++;
  }
  return count;
}

/** The j-th smallest eigenvalue (1-based) of the tridiagonal matrix, by bisection in [lo, hi]. */
function bisect(d: Float64Array, e: Float64Array, k: number, j: number, lo: number, hi: number): number {
  const scale = Math.max(Math.abs(lo), Math.abs(hi));
  for (let iter = 0; iter < 200 && hi - lo > 2 * Number.EPSILON * scale; iter++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (sturmCount(d, e, k, mid) >= j) hi = mid;
    else lo = mid;
  }
  return (lo + hi) / 2;
}

/** Eigenvalues of the symmetric k x k matrix `a` (row-major; overwritten), ascending. */
export function symmetricEigenvalues(a: Float64Array, k: number): Float64Array {
  const d = new Float64Array(k);
  const e = new Float64Array(k);
  tridiagonalize(a, k, d, e);
  tql1(d, e, k);
  return d.sort();
}

function tridiagonalize(a: Float64Array, n: number, d: Float64Array, e: Float64Array): void {
  for (let i = n - 1; i > 0; i--) {
    const l = i - 1;
    let h = 0;
    let scale = 0;
    if (l > 0) {
      for (let k = 0; k <= l; k++) scale += Math.abs(a[i * n + k]!);
      if (scale === 0) {
        e[i] = a[i * n + l]!;
      } else {
        for (let k = 0; k <= l; k++) {
          a[i * n + k]! /= scale;
          h += a[i * n + k]! * a[i * n + k]!;
        }
        let f = a[i * n + l]!;
        const g = f >= 0 ? -Math.sqrt(h) : Math.sqrt(h);
        e[i] = scale * g;
        h -= f * g;
        a[i * n + l] = f - g;
        // p = A u over the stored lower triangle, row by row (each element feeds both of its products), so the
        // matrix is read contiguously rather than down its columns
        const ri = i * n;
        for (let j = 0; j <= l; j++) e[j] = 0;
        for (let j = 0; j <= l; j++) {
          const rj = j * n;
          const uj = a[ri + j]!;
          let s = 0;
          for (let k = 0; k < j; k++) {
            const ajk = a[rj + k]!;
            s += ajk * a[ri + k]!;
            e[k]! += ajk * uj;
          }
          e[j]! += s + a[rj + j]! * uj;
        }
        f = 0;
        for (let j = 0; j <= l; j++) {
          e[j]! /= h;
          f += e[j]! * a[ri + j]!;
        }
        const hh = f / (h + h);
        for (let j = 0; j <= l; j++) {
          const fj = a[i * n + j]!;
          const gj = e[j]! - hh * fj;
          e[j] = gj;
          for (let k = 0; k <= j; k++) a[j * n + k]! -= fj * e[k]! + gj * a[i * n + k]!;
        }
      }
    } else {
      e[i] = a[i * n + l]!;
    }
    d[i] = h;
  }
  for (let i = 0; i < n; i++) d[i] = a[i * n + i]!;
  // shift the off-diagonal down: e[i] couples i-1 and i; tql1 wants e[i] coupling i and i+1
  for (let i = 1; i < n; i++) e[i - 1] = e[i]!;
  e[n - 1] = 0;
}

function tql1(d: Float64Array, e: Float64Array, n: number): void {
  for (let l = 0; l < n; l++) {
    let iter = 0;
    let m: number;
    do {
      for (m = l; m < n - 1; m++) {
        const dd = Math.abs(d[m]!) + Math.abs(d[m + 1]!);
        if (Math.abs(e[m]!) <= Number.EPSILON * dd) break;
      }
      if (m !== l) {
        if (iter++ === 60) throw new Error('symmetricEigenvalues: no convergence');
        let g = (d[l + 1]! - d[l]!) / (2 * e[l]!);
        let r = Math.hypot(g, 1);
        g = d[m]! - d[l]! + e[l]! / (g + (g >= 0 ? Math.abs(r) : -Math.abs(r)));
        let s = 1;
        let c = 1;
        let p = 0;
        let i: number;
        for (i = m - 1; i >= l; i--) {
          let f = s * e[i]!;
          const b = c * e[i]!;
          r = Math.hypot(f, g);
          e[i + 1] = r;
          if (r === 0) {
            d[i + 1]! -= p;
            e[m] = 0;
            break;
          }
          s = f / r;
          c = g / r;
          g = d[i + 1]! - p;
          r = (d[i]! - g) * s + 2 * c * b;
          p = s * r;
          d[i + 1] = g + p;
          g = c * r - b;
          f = 0;
        }
        if (r === 0 && i >= l) continue;
        d[l]! -= p;
        e[l] = g;
        e[m] = 0;
      }
    } while (m !== l);
  }
}
