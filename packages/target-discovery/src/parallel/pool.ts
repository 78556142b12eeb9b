// The per-gene fits' parallel-for: @evident/worker-threads' synchronous parallel-for over this package's kernels
// (kernels.ts, looked up by name in the workers), and how many threads a problem gets by default.
import { availableParallelism } from 'node:os';
import {
  MAX_WORKERS,
  type ParallelOptions,
  parallelFor as parallelForOn,
  siblingModule,
} from '@evident/worker-threads';

export { workerBlocks } from '@evident/worker-threads';

/** Enough cells that a worker's start (~0.5 s when it compiles TypeScript sources) is repaid. */
const PARALLEL_MIN_CELLS = 4_000_000;
const kernelsModule = siblingModule(import.meta.url, './kernels');

/** Threads to use by default for a G x n problem: all cores when the problem is large, else one. */
export function defaultThreads(cells: number): number {
  return cells >= PARALLEL_MIN_CELLS ? Math.min(availableParallelism(), MAX_WORKERS + 1) : 1;
}

/**
 * Runs kernel `name` (the same function as `fn`, looked up by name in kernels.ts by the workers) over genes
 * [0, total) in blocks. Results are written by the kernel into shared arrays in `args`; what it returns per block
 * is gathered (in no particular order) and returned. Bit-identical to one thread.
 */
export function parallelFor<A extends object>(
  name: string,
  fn: (args: A, start: number, end: number) => unknown,
  args: A,
  total: number,
  opts: ParallelOptions,
): unknown[] {
  return parallelForOn({ module: kernelsModule, name }, fn, args, total, opts);
}
