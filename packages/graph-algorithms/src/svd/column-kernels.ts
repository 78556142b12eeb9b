// Kernels on tall column-major blocks (column i of V is v[i·n .. i·n + n)) that the SVD spends its dense time in:
// projecting a vector on many columns, subtracting the projection, and combining columns by a small matrix. They
// walk the rows in chunks so that the chunk of the short operand (the vector, or the output column) stays in L1
// while the columns stream past once, and they take four columns per sweep so that each load of the vector serves
// four multiply-adds. A column-at-a-time loop instead re-reads the whole vector from memory once per column,
// which made these steps memory-bound (a basis of 160 columns of 100,000 rows is 128 MB).
// The four-column sweep is written out in each kernel on purpose (a deliberate copy the duplicates tool lists): a
// shared helper would put a call (and its four sums passed back) inside the hot loop.

// Deliberate likeness: named constants, which the duplicates tool pairs by shape with other files' constant runs
// (cypher's temporal/duration.ts); the values are unrelated, nothing to share.
/** Rows per chunk: 8 KB of a vector, well inside L1 next to the four column streams. */
const CHUNK = 1024;
/** Rows per chunk when combining: the m columns' chunk (m·256·8 bytes, 320 KB at m = 160) stays in L2. */
const COMBINE_CHUNK = 256;

/** h[ho + i] = Σ_r v[i·n + r]·w[r] over rows r in [from, to), for i < count (h[ho .. ho + count) overwritten). */
export function projectOnColumns(
  v: Float64Array,
  n: number,
  count: number,
  w: Float64Array,
  h: Float64Array,
  from = 0,
  to = n,
  ho = 0,
): void {
  h.fill(0, ho, ho + count);
  for (let r0 = from; r0 < to; r0 += CHUNK) {
    const r1 = Math.min(to, r0 + CHUNK);
    let i = 0;
    for (; i + 3 < count; i += 4) {
      const o0 = i * n;
      const o1 = o0 + n;
      const o2 = o1 + n;
      const o3 = o2 + n;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let r = r0; r < r1; r++) {
        const x = w[r]!;
        s0 += v[o0 + r]! * x;
        s1 += v[o1 + r]! * x;
        s2 += v[o2 + r]! * x;
        s3 += v[o3 + r]! * x;
      }
      h[ho + i]! += s0;
      h[ho + i + 1]! += s1;
      h[ho + i + 2]! += s2;
      h[ho + i + 3]! += s3;
    }
    for (; i < count; i++) {
      const o = i * n;
      let s = 0;
      for (let r = r0; r < r1; r++) s += v[o + r]! * w[r]!;
      h[ho + i]! += s;
    }
  }
}

/** w[r] −= Σ_{i<count} h[i]·v[i·n + r] for rows r in [from, to). */
export function subtractColumns(
  v: Float64Array,
  n: number,
  count: number,
  h: Float64Array,
  w: Float64Array,
  from = 0,
  to = n,
): void {
  for (let r0 = from; r0 < to; r0 += CHUNK) {
    const r1 = Math.min(to, r0 + CHUNK);
    let i = 0;
    for (; i + 3 < count; i += 4) {
      const o0 = i * n;
      const o1 = o0 + n;
      const o2 = o1 + n;
      const o3 = o2 + n;
      const f0 = h[i]!;
      const f1 = h[i + 1]!;
      const f2 = h[i + 2]!;
      const f3 = h[i + 3]!;
      for (let r = r0; r < r1; r++) {
        w[r]! -= f0 * v[o0 + r]! + f1 * v[o1 + r]! + f2 * v[o2 + r]! + f3 * v[o3 + r]!;
      }
    }
    for (; i < count; i++) {
      const o = i * n;
      const f = h[i]!;
      for (let r = r0; r < r1; r++) w[r]! -= f * v[o + r]!;
    }
  }
}

/**
 * Y = V·C: y (n × width, column-major; rows [from, to) overwritten) from v (n × m, column-major) and c
 * (m × width, row-major). Two output columns per sweep, so that each load of four V values serves eight
 * multiply-adds (one output column per sweep took 1.4× the time at n = 100,000, m = 160, width = 80); the sums
 * are formed in the same order either way.
 */
