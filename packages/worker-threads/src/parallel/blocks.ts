// The block loop shared by the calling thread and the workers: each thread takes the next block of items from a
// shared counter (Atomics.add), so faster threads simply take more blocks and no thread idles on a fixed share.

/** Slots of a job's control array (Int32Array on a SharedArrayBuffer). */
export const NEXT = 0;
export const DONE = 1;
export const ABORT = 2;
export const CTL_LENGTH = 3;

/** A pool worker's word in the pool's state array once its entry has loaded (0 while it boots). */
export const READY = 1;

/** A kernel fills its results for the items [start, end) into shared arrays in `args`; it may return a small value. */
export type Kernel = (args: never, start: number, end: number) => unknown;

export interface Job {
  /** URL of the module whose `kernels` export holds the kernel. */
  module: string;
  kernel: string;
  args: unknown;
  total: number;
  block: number;
  ctl: Int32Array;
}

/**
 * Runs blocks until none are left or the job is aborted; a kernel's non-undefined return values are collected.
 * Returns how many blocks this thread ran.
 */
export function runBlocks(fn: Kernel, job: Job, results: unknown[], beforeBlock?: () => void): number {
  const { ctl, total, block } = job;
  let ran = 0;
  for (;;) {
    if (Atomics.load(ctl, ABORT) !== 0) return ran;
    const start = Atomics.add(ctl, NEXT, 1) * block;
    if (start >= total) return ran;
    beforeBlock?.();
    const r = fn(job.args as never, start, Math.min(total, start + block));
    ran++;
    if (r !== undefined) results.push(r);
  }
}
