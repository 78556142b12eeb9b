// The calling thread and up to `threads − 1` workers sharing the Lanczos polish's row blocks (row-ops.ts) through
// SharedArrayBuffers. The dense steps are bound by memory bandwidth and one thread does not use all of it; scipy's
// svds, through OpenBLAS, uses every core too. Synchronous for the caller: it publishes an operation, takes blocks
// itself, and waits (Atomics.wait) only for blocks a worker has claimed and not yet finished. Blocks are claimed
// one at a time by compare-and-swap on a word that also carries the operation's generation, so a worker that wakes
// late cannot take a block of the next operation with the last one's parameters; a worker that has not started yet
// (or whose core is busy) just leaves more blocks to the caller. Results are the same for any number of threads.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { CsrGraph } from '../csr.js';
import { startPackageWorker, toShared } from '../threads.js';
import { blockCount, type RowBuffers, RowOp, runBlock, type WasmBuffers } from './row-ops.js';
import { sharedKernelMemory, WASM_MAX_BYTES } from './wasm-kernels.js';

// Control words (Int32Array over a SharedArrayBuffer).
export const GEN = 0; // bumped once per operation (workers wait on it)
export const CLAIM = 1; // (generation & 0x7fff) << 16 | next block
export const FINISHED = 2; // blocks of the current operation done
export const OP = 3;
export const ARG_A = 4;
export const ARG_B = 5;
export const STOP = 6; // 1: workers exit
export const ARG_C = 7;
export const CONTROL_WORDS = 8;

/** Rows below which the workers' start-up (tens of milliseconds) costs more than they save. */
export const PARALLEL_MIN_ROWS = 32_768;

export function defaultThreads(n: number): number {
  return n >= PARALLEL_MIN_ROWS ? Math.min(4, availableParallelism()) : 1;
}

export function claimTag(generation: number): number {
  return (generation & 0x7fff) << 16;
}

/** Takes blocks of the operation tagged `tag` until none is left; returns how many this thread ran. */
export function takeBlocks(control: Int32Array, buffers: RowBuffers, tag: number, blocks: number): number {
  const op = Atomics.load(control, OP) as RowOp;
  const a = Atomics.load(control, ARG_A);
  const b = Atomics.load(control, ARG_B);
  const c0 = Atomics.load(control, ARG_C);
  let ran = 0;
  for (;;) {
    const c = Atomics.load(control, CLAIM);
    if ((c & 0x7fff0000) !== tag) return ran;
    const block = c & 0xffff;
    if (block >= blocks) return ran;
    if (Atomics.compareExchange(control, CLAIM, c, c + 1) !== c) continue;
    runBlock(buffers, op, a, b, c0, block);
    ran++;
    if (Atomics.add(control, FINISHED, 1) + 1 === blocks) Atomics.notify(control, FINISHED);
  }
}

export class RowTeam {
  readonly buffers: RowBuffers;
  readonly blocks: number;
  private readonly control: Int32Array;
  private readonly workers: Worker[] = [];
  private generation = 0;
  /** Blocks run, and how many of them by this (the calling) thread. */
  blocksRun = 0;
  callerBlocks = 0;

  /**
   * `kernels`: 'wasm' (column-kernels.wat; plain loops anyway when the buffers exceed 4 GiB) or 'plain'
   * (column-kernels.ts), which the tests compare.
   */
  constructor(a: CsrGraph, m: number, yColumns: number, threads: number, kernels: 'wasm' | 'plain' = 'wasm') {
    const n = a.n;
    this.blocks = blockCount(n);
    if (this.blocks > 0xffff) throw new RangeError('too many rows for the row team');
    const parallel = threads > 1;
    const columns: FloatLengths = {
      v: n * m,
      w: n,
      coef: m,
      s: m * Math.max(1, yColumns),
      y: n * Math.max(1, yColumns),
      partials: this.blocks * m,
    };
    this.buffers =
      (kernels === 'wasm' ? wasmBuffers(a, m, columns) : undefined) ?? plainBuffers(a, m, columns, parallel);
    this.control = parallel ? new Int32Array(new SharedArrayBuffer(4 * CONTROL_WORDS)) : new Int32Array(CONTROL_WORDS);
    for (let t = 1; t < threads; t++) this.workers.push(startWorker(this.control, this.buffers));
  }

