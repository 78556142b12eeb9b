// The bridge's own refusals, in the one error shape (@evident/contract). The job API's answers reach the caller
// as the client's EvidentApiError, and the KB's as KbError: the bridge passes both through unchanged.
// JOBS_TO_KB_ERRORS is the one table of its codes (the README's is checked against it); an error takes its status
// from it.
import {
  defineCatalogue,
  EvidentError,
  type EvidentErrorOptions,
  InvalidParametersError,
  type Problem,
  statusOf,
} from '@evident/contract';

// Deliberate likeness: every package's catalogue has this shape (code → status and meaning, by defineCatalogue),
// which the duplicates tool pairs across packages; the rows are this package's own.
export const JOBS_TO_KB_ERRORS = defineCatalogue({
  invalid_parameters: { status: 400, meaning: 'an option out of range (`/min_priority`, `/top`, …), each by path' },
  invalid_usage: { status: 400, meaning: 'a command-line option missing (no API key)' },
  invalid_kb: { status: 400, meaning: '`--kb` is not an Evident KB, nor a new file path or an empty database' },
  job_not_completed: { status: 409, meaning: 'the job is processing, failed or cancelled' },
  unsupported_job_kind: { status: 400, meaning: 'a job kind without a mapping (known: `td`, `cg`)' },
  kb_unavailable: {
    status: 503,
    meaning: "`--kb`'s PostgreSQL server cannot be reached, or its database does not exist",
  },
  job_service_unavailable: { status: 503, meaning: 'the job service cannot be reached at `--url`' },
  unexpected_results: {
    status: null,
    meaning: 'the results document lacks a field the mapping reads (each by JSON pointer)',
  },
});

export type JobsToKbCode = keyof typeof JOBS_TO_KB_ERRORS;

/** The bridge's refusal: its status is the table's for its code. */
export class ExportError extends EvidentError {
  constructor(code: JobsToKbCode, message: string, options: Omit<EvidentErrorOptions, 'status'> = {}) {
    const status = statusOf(JOBS_TO_KB_ERRORS, code);
    super(code, message, { ...options, ...(status === undefined ? {} : { status }) });
  }
}

/** The job exists but has no results yet (or will never have: failed, cancelled). */
export const jobNotCompleted = (jobId: string, status: string) =>
  new ExportError('job_not_completed', `job ${jobId} is ${status}; only a completed job's findings can be exported`);

/** A job kind the bridge has no mapping for. */
export const unsupportedKind = (jobId: string, kind: string) =>
  new ExportError('unsupported_job_kind', `job ${jobId} is of kind '${kind}'; the export knows 'td' and 'cg'`, {
    problems: [{ path: '/kind', message: `'${kind}' has no mapping to claims (known: td, cg)` }],
  });

/** The results document does not have the shape of its kind (a server of another version, say). */
export const unexpectedResults = (jobId: string, problems: Problem[]) =>
  new ExportError('unexpected_results', `the results of job ${jobId} do not have the expected shape`, { problems });

export const invalidOptions = (problems: Problem[]) => new InvalidParametersError(problems);
