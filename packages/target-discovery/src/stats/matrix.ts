// Dense feature x sample matrix, row-major (one feature's samples are contiguous), Float64Array storage.

export interface Matrix {
  readonly nrow: number;
  readonly ncol: number;
  readonly data: Float64Array;
}

export function matrix(nrow: number, ncol: number, data?: Float64Array): Matrix {
  const d = data ?? new Float64Array(nrow * ncol);
  if (d.length !== nrow * ncol) throw new Error(`matrix: ${d.length} values for ${nrow} x ${ncol}`);
  return { nrow, ncol, data: d };
}

/** Keep the rows whose mask is true. */
export function subsetRows(m: Matrix, keep: ArrayLike<boolean | number>): Matrix {
  let n = 0;
  for (let i = 0; i < m.nrow; i++) if (keep[i]) n++;
  const out = new Float64Array(n * m.ncol);
  let r = 0;
  for (let i = 0; i < m.nrow; i++) {
    if (!keep[i]) continue;
    out.set(m.data.subarray(i * m.ncol, (i + 1) * m.ncol), r * m.ncol);
    r++;
  }
  return { nrow: n, ncol: m.ncol, data: out };
}

export function column(m: Matrix, j: number, out = new Float64Array(m.nrow)): Float64Array {
  const { nrow, ncol, data } = m;
  for (let i = 0; i < nrow; i++) out[i] = data[i * ncol + j]!;
  return out;
}

export function columnSums(m: Matrix): Float64Array {
  const s = new Float64Array(m.ncol);
  const { nrow, ncol, data } = m;
  for (let i = 0; i < nrow; i++) {
    const o = i * ncol;
    for (let j = 0; j < ncol; j++) s[j]! += data[o + j]!;
  }
  return s;
}
