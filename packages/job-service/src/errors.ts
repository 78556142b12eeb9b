// Errors of the job API itself. Every HTTP error body is made from an EvidentError by the one handler of both
// servers (@evident/http-guards' errorHandler, through toWireError): { error: { code, message, details?, request_id? } }.
// The codes and statuses are the seed's contract, which the API follows to the letter; JOB_API_ERRORS is the one
// table of them (the README's table is checked against it), and an error takes its status from it.
import { defineCatalogue, EvidentError, statusOf, type Problem } from '@evident/contract';
import { HTTP_ERRORS } from '@evident/http-guards';

export { InvalidParametersError } from '@evident/contract';

// Deliberate likeness: every package's catalogue has this shape (code → status and meaning, by defineCatalogue),
// which the duplicates tool pairs across packages; the rows are this package's own.
/** Every code of the job API: HTTP's own (shared with the KB console), then the API's, then a failed job's. */
export const JOB_API_ERRORS = defineCatalogue({
  ...HTTP_ERRORS,
  link_invalid: { status: 403, meaning: "a results link's token that was changed, cut short, or made for another job" },
  link_expired: { status: 403, meaning: 'a results link past its expires_at' },
  link_revoked: { status: 403, meaning: "a results link whose job's links, or whose API key, were revoked" },
  job_not_completed: { status: 409, meaning: 'results, or a results link, of a job that has not completed' },
  idempotency_key_reused: { status: 409, meaning: 'an Idempotency-Key reused for another request in 24 hours' },
  job_finished: { status: 409, meaning: 'cancelling a job that has already finished' },
  rate_limited: { status: 429, meaning: "the key's (or the IP's) requests per minute are spent; Retry-After" },
  concurrent_job_limit: { status: 429, meaning: "the key already has its plan's jobs processing; Retry-After" },
  engine_fault: { status: 500, meaning: "an engine's WebAssembly module trapped; its thread was replaced" },
  prepare_timeout: { status: 503, meaning: 'checking the request ran past EVIDENT_REQUEST_TASK_TIMEOUT_MS' },
  csv_timeout: { status: 503, meaning: 'making ?format=csv ran past EVIDENT_REQUEST_TASK_TIMEOUT_MS' },
  run_timeout: { status: 503, meaning: "a job's run on a thread ran past its deadline (a failed job's code)" },
  docking_unavailable: { status: 503, meaning: 'AutoDock Vina or Open Babel is missing or too old on the worker' },
  aborted: { status: 499, meaning: "a task's caller went away (nobody reads it over HTTP; kept out of the 500s)" },
  job_failed: { status: null, meaning: 'every attempt threw; the message quotes the last error' },
  invalid_input: { status: null, meaning: 'the engine refused the stored input at run time (not retried)' },
  structure_unavailable: {
    status: null,
    meaning: 'no structure for the target: 502 on the error when a source failed (retried), 422 when there is none',
  },
  worker_lost: { status: null, meaning: 'the worker running the job stopped during its last attempt' },
  queue_unavailable: { status: null, meaning: 'the job was stored but could not be queued' },
  // The client's and the CLI's own (never an answer of the API).
  wait_timeout: { status: null, meaning: "the client's waitForJob gave up while the job was still processing" },
  invalid_usage: { status: null, meaning: 'a CLI option missing or out of range (printed; exit 1)' },
});

export type JobApiCode = keyof typeof JOB_API_ERRORS;

/** The codes a failed job's status document may carry (the README's "job" rows), beside an engine's own 4xx codes. */
export const JOB_FAILURE_CODES: readonly JobApiCode[] = [
  'job_failed',
  'invalid_input',
  'structure_unavailable',
  'docking_unavailable',
  'worker_lost',
  'queue_unavailable',
  'engine_fault',
];

/** An answer of the job API other than success: stable code, its status from JOB_API_ERRORS, Retry-After for 429s. */
export class ApiError extends EvidentError {
  /** Seconds, sent as Retry-After (429). */
  readonly retryAfter: number | undefined;

  constructor(code: JobApiCode, message: string, options: { problems?: Problem[]; retryAfter?: number } = {}) {
    const status = statusOf(JOB_API_ERRORS, code);
    super(code, message, {
      ...(status === undefined ? {} : { status }),
      ...(options.problems ? { problems: options.problems } : {}),
    });
    this.retryAfter = options.retryAfter;
  }
}

export const unauthorized = (message = 'missing or invalid API key') => new ApiError('unauthorized', message);
export const jobNotFound = () => new ApiError('not_found', 'no such job');
export const notFound = (message = 'no such resource') => new ApiError('not_found', message);
export const invalidJson = (message = 'the body is not valid JSON') => new ApiError('invalid_json', message);
export const invalidRequest = (message: string) => new ApiError('invalid_request', message);