  /** Runs one operation over every block, with the workers that are ready. */
  run(op: RowOp, a: number, b = 0, c = 0): void {
    const { blocks, buffers, control } = this;
    this.blocksRun += blocks;
    if (this.workers.length === 0) {
      for (let block = 0; block < blocks; block++) runBlock(buffers, op, a, b, c, block);
      this.callerBlocks += blocks;
      return;
    }
    this.generation++;
    const tag = claimTag(this.generation);
    Atomics.store(control, OP, op);
    Atomics.store(control, ARG_A, a);
    Atomics.store(control, ARG_B, b);
    Atomics.store(control, ARG_C, c);
    Atomics.store(control, FINISHED, 0);
    Atomics.store(control, CLAIM, tag);
    Atomics.store(control, GEN, this.generation);
    Atomics.notify(control, GEN);
    this.callerBlocks += takeBlocks(control, buffers, tag, blocks);
    for (;;) {
      const done = Atomics.load(control, FINISHED);
      if (done === blocks) return;
      Atomics.wait(control, FINISHED, done, 100);
    }
  }

  /** coef[i] = Σ over blocks, in block order, of the projection's partial sums. */
  project(count: number): Float64Array {
    const { coef, partials, m } = this.buffers;
    this.run(RowOp.Project, count);
    coef.fill(0, 0, count);
    for (let block = 0; block < this.blocks; block++) {
      const o = block * m;
      for (let i = 0; i < count; i++) coef[i]! += partials[o + i]!;
    }
    return coef;
  }

  close(): void {
    if (this.workers.length === 0) return;
    Atomics.store(this.control, STOP, 1);
    Atomics.add(this.control, GEN, 1);
    Atomics.notify(this.control, GEN);
    for (const worker of this.workers) worker.unref();
    this.workers.length = 0;
  }
}

type FloatName = 'v' | 'w' | 'coef' | 's' | 'y' | 'partials';
type FloatLengths = Record<FloatName, number>;

/**
 * The buffers, and a copy of the matrix, as views into one shared WebAssembly memory for the kernels of
 * column-kernels.wat (shared even for one thread: the module imports a shared memory). The Float64 arrays come
 * first and the Int32 ones last, so that every view is aligned. Undefined when they would not fit in 4 GiB.
 */
function wasmBuffers(a: CsrGraph, m: number, lengths: FloatLengths): RowBuffers | undefined {
  const nnz = a.targets.length;
  const floats = Object.values(lengths).reduce((sum, length) => sum + length, 0) + nnz;
  const total = 8 * floats + 4 * (a.offsets.length + nnz);
  if (total > WASM_MAX_BYTES) return undefined;
  const memory = sharedKernelMemory(total);
  let next = 0;
  const at = { memory } as WasmBuffers;
  const views = {} as Record<FloatName, Float64Array>;
  for (const [name, length] of Object.entries(lengths) as [FloatName, number][]) {
    at[name] = next;
    views[name] = new Float64Array(memory.buffer, next, length);
    next += 8 * length;
  }
  const place = <T extends Float64Array | Int32Array>(name: 'weights' | 'offsets' | 'targets', x: T): T => {
    at[name] = next;
    const view = (
      x instanceof Float64Array
        ? new Float64Array(memory.buffer, next, x.length)
        : new Int32Array(memory.buffer, next, x.length)
    ) as T;
    view.set(x);
    next += x.byteLength;
    return view;
  };
  const weights = place('weights', a.weights);
  const offsets = place('offsets', a.offsets);
  const targets = place('targets', a.targets);
  return { n: a.n, m, offsets, targets, weights, ...views, wasm: at };
}

function plainBuffers(a: CsrGraph, m: number, lengths: FloatLengths, parallel: boolean): RowBuffers {
  const f64 = (length: number) =>
    parallel ? new Float64Array(new SharedArrayBuffer(8 * length)) : new Float64Array(length);
  const shared = <T extends Int32Array | Float64Array>(x: T): T => (parallel ? toShared(x) : x);
  return {
    n: a.n,
    m,
    offsets: shared(a.offsets),
    targets: shared(a.targets),
    weights: shared(a.weights),
    v: f64(lengths.v),
    w: f64(lengths.w),
    coef: f64(lengths.coef),
    s: f64(lengths.s),
    y: f64(lengths.y),
    partials: f64(lengths.partials),
  };
}

function startWorker(control: Int32Array, buffers: RowBuffers): Worker {
  return startPackageWorker(import.meta.url, './row-worker', { control, buffers });
}
