// The bridge's own refusals, in the one error shape (@evident/contract). The job API's answers reach the caller
// as the client's EvidentApiError, and the KB's as KbError: the bridge passes both through unchanged.
import { EvidentError, InvalidParametersError, type Problem } from '@evident/contract';

export class ExportError extends EvidentError {}

/** The job exists but has no results yet (or will never have: failed, cancelled). */
export const jobNotCompleted = (jobId: string, status: string) =>
  new ExportError('job_not_completed', `job ${jobId} is ${status}; only a completed job's findings can be exported`, {
    status: 409,
  });

/** A job kind the bridge has no mapping for. */
export const unsupportedKind = (jobId: string, kind: string) =>
  new ExportError('unsupported_job_kind', `job ${jobId} is of kind '${kind}'; the export knows 'td' and 'cg'`, {
    status: 400,
    problems: [{ path: '/kind', message: `'${kind}' has no mapping to claims (known: td, cg)` }],
  });

/** The results document does not have the shape of its kind (a server of another version, say). */
export const unexpectedResults = (jobId: string, problems: Problem[]) =>
  new ExportError('unexpected_results', `the results of job ${jobId} do not have the expected shape`, { problems });

export const invalidOptions = (problems: Problem[]) => new InvalidParametersError(problems);
