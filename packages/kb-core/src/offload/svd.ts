// The structural embeddings' SVD on a worker thread of its own (svd-thread.ts), so the caller's event loop stays
// free while it runs: the matrix is copied in, the vectors are moved back, and the thread ends with the call.
import type { SerializedError } from '@evident/contract';
import type { CsrGraph } from '@evident/graph-algorithms';
import { siblingModule } from '@evident/worker-threads';
import { oneAnswer } from './one-answer.js';
import { offThreadNice } from './threads.js';

export interface SvdJob {
  n: number;
  offsets: Int32Array;
  targets: Int32Array;
  weights: Float64Array;
  dim: number;
  seed: number;
  /** Nice steps the thread takes at its start (threads.ts). */
  nice: number;
}

export interface SvdAnswer {
  values?: Float64Array;
  vectors?: Float64Array;
  converged?: boolean;
  error?: SerializedError;
}

// svd-thread.ts from the sources (under tsx), .js built: @evident/worker-threads starts either.
const threadModule = siblingModule(import.meta.url, './svd-thread');

/** randomizedSvd(csr, dim, { seed }) on a worker thread: its values, vectors (n × dim) and whether it converged. */
export function svdOffThread(
  csr: CsrGraph,
  dim: number,
  seed: number,
  progress?: (fraction: number) => void,
): Promise<{ values: Float64Array; vectors: Float64Array; converged: boolean }> {
  const job: SvdJob = {
    n: csr.n,
    offsets: csr.offsets,
    targets: csr.targets,
    weights: csr.weights,
    dim,
    seed,
    nice: offThreadNice(),
  };
  return oneAnswer(
    threadModule,
    job,
    (m: SvdAnswer) => ({ values: m.values!, vectors: m.vectors!, converged: m.converged! }),
    { failed: "the SVD's thread failed", ended: 'the SVD thread ended without an answer' },
    progress,
  );
}
