// Idempotency-Key on the submission routes, as Stripe's API has it: the same key (per API key) with the same
// request within 24 hours answers the first job's accepted response again, marked `Idempotent-Replayed: true`;
// the same key with another request is 409. The store records the key with the job in one transaction, so
// concurrent submissions with one key create one job.
import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../errors.js';
import type { IdempotencyRecord } from '../store/types.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** Stripe's bound. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/**
 * The submission routes' headers: only the Idempotency-Key is checked (the rest pass as they are). Named in lower
 * case: Node gives header names so, and a custom validator gets the schema as written.
 */
export const SubmitHeaders = Type.Object({
  [IDEMPOTENCY_HEADER]: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
      // Printable ASCII: what a UUID or any client-made token is, and what every HTTP stack passes unchanged.
      pattern: '^[\\x20-\\x7e]+$',
      description:
        'Optional, 1-255 printable ASCII characters (a UUID, say). Within 24 h, the same key (for this API key) ' +
        'with the same body answers the first job again (same job_id and status, header Idempotent-Replayed: ' +
        'true) instead of creating another; with a different body or route it is 409 idempotency_key_reused.',
    }),
  ),
});

/** The request a key stands for: the route and the body's bytes. */
export function fingerprintOf(route: string, bodyDigest: string): string {
  return createHash('sha256').update(`${route}\n${bodyDigest}`).digest('hex');
}

/** The record's job when it stands for this request; 409 when the key was used for another. */
export function replayOf(record: IdempotencyRecord, fingerprint: string): IdempotencyRecord {
  if (record.fingerprint !== fingerprint) {
    throw new ApiError(
      'idempotency_key_reused',
      'this Idempotency-Key was used in the last 24 hours for a different request (another body or route); ' +
        'use a new key for a new request',
    );
  }
  return record;
}
