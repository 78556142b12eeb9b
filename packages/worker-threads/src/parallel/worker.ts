// Worker-thread entry of the parallel-for (pool.ts): runs the blocks of each job it is sent with the kernel the job
// names (imported from the job's module, once per module), then reports on its own MessagePort (read synchronously
// by the waiting calling thread) and counts itself done in the job's control array.
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { ABORT, DONE, type Job, type Kernel, READY, runBlocks } from './blocks.js';

const { port, state, slot } = workerData as { port: MessagePort; state: Int32Array; slot: number };
const modules = new Map<string, Promise<Record<string, Kernel>>>();
Atomics.store(state, slot, READY);
Atomics.notify(state, slot);

async function kernelOf(job: Job): Promise<Kernel> {
  let kernels = modules.get(job.module);
  if (!kernels) {
    kernels = import(job.module).then((m: { kernels?: Record<string, Kernel> }) => m.kernels ?? {});
    modules.set(job.module, kernels);
  }
  const fn = (await kernels)[job.kernel];
  if (!fn) throw new Error(`unknown kernel ${job.kernel} in ${job.module}`);
  return fn;
}

// Jobs come one at a time (the caller waits for every worker before it posts the next), so an await here never
// lets two jobs interleave.
parentPort!.on('message', async (job: Job) => {
  const results: unknown[] = [];
  let error: string | undefined;
  let blocks = 0;
  try {
    blocks = runBlocks(await kernelOf(job), job, results);
  } catch (e) {
    error = e instanceof Error ? (e.stack ?? e.message) : String(e);
    Atomics.store(job.ctl, ABORT, 1);
  }
  port.postMessage({ results, error, blocks });
  Atomics.add(job.ctl, DONE, 1);
  Atomics.notify(job.ctl, DONE);
});
