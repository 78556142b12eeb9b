// Worker-thread entry of the pool (pool.ts): runs the blocks of each job it is sent, then reports on its own
// MessagePort (read synchronously by the waiting main thread) and counts itself done in the job's control array.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { DONE, ABORT, runBlocks, type Job } from './blocks.js';
import { kernels } from './kernels.js';
import { READY } from './states.js';

const { port, state, slot } = workerData as { port: MessagePort; state: Int32Array; slot: number };
Atomics.store(state, slot, READY);
Atomics.notify(state, slot);

parentPort!.on('message', (job: Job) => {
  const results: unknown[] = [];
  let error: string | undefined;
  let blocks = 0;
  try {
    const fn = kernels[job.kernel];
    if (!fn) throw new Error(`unknown kernel ${job.kernel}`);
    blocks = runBlocks(fn, job, results);
  } catch (e) {
    error = e instanceof Error ? (e.stack ?? e.message) : String(e);
    Atomics.store(job.ctl, ABORT, 1);
  }
  port.postMessage({ results, error, blocks });
  Atomics.add(job.ctl, DONE, 1);
  Atomics.notify(job.ctl, DONE);
});