export function combineColumns(
  v: Float64Array,
  n: number,
  m: number,
  c: Float64Array,
  width: number,
  y: Float64Array,
  from = 0,
  to = n,
): void {
  for (let j = 0; j < width; j++) y.fill(0, j * n + from, j * n + to);
  for (let r0 = from; r0 < to; r0 += COMBINE_CHUNK) {
    const r1 = Math.min(to, r0 + COMBINE_CHUNK);
    let j = 0;
    for (; j + 1 < width; j += 2) {
      const oy = j * n;
      const oz = oy + n;
      let i = 0;
      for (; i + 3 < m; i += 4) {
        const p = i * width + j;
        const a0 = c[p]!;
        const b0 = c[p + 1]!;
        const a1 = c[p + width]!;
        const b1 = c[p + width + 1]!;
        const a2 = c[p + 2 * width]!;
        const b2 = c[p + 2 * width + 1]!;
        const a3 = c[p + 3 * width]!;
        const b3 = c[p + 3 * width + 1]!;
        const o0 = i * n;
        const o1 = o0 + n;
        const o2 = o1 + n;
        const o3 = o2 + n;
        for (let r = r0; r < r1; r++) {
          const x0 = v[o0 + r]!;
          const x1 = v[o1 + r]!;
          const x2 = v[o2 + r]!;
          const x3 = v[o3 + r]!;
          y[oy + r]! += a0 * x0 + a1 * x1 + a2 * x2 + a3 * x3;
          y[oz + r]! += b0 * x0 + b1 * x1 + b2 * x2 + b3 * x3;
        }
      }
      for (; i < m; i++) {
        const a = c[i * width + j]!;
        const b = c[i * width + j + 1]!;
        const o = i * n;
        for (let r = r0; r < r1; r++) {
          const x = v[o + r]!;
          y[oy + r]! += a * x;
          y[oz + r]! += b * x;
        }
      }
    }
    for (; j < width; j++) {
      const oy = j * n;
      let i = 0;
      for (; i + 3 < m; i += 4) {
        const f0 = c[i * width + j]!;
        const f1 = c[(i + 1) * width + j]!;
        const f2 = c[(i + 2) * width + j]!;
        const f3 = c[(i + 3) * width + j]!;
        const o0 = i * n;
        const o1 = o0 + n;
        const o2 = o1 + n;
        const o3 = o2 + n;
        for (let r = r0; r < r1; r++) {
          y[oy + r]! += f0 * v[o0 + r]! + f1 * v[o1 + r]! + f2 * v[o2 + r]! + f3 * v[o3 + r]!;
        }
      }
      for (; i < m; i++) {
        const f = c[i * width + j]!;
        const o = i * n;
        for (let r = r0; r < r1; r++) y[oy + r]! += f * v[o + r]!;
      }
    }
  }
}

/** G = Xᵀ·Y (bx × by, row-major) for column-major X (n × bx) and Y (n × by); symmetric fill when X is Y. */
export function crossColumns(x: Float64Array, bx: number, y: Float64Array, by: number, n: number): Float64Array {
  const g = new Float64Array(bx * by);
  const same = x === y && bx === by;
  for (let r0 = 0; r0 < n; r0 += COMBINE_CHUNK) {
    const r1 = Math.min(n, r0 + COMBINE_CHUNK);
    for (let a = 0; a < bx; a++) {
      const ox = a * n;
      let c = same ? a : 0;
      for (; c + 3 < by; c += 4) {
        const o0 = c * n;
        const o1 = o0 + n;
        const o2 = o1 + n;
        const o3 = o2 + n;
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        for (let r = r0; r < r1; r++) {
          const xv = x[ox + r]!;
          s0 += xv * y[o0 + r]!;
          s1 += xv * y[o1 + r]!;
          s2 += xv * y[o2 + r]!;
          s3 += xv * y[o3 + r]!;
        }
        g[a * by + c]! += s0;
        g[a * by + c + 1]! += s1;
        g[a * by + c + 2]! += s2;
        g[a * by + c + 3]! += s3;
      }
      for (; c < by; c++) {
        const o = c * n;
        let s = 0;
        for (let r = r0; r < r1; r++) s += x[ox + r]! * y[o + r]!;
        g[a * by + c]! += s;
      }
    }
  }
  if (same) for (let a = 0; a < bx; a++) for (let c = 0; c < a; c++) g[a * by + c] = g[c * by + a]!;
  return g;
}
