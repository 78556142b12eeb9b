// The Lanczos polish's per-step work, cut into blocks of rows so that several threads can share it (row-team.ts).
// Both the calling thread and the workers (row-worker.ts) run a block through `runBlock`, on views of the same
// shared buffers. A projection leaves one partial sum per block, which the caller adds up in block order, so the
// result does not depend on how many threads took part or which block each took. The dense operations run in the
// SIMD kernels of column-kernels.wat when the buffers live in a WebAssembly memory (`wasm`), else in the plain
// TypeScript loops of column-kernels.ts (buffers beyond the 4 GiB a 32-bit module addresses).
import { combineColumns, projectOnColumns, subtractColumns } from './column-kernels.js';
import { type WasmColumnKernels, type WasmMemory, wasmColumnKernels } from './wasm-kernels.js';

// Deliberate likeness: named constants, which the duplicates tool pairs by shape with other files' constant runs
// (kb-core's analytics/health.ts); the values are unrelated, nothing to share.
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
  /** When the Float64 buffers are views into one WebAssembly memory: it, and their byte offsets in it. */
  wasm?: WasmBuffers;
}

export interface WasmBuffers {
  memory: WasmMemory;
  offsets: number;
  targets: number;
  weights: number;
  v: number;
  w: number;
  coef: number;
  s: number;
  y: number;
  partials: number;
}

/** Each thread's instance of the kernels over each memory it has been given. */
const instances = new WeakMap<WasmMemory, WasmColumnKernels>();

function kernelsOver(memory: WasmMemory): WasmColumnKernels {
  let kernels = instances.get(memory);
  if (!kernels) {
    kernels = wasmColumnKernels(memory);
    instances.set(memory, kernels);
  }
  return kernels;
}

export function blockCount(n: number): number {
  return Math.max(1, Math.ceil(n / BLOCK_ROWS));
}

export function runBlock(buffers: RowBuffers, op: RowOp, a: number, b: number, c: number, block: number): void {
  const { n, m, v, w } = buffers;
  const from = block * BLOCK_ROWS;
  const to = Math.min(n, from + BLOCK_ROWS);
  if (buffers.wasm) {
    wasmBlock(buffers, buffers.wasm, op, a, b, c, block, from, to);
    return;
  }
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

/** An operation on one block in the WebAssembly kernels; the SIMD ones take an even number of rows, an odd last row here. */
function wasmBlock(
  buffers: RowBuffers,
  at: WasmBuffers,
  op: RowOp,
  a: number,
  b: number,
  c: number,
  block: number,
  from: number,
  to: number,
): void {
  const kernels = kernelsOver(at.memory);
  const { n, m, v, w } = buffers;
  const even = to - ((to - from) & 1);
  if (op === RowOp.Spmv) {
    kernels.spmv(at.offsets, at.targets, at.weights, at.v + 8 * a * n, at.w, from, to);
  } else if (op === RowOp.Project) {
    const out = block * m;
    kernels.project(at.v, n, a, at.w, at.partials + 8 * out, from, even);
    if (even < to) for (let i = 0; i < a; i++) buffers.partials[out + i]! += v[i * n + even]! * w[even]!;
  } else if (op === RowOp.Subtract) {
    kernels.subtract(at.v, n, a, at.coef, at.w, from, even);
    if (even < to) {
      let sum = 0;
      for (let i = 0; i < a; i++) sum += buffers.coef[i]! * v[i * n + even]!;
      w[even]! -= sum;
    }
  } else {
    kernels.combine(at.v + 8 * c * n, n, a, at.s, b, at.y, from, even);
    if (even < to) {
      const { s, y } = buffers;
      for (let j = 0; j < b; j++) {
        let sum = 0;
        for (let i = 0; i < a; i++) sum += v[(c + i) * n + even]! * s[i * b + j]!;
        y[j * n + even] = sum;
      }
    }
  }
}
