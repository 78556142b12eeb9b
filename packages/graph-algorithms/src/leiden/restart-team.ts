// Leiden's restarts on several threads. The runs are independent (seeds seed, seed + 1, ...), so the calling
// thread and `threads − 1` workers each claim the next restart until none is left; a run's result does not depend
// on which thread ran it, so the partition kept is the same for any number of threads. Synchronous for the
// caller, like the rest of the package: results come back through SharedArrayBuffers and Atomics, not messages.
// The caller never depends on a worker: one that fails to start claims nothing, and a restart whose worker stops
// showing progress (a heartbeat per iteration) is run again by the caller, so the worst case is the time of one
// thread.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { CsrGraph } from '../csr.js';
import { SHARED_ARRAYS, startPackageWorker, toShared } from '../threads.js';
import type { LeidenResult } from './leiden.js';
import { leidenRun, type RunSettings } from './run.js';
import { LeidenScratch } from './scratch.js';
import { type WorkGraph, workGraphFromCsr } from './work-graph.js';

/** Nodes below which a worker's start-up (tens to hundreds of milliseconds) outweighs a run. */
export const PARALLEL_MIN_NODES = 32_768;

/**
 * One thread per restart, up to twice the cores, from PARALLEL_MIN_NODES nodes and two cores. More threads than
 * cores let the operating system share the cores out, so that no core idles while one thread runs two restarts in
 * a row: three restarts of 40 iterations on the benchmark graph (2 cores) took 31.1 s on two threads and 24.8 s on
 * three, with the same CPU time. Twice the cores bounds the memory, one scratch pool per thread.
 */
export function defaultLeidenThreads(n: number, restarts: number, cores = availableParallelism()): number {
  if (n < PARALLEL_MIN_NODES || cores < 2) return 1;
  return Math.max(1, Math.min(restarts, 2 * cores));
}

// Control words.
export const NEXT = 0; // next restart to claim
export const STOP = 1; // 1: workers stop at their next iteration
export const BEAT = 2; // bumped by a worker at every iteration
export const CONTROL_WORDS = 3;

export interface RestartShared {
  graph: CsrGraph;
  /** The work graph of `graph`, built once by the caller in shared memory: every thread reads the same one. */
  base: WorkGraph;
  settings: RunSettings; // seed: the first restart's
  restarts: number;
  control: Int32Array;
  /** 1 once restart r's result is in the arrays below. */
  done: Int32Array;
  memberships: Int32Array; // restarts × n
  modularities: Float64Array;
  iterations: Int32Array;
  counts: Int32Array;
  /** Nice steps each worker takes at its start (runRestartsOffThread's; the blocking team's none). */
  nice?: number;
}

/** The arrays a team shares: the graph and settings in, one slot per restart out. */
function teamData(graph: CsrGraph, settings: RunSettings, restarts: number): RestartShared {
  const n = graph.n;
  return {
    graph: { n, offsets: toShared(graph.offsets), targets: toShared(graph.targets), weights: toShared(graph.weights) },
    base: workGraphFromCsr(graph, SHARED_ARRAYS),
    settings: { ...settings, initial: settings.initial && toShared(settings.initial) },
    restarts,
    control: new Int32Array(new SharedArrayBuffer(4 * CONTROL_WORDS)),
    done: new Int32Array(new SharedArrayBuffer(4 * restarts)),
    memberships: new Int32Array(new SharedArrayBuffer(4 * restarts * n)),
    modularities: new Float64Array(new SharedArrayBuffer(8 * restarts)),
    iterations: new Int32Array(new SharedArrayBuffer(4 * restarts)),
    counts: new Int32Array(new SharedArrayBuffer(4 * restarts)),
  };
}

/** One run on the calling thread, for a restart no worker finished. */
function runHere(
  graph: CsrGraph,
  settings: RunSettings,
  r: number,
  beforeIteration: () => void,
  progress: (f: number) => void,
  here: { base?: WorkGraph; scratch?: LeidenScratch },
): LeidenResult {
  here.base ??= workGraphFromCsr(graph);
  here.scratch ??= new LeidenScratch();
  return leidenRun(graph, here.base, here.scratch, { ...settings, seed: settings.seed + r }, beforeIteration, progress);
}

/**
 * Runs `restarts` runs on `threads` worker threads while the calling thread's event loop stays free; resolves with
 * each run's result, in restart order. Workers report each iteration by message (progress) and end when no
 * restart is left; a restart that no worker finished (every worker gone) runs on the calling thread at the end.
 */
