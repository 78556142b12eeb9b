// A worker thread running one incremental Leiden update (the topology's level 0) and answering its membership and
// affected flags: leidenIncremental is synchronous, so computeTopology({ off_thread: true }) calls it here.
import { parentPort, workerData } from 'node:worker_threads';
import { serializeError } from '@evident/contract';
import { leidenIncremental } from '@evident/graph-algorithms';
import { lowerThreadPriority } from '@evident/worker-threads';
import type { IncrementalLeidenAnswer, IncrementalLeidenJob } from './incremental-leiden.js';

const job = workerData as IncrementalLeidenJob;
lowerThreadPriority(job.nice); // below the caller's event loop (threads.ts)
let answer: IncrementalLeidenAnswer;
try {
  const result = leidenIncremental(
    { n: job.n, offsets: job.offsets, targets: job.targets, weights: job.weights },
    job.previous,
    job.changed,
    {
      resolution: job.resolution,
      seed: job.seed,
      maxIterations: job.max_iterations,
      trusted: true,
      hooks: { progress: (_, f) => parentPort!.postMessage({ progress: f }) },
    },
  );
  answer = { result };
} catch (e) {
  answer = { error: serializeError(e) };
}
parentPort!.postMessage(answer);
