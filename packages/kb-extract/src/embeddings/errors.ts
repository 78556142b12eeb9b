// The one error of the embedding providers. Its `code` says what went wrong, `field` (for configuration and
// input mistakes) which option or input, `provider` whose call it was.
import { fieldToPointer } from '@evident/contract';
import { KbError } from '@evident/kb-core';
import { extractStatus } from '../error-codes.js';

export type EmbeddingErrorCode =
  /** An unknown provider, a missing key, a bad option or base URL: the caller's, 400, at construction. */
  | 'embedding_config'
  /** `texts` is not an array of non-empty strings, or holds too many: the caller's, 400. */
  | 'embedding_invalid_input'
  /** A vector of another length than `dim`: nothing of the call is returned, 502. */
  | 'embedding_dimension_mismatch'
  /** Another number of vectors than texts, or a non-finite entry: 502. */
  | 'embedding_invalid_output'
  /** Still 429 after every retry. */
  | 'embedding_rate_limited'
  /** Every attempt timed out: 504. */
  | 'embedding_timeout'
  /** 401/403: the key was refused, 502. */
  | 'embedding_auth'
  /** Any other failed call (a 5xx after every retry, a 4xx, an unreachable host). */
  | 'embedding_provider_error'
  /** The caller's signal aborted the call. */
  | 'embedding_aborted';

export class KbEmbeddingError extends KbError {
  declare readonly code: EmbeddingErrorCode;
  readonly provider: string;
  /** The option or input at fault (dotted, as `embedding.api_key`), when there is one. */
  readonly field: string | undefined;
  /** The message without the provider and field in front (what `problems` carries). */
  readonly detail: string;

  constructor(
    code: EmbeddingErrorCode,
    provider: string,
    message: string,
    options: { field?: string; status?: number; cause?: unknown } = {},
  ) {
    const where = options.field ? `${options.field}: ` : '';
    super(code, `embedding provider ${provider}: ${where}${message}`, {
      // A provider's own 429/5xx is passed on as it answered; otherwise KB_EXTRACT_ERRORS' status for the code.
      status: extractStatus(code, options.status),
      ...(options.field ? { problems: [{ path: fieldToPointer(options.field), message }] } : {}),
      cause: options.cause,
    });
    this.provider = provider;
    this.field = options.field;
    this.detail = message;
  }

  /** The same error with its field located under `prefix` (open's `embedding.` option). */
  under(prefix: string): KbEmbeddingError {
    if (!this.field) return this;
    return new KbEmbeddingError(this.code, this.provider, this.detail, {
      field: `${prefix}.${this.field}`,
      ...(this.status !== undefined ? { status: this.status } : {}),
      cause: this.cause,
    });
  }
}
