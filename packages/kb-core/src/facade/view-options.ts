// The options objects of KbView's reads (view.ts), public through index.ts, and at()'s moment.
import { KbValidationError } from '../errors.js';

/** generateStructuralEmbeddings' options. */
export interface EmbeddingOptions {
  dim?: number;
  seed?: number;
  /** Run the SVD on a worker thread of its own, so the caller's event loop stays free (src/offload). Default false. */
  off_thread?: boolean;
  progress?: (stage: string, fraction: number) => void;
}

export interface ListEntitiesOptions {
  entity_type?: string;
  min_claims?: number;
  limit?: number;
  offset?: number;
}

export interface InquiryMatchOptions {
  subject_id?: string;
  object_id?: string;
  predicate?: string;
}

export interface ClaimsForOptions {
  predicate_type?: string;
  /** 'active' (default) or 'all' (retracted and degraded claims too, for audit). */
  status?: 'active' | 'all';
}

/** at()'s moment (a Date, an ISO 8601 string or ms since the epoch) in ms, or undefined when it is none. */
export function timestampMs(timestamp: unknown): number | undefined {
  const ms =
    timestamp instanceof Date ? timestamp.getTime() : typeof timestamp === 'string' ? Date.parse(timestamp) : timestamp;
  return typeof ms === 'number' && Number.isFinite(ms) ? ms : undefined;
}

export function invalidTimestamp(): KbValidationError {
  return new KbValidationError(
    'invalid_timestamp',
    'timestamp',
    'must be a Date, an ISO 8601 string or milliseconds since the epoch',
  );
}
