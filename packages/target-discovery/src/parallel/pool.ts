// A synchronous parallel-for over genes on worker threads. The DE functions are synchronous (their callers and
// the job service expect a return value, not a promise), so the main thread does not await: it posts the job,
// takes blocks itself like any worker, then blocks in Atomics.wait until every worker has counted itself done
// and reads their small results with receiveMessageOnPort. Workers stay alive between jobs (unref'd, so they
// never keep the process open). Every gene is computed by the same code whichever thread takes it, so the
// results are bit-identical to one thread.
import { availableParallelism } from 'node:os';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { ABORT, CTL_LENGTH, DONE, runBlocks, type Job } from './blocks.js';
import { isShared } from './shared.js';
import { FAILED } from './states.js';

/** Enough cells that a worker's start (~0.5 s when it compiles TypeScript sources) is repaid. */
const PARALLEL_MIN_CELLS = 4_000_000;
const MAX_WORKERS = 16;
/** Typed arrays larger than this must be on shared memory: posting them would copy them to every worker. */
const MAX_COPIED_BYTES = 1 << 20;

interface PoolWorker {
  worker: Worker;
  port: MessagePort;
  slot: number;
}

const pool: PoolWorker[] = [];
const state = new Int32Array(new SharedArrayBuffer(4 * MAX_WORKERS));
let unavailable = false;
let blocksOnWorkers = 0;

/** Blocks run on worker threads since the process started (lets tests see that workers really ran). */
export function workerBlocks(): number {
  return blocksOnWorkers;
}

/** Threads to use by default for a G x n problem: all cores when the problem is large, else one. */
export function defaultThreads(cells: number): number {
  return cells >= PARALLEL_MIN_CELLS ? Math.min(availableParallelism(), MAX_WORKERS + 1) : 1;
}

/**
 * How a worker loads the pool's entry. From compiled JavaScript it is plain; from the TypeScript sources (tests,
 * benchmarks under tsx) Node 20 does not hand a worker the parent's --import hooks, so the worker registers
 * tsx itself first. Null when the sources cannot be loaded in a worker (then everything runs on one thread).
 */
function bootstrap(): string | null {
  const ts = import.meta.url.endsWith('.ts');
  const entry = new URL(`./worker.${ts ? 'ts' : 'js'}`, import.meta.url).href;
  let tsx = '';
  if (ts) {
    try {
      tsx = import.meta.resolve('tsx/esm/api');
    } catch {
      return null;
    }
  }
  const register = tsx ? `(await import(${JSON.stringify(tsx)})).register();` : '';
  return `const { workerData } = require('node:worker_threads');
(async () => { ${register} await import(${JSON.stringify(entry)}); })().catch((e) => {
  Atomics.store(workerData.state, workerData.slot, ${FAILED});
  Atomics.notify(workerData.state, workerData.slot);
  console.error('evident worker failed to start:', e);
});`;
}

/** Only the module-resolution flags of the parent (test-runner or inspector flags are not valid for a worker). */
function workerExecArgv(): string[] {
  const out: string[] = [];
  const a = process.execArgv;
  for (let i = 0; i < a.length; i++) {
    const f = a[i]!;
    if (f.startsWith('--conditions=') || (f.startsWith('-C') && f.length > 2)) out.push(f);
    else if ((f === '--conditions' || f === '-C') && i + 1 < a.length) out.push(f, a[++i]!);
  }
  return out;
}

function ensureWorkers(k: number): PoolWorker[] {
  if (unavailable) return [];
  const code = bootstrap();
  if (code === null) {
    unavailable = true;
    return [];
  }
  while (pool.length < Math.min(k, MAX_WORKERS)) {
    const slot = pool.length;
    Atomics.store(state, slot, 0);
    const { port1, port2 } = new MessageChannel();
    let worker: Worker;
    try {
      worker = new Worker(code, {
        eval: true,
        execArgv: workerExecArgv(),
        workerData: { port: port2, state, slot },
        transferList: [port2],
      });
    } catch {
      unavailable = true;
      break;
    }
    worker.unref();
    port1.unref();
    pool.push({ worker, port: port1, slot });
  }
  return pool.slice(0, k).filter((w) => Atomics.load(state, w.slot) !== FAILED);
}

function checkArgs(args: unknown, name: string): void {
  for (const [key, v] of Object.entries(args as Record<string, unknown>))
    if (ArrayBuffer.isView(v) && v.byteLength > MAX_COPIED_BYTES && !isShared(v))
      throw new Error(`parallelFor(${name}): argument ${key} (${v.byteLength} bytes) is not on shared memory`);
}

export interface ParallelOptions {
  /** Threads including the calling one; 1 runs every block on the caller. */
  threads: number;
  /** Genes per block (the unit threads take from the shared counter). */
  block?: number;
  signal?: AbortSignal;
}

/**
 * Runs kernel `name` (the same function as `fn`, looked up by name in the workers) over genes [0, total) in
 * blocks. Results are written by the kernel into shared arrays in `args`; what it returns per block is gathered
 * (in no particular order) and returned.
 */
export function parallelFor<A extends object>(
  name: string,
  fn: (args: A, start: number, end: number) => unknown,
  args: A,
  total: number,
  opts: ParallelOptions,
): unknown[] {
  const block = Math.max(1, opts.block ?? 256);
  const ctl = new Int32Array(new SharedArrayBuffer(4 * CTL_LENGTH));
  const job: Job = { kernel: name, args, total, block, ctl };
  const wanted = Math.min(opts.threads - 1, Math.ceil(total / block) - 1);
  const workers = wanted > 0 ? ensureWorkers(wanted) : [];
  if (workers.length > 0) checkArgs(args, name);
  for (const w of workers) w.worker.postMessage(job);
  const results: unknown[] = [];
  let mainError: unknown;
  try {
    runBlocks(fn as (args: never, s: number, e: number) => unknown, job, results, () => opts.signal?.throwIfAborted());
  } catch (e) {
    mainError = e;
    Atomics.store(ctl, ABORT, 1);
  }
  // Wait for every worker that can answer: one that failed to start never took a block. A worker that died
  // (threadId -1 once its thread has stopped, before any 'exit' event this blocked thread could not see) never
  // counts itself done: the job fails rather than waiting for it forever, and the pool is rebuilt next time.
  let died = 0;
  for (;;) {
    const done = Atomics.load(ctl, DONE);
    const failed = workers.filter((w) => Atomics.load(state, w.slot) === FAILED).length;
    if (done + failed >= workers.length) break;
    died = workers.filter((w) => w.worker.threadId === -1).length;
    if (died > 0) break;
    Atomics.wait(ctl, DONE, done, 50);
  }
  if (died > 0) {
    Atomics.store(ctl, ABORT, 1);
    for (const w of pool.splice(0)) void w.worker.terminate();
    throw new Error(`parallelFor(${name}): a worker thread stopped before finishing its blocks`);
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
  if (errors.length > 0) throw new Error(`parallelFor(${name}) failed on a worker: ${errors[0]}`);
  return results;
}
