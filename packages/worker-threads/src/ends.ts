// A worker's end as one error. Node reports a thread's failure as an 'error' event followed by 'exit', and a
// thread that stops on its own (or is terminated) as 'exit' alone; a caller wants to hear of it once.
import type { Worker } from 'node:worker_threads';
import { WorkerEndedError } from './errors.js';

/**
 * Calls `onEnd` once, when `worker` fails or exits, with what ended it: `worker_out_of_memory` past its heap cap
 * (`heapMb`: the cap it was given, for the message), `worker_failed` for an uncaught error, else `worker_exited`.
 */
export function onWorkerEnd(worker: Worker, onEnd: (error: WorkerEndedError) => void, heapMb?: number): void {
  let ended = false;
  const end = (e: WorkerEndedError) => {
    if (ended) return;
    ended = true;
    onEnd(e);
  };
  worker.on('error', (e: NodeJS.ErrnoException) =>
    end(
      e.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new WorkerEndedError(
            'worker_out_of_memory',
            `the worker thread ran out of memory${heapMb === undefined ? '' : ` (heap cap ${heapMb} MB)`}`,
            undefined,
            heapMb,
            e,
          )
        : new WorkerEndedError('worker_failed', `the worker thread failed: ${e.message}`, undefined, heapMb, e),
    ),
  );
  worker.on('exit', (code) =>
    end(new WorkerEndedError('worker_exited', `the worker thread exited with code ${code}`, code, heapMb)),
  );
}
