// How a worker thread can end before its caller is done with it, as errors a caller can tell apart by `code`.
import { EvidentError } from '@evident/contract';

/** A worker could not be started: its module is TypeScript and tsx cannot be found (an install without it). */
export class WorkerStartError extends EvidentError {
  constructor(message: string, cause?: unknown) {
    super('worker_start_failed', message, { cause });
  }
}

/**
 * A worker thread ended. `code`: `worker_out_of_memory` (past its heap cap; `heapMb` says which),
 * `worker_failed` (an uncaught error in the thread, `cause`), `worker_exited` (it stopped, `exitCode`).
 */
export class WorkerEndedError extends EvidentError {
  constructor(
    code: 'worker_out_of_memory' | 'worker_failed' | 'worker_exited',
    message: string,
    readonly exitCode?: number,
    readonly heapMb?: number,
    cause?: unknown,
  ) {
    super(code, message, { cause });
  }
}

/** A parallel-for that could not finish: an argument not on shared memory, a kernel failing on a worker, a worker gone. */
export class ParallelForError extends EvidentError {
  constructor(message: string) {
    super('parallel_for_failed', message);
  }
}
