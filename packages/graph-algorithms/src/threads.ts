// How this package's worker threads are started (through @evident/worker-threads, which owns the source/built
// bootstrap): none of them may keep the process alive or fail its caller.
import type { Worker } from 'node:worker_threads';
import { sharedF64, sharedI32, siblingModule, startWorker } from '@evident/worker-threads';
import type { GraphArrays } from './csr.js';

export { toShared } from '@evident/worker-threads';

/**
 * `callerUrl`: the starting module's import.meta.url; `sibling`: the worker module's path from it, without
 * extension (its .ts source or its compiled .js, as the caller runs).
 */
export function startPackageWorker(callerUrl: string, sibling: string, workerData: unknown): Worker {
  const worker = startWorker(siblingModule(callerUrl, sibling), { workerData });
  // A worker that fails to start leaves its share to the others; nothing waits for it.
  worker.on('error', () => {});
  worker.unref();
  return worker;
}

/** Graph arrays in shared memory: a team of worker threads reads them as they are, with no copy (csrFromEdges). */
export const SHARED_ARRAYS: GraphArrays = { i32: sharedI32, f64: sharedF64 };
