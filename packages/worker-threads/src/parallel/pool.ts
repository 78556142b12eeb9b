// A synchronous parallel-for over items on worker threads. Callers that must return a value, not a promise (the
// DE engines' per-gene fits), cannot await: the calling thread posts the job, takes blocks itself like any worker,
// then blocks in Atomics.wait until every worker has counted itself done and reads their small results with
// receiveMessageOnPort. Workers stay alive between jobs (unref'd, so they never keep the process open) and import
// each kernel module once. Every item is computed by the same code whichever thread takes it, so the results are
// bit-identical to one thread.
import { MessageChannel, type MessagePort, receiveMessageOnPort, type Worker } from 'node:worker_threads';
import { resolutionExecArgv, siblingModule, startWorker } from '../start.js';
import { isShared } from '../shared.js';
import { ParallelForError } from '../errors.js';
import { ABORT, CTL_LENGTH, DONE, type Job, type Kernel, READY, runBlocks } from './blocks.js';

/** Worker threads at most (the calling thread comes on top). */
export const MAX_WORKERS = 16;
/** Typed arrays larger than this must be on shared memory: posting them would copy them to every worker. */
const MAX_COPIED_BYTES = 1 << 20;

interface PoolWorker {
  worker: Worker;
  port: MessagePort;
  slot: number;
  /** The thread failed before it was ready (it never takes a block). */
  failed: boolean;
}

const pool: PoolWorker[] = [];
// A worker's state: 0 while it boots, READY once its entry has loaded.
const state = new Int32Array(new SharedArrayBuffer(4 * MAX_WORKERS));
let unavailable = false;
let blocksOnWorkers = 0;

/** Blocks run on worker threads since the process started (lets tests see that workers really ran). */
export function workerBlocks(): number {
  return blocksOnWorkers;
}

function ensureWorkers(k: number): PoolWorker[] {
  if (unavailable) return [];
  while (pool.length < Math.min(k, MAX_WORKERS)) {
    const slot = pool.length;
    Atomics.store(state, slot, 0);
    const { port1, port2 } = new MessageChannel();
    let worker: Worker;
    try {
      worker = startWorker(siblingModule(import.meta.url, './worker'), {
        execArgv: resolutionExecArgv(),
        workerData: { port: port2, state, slot },
        transferList: [port2],
      });
    } catch {
      // No tsx for the sources, or no threads at all: everything runs on the calling thread.
      unavailable = true;
      break;
    }
    const entry: PoolWorker = { worker, port: port1, slot, failed: false };
    // A thread that fails to start never took a block: the others (and the caller) do its share.
    worker.on('error', () => {
      if (Atomics.load(state, slot) !== READY) entry.failed = true;
    });
    worker.unref();
    port1.unref();
    pool.push(entry);
  }
  return pool.slice(0, k).filter((w) => !w.failed);
}

/** A worker that stopped before its entry loaded (threadId is -1 once its thread is gone). */
const failedToStart = (w: PoolWorker) =>
  w.failed || (w.worker.threadId === -1 && Atomics.load(state, w.slot) !== READY);

function checkArgs(args: unknown, name: string): void {
  for (const [key, v] of Object.entries(args as Record<string, unknown>))
    if (ArrayBuffer.isView(v) && v.byteLength > MAX_COPIED_BYTES && !isShared(v))
      throw new ParallelForError(
        `parallelFor(${name}): argument ${key} (${v.byteLength} bytes) is not on shared memory`,
      );
}

export interface ParallelOptions {
  /** Threads including the calling one; 1 runs every block on the caller. */
  threads: number;
  /** Items per block (the unit threads take from the shared counter); 256 by default. */
  block?: number;
  signal?: AbortSignal;
}

/** Where the workers find a kernel: the URL of a module exporting `kernels` (a record by name), and its name. */
export interface KernelRef {
  module: URL;
  name: string;
}

/**
 * Runs `fn` over items [0, total) in blocks, on the calling thread and up to `threads − 1` workers, which run the
 * same function found as `kernels[kernel.name]` in `kernel.module` (`siblingModule` gives its URL in the form the
 * caller runs in). The kernel writes its results into shared arrays in `args` (a typed array over 1 MiB must be on
 * shared memory); what it returns per block is gathered, in no particular order, and returned.
 */
export function parallelFor<A extends object>(
  kernel: KernelRef,
  fn: (args: A, start: number, end: number) => unknown,
  args: A,
  total: number,
  opts: ParallelOptions,
): unknown[] {
  const name = kernel.name;
  const block = Math.max(1, opts.block ?? 256);
  const ctl = new Int32Array(new SharedArrayBuffer(4 * CTL_LENGTH));
  const job: Job = { module: kernel.module.href, kernel: name, args, total, block, ctl };
  const wanted = Math.min(opts.threads - 1, Math.ceil(total / block) - 1);
  const workers = wanted > 0 ? ensureWorkers(wanted) : [];
  if (workers.length > 0) checkArgs(args, name);
  for (const w of workers) w.worker.postMessage(job);
  const results: unknown[] = [];
  let mainError: unknown;
  try {
    runBlocks(fn as Kernel, job, results, () => opts.signal?.throwIfAborted());
  } catch (e) {
    mainError = e;
    Atomics.store(ctl, ABORT, 1);
  }
  // Wait for every worker that can answer: one that failed to start never took a block. A worker that died after
  // it started (threadId -1 once its thread has stopped, before any 'exit' event this blocked thread could not
  // see) never counts itself done: the job fails rather than waiting for it forever, and the pool is rebuilt.
  let died = 0;
  for (;;) {
    const done = Atomics.load(ctl, DONE);
    const failed = workers.filter(failedToStart).length;
    if (done + failed >= workers.length) break;
    died = workers.filter((w) => w.worker.threadId === -1 && !failedToStart(w)).length;
    if (died > 0) break;
    Atomics.wait(ctl, DONE, done, 50);
  }
  if (died > 0) {
    Atomics.store(ctl, ABORT, 1);
    for (const w of pool.splice(0)) void w.worker.terminate();
    throw new ParallelForError(`parallelFor(${name}): a worker thread stopped before finishing its blocks`);
  }
  const errors: string[] = [];
  for (const w of workers) {
    for (let m = receiveMessageOnPort(w.port); m; m = receiveMessageOnPort(w.port)) {
      const msg = m.message as { results: unknown[]; error?: string; blocks: number };
      results.push(...msg.results);
      blocksOnWorkers += msg.blocks;
      if (msg.error) errors.push(msg.error);
    }
  }
  if (mainError !== undefined) throw mainError;
  if (errors.length > 0) throw new ParallelForError(`parallelFor(${name}) failed on a worker: ${errors[0]}`);
  return results;
}
