// A worker thread running one truncated SVD (the structural embeddings') and answering its values and vectors:
// the SVD is synchronous on the thread that calls it (its row team shares the work but the caller waits), so
// generateStructuralEmbeddings({ off_thread: true }) calls it here.
import { parentPort, workerData } from 'node:worker_threads';
import { serializeError } from '@evident/contract';
import { randomizedSvd } from '@evident/graph-algorithms';
import { lowerThreadPriority } from '@evident/worker-threads';
import type { SvdJob, SvdAnswer } from './svd.js';

const job = workerData as SvdJob;
// Below the caller's event loop; the row team's threads, started from here, inherit it (Linux).
lowerThreadPriority(job.nice);
let answer: SvdAnswer;
try {
  const r = randomizedSvd({ n: job.n, offsets: job.offsets, targets: job.targets, weights: job.weights }, job.dim, {
    seed: job.seed,
    trusted: true,
    hooks: { progress: (_, f) => parentPort!.postMessage({ progress: f }) },
  });
  answer = { values: r.values, vectors: r.vectors, converged: r.converged };
} catch (e) {
  answer = { error: serializeError(e) };
}
parentPort!.postMessage(answer, answer.vectors ? [answer.vectors.buffer as ArrayBuffer] : []);
