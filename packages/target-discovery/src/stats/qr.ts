// Householder QR least squares for a small number of columns (the design), as R's lm.fit does.

/** Relative tolerance for declaring a column linearly dependent (R's lm.fit uses 1e-7). */
const QR_TOL = 1e-7;

/**
 * Householder QR of an n x p column-major matrix, in place. The Householder vectors are kept below the
 * diagonal with their first elements in `vhead`; `rdiag` receives R's diagonal. Returns false when rank < p.
 * The arithmetic is LINPACK dqrdc2's, as R's qr() does it, step for step: the column scaled by 1 / its signed
 * norm, 1 added to its head, the later columns updated by -(u.x_j) / u_1 times u. A design of 0/1 indicators
 * often leaves an exact zero on the diagonal, where the reflection's sign is decided by rounding; another order
 * of operations turned it the other way and gave another basis of the residual space (fry's robust variance reads
 * that basis: every fry p-value of a three-batch design differed from R's by up to 10%).
 */
export function householder(x: Float64Array, n: number, p: number, vhead: Float64Array, rdiag: Float64Array): boolean {
  // Rank test as in LINPACK dqrdc2: a column whose remaining norm is tiny relative to its original norm
  // is (numerically) a combination of the earlier ones.
  const orig = new Float64Array(p);
  for (let k = 0; k < p; k++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += x[k * n + i]! * x[k * n + i]!;
    orig[k] = Math.sqrt(s);
  }
  for (let k = 0; k < p; k++) {
    const ck = k * n;
    let s = 0;
    for (let i = k; i < n; i++) s += x[ck + i]! * x[ck + i]!;
    let norm = Math.sqrt(s);
    if (norm === 0 || norm <= QR_TOL * orig[k]!) return false;
    // dsign: the norm takes the head's sign (a zero head keeps it positive); R_kk is minus it.
    if (x[ck + k]! < 0) norm = -norm;
    const scale = 1 / norm;
    for (let i = k; i < n; i++) x[ck + i]! *= scale;
    const u1 = 1 + x[ck + k]!;
    x[ck + k] = u1;
    for (let j = k + 1; j < p; j++) {
      const cj = j * n;
      let d = 0;
      for (let i = k; i < n; i++) d += x[ck + i]! * x[cj + i]!;
      const t = -d / u1;
      for (let i = k; i < n; i++) x[cj + i]! += t * x[ck + i]!;
    }
    // H = I - u u' / u_1: kept as applyQt reads a reflection, v = u (head u_1) and v'v = 2 u_1, so that its
    // 2 (v.y) / (v'v) is (u.y) / u_1 exactly.
    vhead[k] = u1;
    rdiag[k] = -norm;
    x[ck + k] = 2 * u1;
  }
  return true;
}

/** Apply Q' (from householder) to y in place. */
// Deliberate copy: enrichment/effects.ts applies the same reflection inline (reverse order, per-row offsets).
export function applyQt(x: Float64Array, n: number, p: number, vhead: Float64Array, y: Float64Array): void {
  for (let k = 0; k < p; k++) {
    const ck = k * n;
    const v0 = vhead[k]!;
    let d = v0 * y[k]!;
    for (let i = k + 1; i < n; i++) d += x[ck + i]! * y[i]!;
    const f = (2 * d) / x[ck + k]!;
    y[k]! -= f * v0;
    for (let i = k + 1; i < n; i++) y[i]! -= f * x[ck + i]!;
  }
}

/** Solve R b = (Q'y)[0..p) into coef. */
export function backSolve(
  x: Float64Array,
  n: number,
  p: number,
  rdiag: Float64Array,
  qty: Float64Array,
  coef: Float64Array,
  coefOffset = 0,
): void {
  for (let k = p - 1; k >= 0; k--) {
    let s = qty[k]!;
    for (let j = k + 1; j < p; j++) s -= x[j * n + k]! * coef[coefOffset + j]!;
    coef[coefOffset + k] = s / rdiag[k]!;
  }
}

/** diag((R'R)^-1) = squared row norms of R^-1, into out. */
export function unscaledVariances(
  x: Float64Array,
  n: number,
  p: number,
  rdiag: Float64Array,
  out: Float64Array,
  outOffset = 0,
): void {
  // Rinv upper triangular, p x p row-major.
  const rinv = new Float64Array(p * p);
  for (let j = 0; j < p; j++) {
    rinv[j * p + j] = 1 / rdiag[j]!;
    for (let i = j - 1; i >= 0; i--) {
      let s = 0;
      for (let k = i + 1; k <= j; k++) s += x[k * n + i]! * rinv[k * p + j]!;
      rinv[i * p + j] = -s / rdiag[i]!;
    }
  }
  for (let i = 0; i < p; i++) {
    let s = 0;
    for (let j = i; j < p; j++) s += rinv[i * p + j]! * rinv[i * p + j]!;
    out[outOffset + i] = s;
  }
}
