// Errors that become HTTP answers. One body shape everywhere: { error: { code, message, details? } }.
export interface ErrorDetail {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    /** Seconds, sent as Retry-After (429). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): { error: { code: string; message: string; details?: ErrorDetail[] } } {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

export const invalidParameters = (details: ErrorDetail[]) =>
  new ApiError(400, 'invalid_parameters', `the request has ${details.length} invalid parameter(s)`, details);
export const unauthorized = (message = 'missing or invalid API key') => new ApiError(401, 'unauthorized', message);
export const jobNotFound = () => new ApiError(404, 'not_found', 'no such job');
