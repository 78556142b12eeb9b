// Errors of the job API itself. Every HTTP error body is made from an EvidentError by the one mapper,
// toWireError (@evident/contract): { error: { code, message, details?, request_id? } }.
import { EvidentError, type Problem } from '@evident/contract';

export { InvalidParametersError } from '@evident/contract';

/** An answer of the job API other than success: HTTP status, stable code, and Retry-After for 429s. */
export class ApiError extends EvidentError {
  /** Seconds, sent as Retry-After (429). */
  readonly retryAfter: number | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { problems?: Problem[]; retryAfter?: number } = {},
  ) {
    super(code, message, { status, ...(options.problems ? { problems: options.problems } : {}) });
    this.retryAfter = options.retryAfter;
  }
}

export const unauthorized = (message = 'missing or invalid API key') => new ApiError(401, 'unauthorized', message);
export const jobNotFound = () => new ApiError(404, 'not_found', 'no such job');
export const notFound = (message = 'no such resource') => new ApiError(404, 'not_found', message);
export const invalidJson = (message = 'the body is not valid JSON') => new ApiError(400, 'invalid_json', message);
export const invalidRequest = (message: string) => new ApiError(400, 'invalid_request', message);
