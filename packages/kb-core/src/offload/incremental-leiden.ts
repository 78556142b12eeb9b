// The topology's incremental update (leidenIncremental, level 0) on a worker thread of its own
// (incremental-leiden-thread.ts), so that computeTopology({ off_thread: true }) keeps the caller's event loop free
// for an update too (seconds at a million claims), as it does for a full run's Leiden: the graph, the previous
// labels and the changed nodes are copied in, the membership and the affected flags copied back (a few bytes per entity), and the thread
// ends with the call.
import type { SerializedError } from '@evident/contract';
import type { CsrGraph, LeidenIncrementalResult } from '@evident/graph-algorithms';
import { siblingModule } from '@evident/worker-threads';
import { oneAnswer } from './one-answer.js';
import { offThreadNice } from './threads.js';

export interface IncrementalLeidenJob {
  n: number;
  offsets: Int32Array;
  targets: Int32Array;
  weights: Float64Array;
  previous: Int32Array;
  changed: Int32Array;
  resolution: number;
  seed: number;
  /** Infinity: until an iteration moves no node (a structured clone keeps it). */
  max_iterations: number;
  /** Nice steps the thread takes at its start (threads.ts). */
  nice: number;
}

export interface IncrementalLeidenAnswer {
  result?: LeidenIncrementalResult;
  error?: SerializedError;
}

const threadModule = siblingModule(import.meta.url, './incremental-leiden-thread');

/** leidenIncremental(csr, previous, changed, { resolution, seed, maxIterations, trusted: true }) on a worker thread. */
export function leidenIncrementalOffThread(
  csr: CsrGraph,
  previous: Int32Array,
  changed: Int32Array,
  options: { resolution: number; seed: number; maxIterations: number },
  progress?: (fraction: number) => void,
): Promise<LeidenIncrementalResult> {
  const job: IncrementalLeidenJob = {
    n: csr.n,
    offsets: csr.offsets,
    targets: csr.targets,
    weights: csr.weights,
    previous,
    changed,
    resolution: options.resolution,
    seed: options.seed,
    max_iterations: options.maxIterations,
    nice: offThreadNice(),
  };
  return oneAnswer(
    threadModule,
    job,
    (m: IncrementalLeidenAnswer) => m.result!,
    {
      failed: "the incremental topology update's thread failed",
      ended: 'the incremental topology thread ended without an answer',
    },
    progress,
  );
}