// Deliberate copy: runRestartsInParallel takes the same arguments; the two differ in how they wait (promise, blocking).
export function runRestartsOffThread(
  graph: CsrGraph,
  settings: RunSettings,
  restarts: number,
  threads: number,
  signal: AbortSignal | undefined,
  progress: (fraction: number) => void,
  nice = 0,
): Promise<LeidenResult[]> {
  signal?.throwIfAborted();
  const shared = { ...teamData(graph, settings, restarts), nice };
  const iterationsSeen = new Float64Array(restarts);
  const report = () => {
    let f = 0;
    for (let r = 0; r < restarts; r++) {
      const it = iterationsSeen[r]!;
      f += Atomics.load(shared.done, r) === 1 ? 1 : it / (it + 10);
    }
    progress(f / restarts);
  };
  return new Promise<LeidenResult[]>((resolve, reject) => {
    let alive = threads;
    const workers: Worker[] = [];
    const onAbort = () => {
      Atomics.store(shared.control, STOP, 1);
      for (const worker of workers) void worker.terminate();
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const finish = () => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) return;
      try {
        const here = { base: shared.base };
        const results: LeidenResult[] = [];
        for (let r = 0; r < restarts; r++) {
          results.push(
            Atomics.load(shared.done, r) === 1
              ? sharedResult(shared, r)
              : runHere(
                  graph,
                  settings,
                  r,
                  () => {},
                  () => {},
                  here,
                ),
          );
        }
        resolve(results);
      } catch (e) {
        reject(e);
      }
    };
    for (let t = 0; t < threads; t++) {
      const worker = startPackageWorker(import.meta.url, './restart-worker', shared);
      // Referenced, unlike the synchronous team's: here nothing else may keep the process alive until they end.
      worker.ref();
      worker.on('message', (m: { restart: number; iterations: number }) => {
        iterationsSeen[m.restart] = m.iterations;
        report();
      });
      worker.once('exit', () => {
        if (--alive === 0) finish();
      });
      workers.push(worker);
    }
  });
}

/** Runs `restarts` runs on `threads` threads; returns each run's result, in restart order. */
// Deliberate copy: runRestartsOffThread takes the same arguments; the two differ in how they wait (promise, blocking).
export function runRestartsInParallel(
  graph: CsrGraph,
  settings: RunSettings,
  restarts: number,
  threads: number,
  signal: AbortSignal | undefined,
  progress: (fraction: number) => void,
): LeidenResult[] {
  const shared = teamData(graph, settings, restarts);
  const workers: Worker[] = [];
  for (let t = 1; t < threads; t++) workers.push(startPackageWorker(import.meta.url, './restart-worker', shared));
  const { control, done } = shared;
  const results: (LeidenResult | null)[] = new Array(restarts).fill(null);
  const here = { base: shared.base };
  let slowest = 0;
  const runOne = (r: number) => {
    let last = performance.now();
    results[r] = runHere(
      graph,
      settings,
      r,
      () => {
        signal?.throwIfAborted();
        const now = performance.now();
        slowest = Math.max(slowest, now - last);
        last = now;
      },
      (f) => progress((finished() + f) / restarts),
      here,
    );
  };
  const finished = () => {
    let k = 0;
    for (let r = 0; r < restarts; r++) if (results[r] !== null || Atomics.load(done, r) === 1) k++;
    return k;
  };
  try {
    for (;;) {
      const r = Atomics.add(control, NEXT, 1);
      if (r >= restarts) break;
      runOne(r);
    }
    // Restarts the workers claimed: wait while they show progress, else run them here.
    for (let r = 0; r < restarts; r++) {
      if (results[r] !== null) continue;
      let beat = Atomics.load(control, BEAT);
      let quietSince = performance.now();
      while (Atomics.load(done, r) !== 1) {
        signal?.throwIfAborted();
        Atomics.wait(done, r, 0, 200);
        const now = performance.now();
        const b = Atomics.load(control, BEAT);
        if (b !== beat) {
          beat = b;
          quietSince = now;
        } else if (now - quietSince > Math.max(5000, 20 * slowest)) {
          runOne(r);
          break;
        }
      }
      if (results[r] === null) results[r] = sharedResult(shared, r);
    }
  } finally {
    Atomics.store(control, STOP, 1);
    for (const worker of workers) void worker.terminate();
  }
  return results as LeidenResult[];
}

function sharedResult(s: RestartShared, r: number): LeidenResult {
  const n = s.graph.n;
  return {
    membership: s.memberships.slice(r * n, (r + 1) * n),
    count: s.counts[r]!,
    modularity: s.modularities[r]!,
    iterations: s.iterations[r]!,
    workerRestarts: 1,
  };
}
