// What an off-thread call answers when its thread cannot: the caller asked for more than its budget (a 4xx
// naming the budget), or too many calls are already waiting (429 with a time to retry after). The process is
// never at fault here: the worker that ran out of time or heap is stopped and the next call gets a fresh one.
import { KbError } from '../errors.js';

/** Too many calls of this kind are waiting for their thread: try again after `retry_after_s` seconds. */
export class KbBusyError extends KbError {
  readonly retry_after_s: number;
  constructor(what: string, waiting: number, retryAfterS: number) {
    super(
      'busy',
      `${waiting} ${what} are already running or waiting, the most this base queues; retry after ${retryAfterS} s`,
      { status: 429 },
    );
    this.retry_after_s = retryAfterS;
  }
}

/**
 * The worker thread running the call ran out of its heap cap (`heap_mb`) and was stopped; its memory is given
 * back. The call asked for more than the cap holds: 413, as the engine's own memory budget answers.
 */
export class KbWorkerMemoryError extends KbError {
  constructor(code: string, field: string, heapMb: number) {
    const message = `the call needed more memory than its worker thread's heap cap of ${heapMb} MB and was stopped; ask for less (a LIMIT, fewer rows, smaller lists)`;
    super(code, message, { status: 413, problems: [{ path: `/${field}`, message }] });
  }
}

/** The call ran past its time budget and its worker thread was stopped (the watchdog; see replica/replica.ts). */
export class KbWorkerTimeoutError extends KbError {
  constructor(code: string, timeoutMs: number) {
    const message = `the call ran past its timeout_ms budget of ${timeoutMs} ms and was stopped`;
    super(code, message, { status: 408, problems: [{ path: '/timeout_ms', message }] });
  }
}

/**
 * The worker thread could not be made ready: its copy of the graph does not fit its heap cap (raise heap_mb with
 * configureOffThread), or the thread failed to start. Ours, not the caller's: 503.
 */
export class KbOffThreadUnavailableError extends KbError {
  constructor(reason: string) {
    super('off_thread_unavailable', `the worker thread for this call is unavailable: ${reason}`, { status: 503 });
  }
}
