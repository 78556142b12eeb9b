// The Lanczos polish's per-step work, cut into blocks of rows so that several threads can share it (row-team.ts).
// Both the calling thread and the workers (row-worker.ts) run a block through `runBlock`, on views of the same
// shared buffers. A projection leaves one partial sum per block, which the caller adds up in block order, so the
// result does not depend on how many threads took part or which block each took.
import { combineColumns, projectOnColumns, subtractColumns } from './column-kernels.js';

/** Rows per block: 4 KB-row chunks of the kernels, about 25 blocks at 100,000 rows. */
export const BLOCK_ROWS = 4096;

export const RowOp = {
  /** w = A·(column `a` of V). */
  Spmv: 1,
  /** partials[block·m + i] = Σ_{rows of block} V[·, i]·w for i < a. */
  Project: 2,
  /** w −= Σ_{i<a} coef[i]·V[·, i]. */
  Subtract: 3,
  /** Y = V(a columns from column c)·S (a × b, row-major), b columns. */
  Combine: 4,
} as const;
export type RowOp = (typeof RowOp)[keyof typeof RowOp];

/** The shared state, the same views on every thread. */
export interface RowBuffers {
  n: number;
  /** Basis columns (m of them, column-major n × m). */
  m: number;
  offsets: Int32Array;
  targets: Int32Array;
  weights: Float64Array;
  v: Float64Array;
  w: Float64Array;
  coef: Float64Array;
  s: Float64Array;
  y: Float64Array;
  partials: Float64Array;
}

export function blockCount(n: number): number {
  return Math.max(1, Math.ceil(n / BLOCK_ROWS));
}

export function runBlock(buffers: RowBuffers, op: RowOp, a: number, b: number, c: number, block: number): void {
  const { n, m, v, w } = buffers;
  const from = block * BLOCK_ROWS;
  const to = Math.min(n, from + BLOCK_ROWS);
  switch (op) {
    case RowOp.Spmv: {
      const { offsets, targets, weights } = buffers;
      const xo = a * n;
      for (let i = from; i < to; i++) {
        let sum = 0;
        const end = offsets[i + 1]!;
        for (let p = offsets[i]!; p < end; p++) sum += weights[p]! * v[xo + targets[p]!]!;
        w[i] = sum;
      }
      return;
    }
    case RowOp.Project:
      projectOnColumns(v, n, a, w, buffers.partials, from, to, block * m);
      return;
    case RowOp.Subtract:
      subtractColumns(v, n, a, buffers.coef, w, from, to);
      return;
    case RowOp.Combine:
      combineColumns(c === 0 ? v : v.subarray(c * n), n, a, buffers.s, b, buffers.y, from, to);
      return;
  }
}
