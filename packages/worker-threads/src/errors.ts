// How a worker thread can end before its caller is done with it, as errors a caller can tell apart by `code`.
// WORKER_ERRORS is the one table of their codes (the README's is checked against it, with every code thrown in
// src): none has an HTTP status of its own, each caller maps it onto its own errors.
import { defineCatalogue, EvidentError } from '@evident/contract';

export const WORKER_ERRORS = defineCatalogue({
  worker_start_failed: { status: null, meaning: 'a TypeScript worker module and no tsx to run it' },
  worker_out_of_memory: { status: null, meaning: 'the thread went past its heap cap (`heapMb`)' },
  worker_failed: { status: null, meaning: 'an uncaught error in the thread (as `cause`)' },
  worker_exited: { status: null, meaning: 'the thread stopped (`exitCode`)' },
  parallel_for_failed: {
    status: null,
    meaning: 'a parallel-for argument not on shared memory, a kernel failing on a worker, a worker gone mid-job',
  },
});

export type WorkerErrorCode = keyof typeof WORKER_ERRORS;

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
    code: Extract<WorkerErrorCode, 'worker_out_of_memory' | 'worker_failed' | 'worker_exited'>,
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
