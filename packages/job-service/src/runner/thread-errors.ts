// The typed errors of the thread pool: a task past its deadline, a task whose caller left, a thread whose
// WebAssembly module trapped. Each is an EvidentError, so the job API answers it through toWireError.
import { EvidentError, statusOf } from '@evident/contract';
import { JOB_API_ERRORS } from '../errors.js';

const status = (code: 'prepare_timeout' | 'csv_timeout' | 'run_timeout' | 'payload_too_large' | 'aborted') =>
  statusOf(JOB_API_ERRORS, code);

/** A prepare (or CSV) task ran past its deadline: its thread was terminated and replaced. 503, typed. */
export class TaskTimeoutError extends EvidentError {
  constructor(code: 'prepare_timeout' | 'csv_timeout' | 'run_timeout', what: string, ms: number) {
    super(
      code,
      `${what} took longer than ${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s and was stopped; ` +
        'simplify the request or retry later',
      { status: status(code) },
    );
  }
}

/**
 * Checking a large body (one that went to a thread as bytes) ran past the deadline: the time grows with the body,
 * which is the client's to shrink, so 413 naming the limit, where a small request's timeout stays 503.
 */
export class BodyCheckTooLongError extends EvidentError {
  constructor(bytes: number, ms: number) {
    super(
      'payload_too_large',
      `checking this body of ${(bytes / 1024 / 1024).toFixed(1)} MB took longer than ` +
        `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s, the limit on checking a request ` +
        '(EVIDENT_REQUEST_TASK_TIMEOUT_MS), and was stopped; send a smaller body',
      { status: status('payload_too_large') },
    );
  }
}

/** A task needed more heap than its thread may have (a one-shot thread for large bodies): 413, typed. */
export class TaskOutOfMemoryError extends EvidentError {
  constructor(limitMb: number | undefined) {
    super(
      'payload_too_large',
      `checking the request needed more memory than a request may use${limitMb ? ` (${limitMb} MB)` : ''}; ` +
        'send a smaller body',
      { status: status('payload_too_large') },
    );
  }
}

/** The caller of a task went away (HTTP client closed the request, job cancelled, shutdown). */
export class TaskAbortedError extends EvidentError {
  constructor() {
    // 499 (client closed request): nobody reads it over HTTP; it keeps the log free of false 500s.
    super('aborted', 'aborted', { status: status('aborted') });
  }
}

/** The code a thread gives an error it cannot attribute to the input: a WebAssembly trap in an engine. */
export const ENGINE_FAULT = 'engine_fault';

// The lib settings have no WebAssembly types; the constructor is Node's own.
const WasmRuntimeError = (globalThis as unknown as { WebAssembly: { RuntimeError: abstract new () => Error } })
  .WebAssembly.RuntimeError;

/** A WebAssembly trap anywhere in the error's cause chain: the thread's wasm instances are suspect from now on. */
export function hasWasmTrap(e: unknown): boolean {
  let c: unknown = e;
  for (let i = 0; i < 8 && c instanceof Error; i++) {
    if (c instanceof WasmRuntimeError) return true;
    c = (c as Error).cause;
  }
  return false;
}
