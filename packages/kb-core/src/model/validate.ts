// Shape checks for ClaimInput. Registry constraints (predicate types, payload schemas) are checked by the
// registry; references (derived_from) by the engine. Errors name the field; limits keep input bounded.
import { KbValidationError } from '../errors.js';
import type { ClaimInput } from '../types.js';

export const LIMITS = {
  name_chars: 1000,
  source_id_chars: 1000,
  derived_from: 1000,
  payload_bytes: 256 * 1024,
  provenance_bytes: 64 * 1024,
  batch_claims: 1_000_000,
} as const;

function fail(code: string, field: string, message: string): never {
  throw new KbValidationError(code, field, message);
}

// Hoisted: a literal at each call would be a new array per claim.
const ENTITY_PARTS: readonly [string, string] = ['name', 'type'];
const PREDICATE_PARTS: readonly [string, string] = ['relationship', 'class'];

function tuple(value: unknown, field: string, what: readonly [string, string]): void {
  if (!Array.isArray(value)) fail('invalid_tuple', field, `must be a [${what[0]}, ${what[1]}] array`);
  if (value.length !== 2)
    fail('invalid_tuple', field, `must have exactly 2 elements [${what[0]}, ${what[1]}], got ${value.length}`);
  for (let i = 0; i < 2; i++) {
    const v = value[i];
    if (typeof v !== 'string') fail('invalid_type', `${field}[${i}]`, `${what[i]} must be a string`);
    if (v.trim() === '') fail('empty_name', `${field}[${i}]`, `${what[i]} must not be empty`);
    if (v.length > LIMITS.name_chars)
      fail('too_long', `${field}[${i}]`, `${what[i]} is longer than ${LIMITS.name_chars} characters`);
  }
}

/** Enumerable provenance keys of the claim validateClaimInput last accepted (read by the engine's snapshot). */
export let lastProvenanceKeys = 0;
/**
 * The confidence of the claim validateClaimInput last accepted, NaN when it had none: the capture reads it here
 * instead of loading the field again, which boxed the double in a new heap number per claim.
 */
export const lastConfidence = new Float64Array(1);

/** Throws KbValidationError for the first problem found; returns the confidence to store. */
export function validateClaimInput(input: unknown): ClaimInput {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    fail('invalid_type', 'claim', 'must be an object');
  const c = input as Record<string, unknown>;
  if (c.subject === undefined) fail('missing_field', 'subject', 'is required');
  tuple(c.subject, 'subject', ENTITY_PARTS);
  if (c.predicate === undefined) fail('missing_field', 'predicate', 'is required');
  tuple(c.predicate, 'predicate', PREDICATE_PARTS);
  if (c.object === undefined) fail('missing_field', 'object', 'is required');
  tuple(c.object, 'object', ENTITY_PARTS);
  const p = c.provenance;
  if (p === undefined || p === null) fail('missing_field', 'provenance', 'is required');
  if (typeof p !== 'object' || Array.isArray(p)) fail('invalid_type', 'provenance', 'must be an object');
  const prov = p as Record<string, unknown>;
  if (prov.source_id === undefined || prov.source_id === null)
    fail('missing_field', 'provenance.source_id', 'is required');
  if (typeof prov.source_id !== 'string' || prov.source_id.trim() === '')
    fail('invalid_type', 'provenance.source_id', 'must be a non-empty string');
  if (prov.source_id.length > LIMITS.source_id_chars)
    fail('too_long', 'provenance.source_id', `is longer than ${LIMITS.source_id_chars} characters`);
  if (prov.source_type === undefined || prov.source_type === null)
    fail('missing_field', 'provenance.source_type', 'is required');
  if (typeof prov.source_type !== 'string' || prov.source_type.trim() === '')
    fail('invalid_type', 'provenance.source_type', 'must be a non-empty string');
  if (prov.derived_from !== undefined) {
    const d = prov.derived_from;
    if (!Array.isArray(d)) fail('invalid_type', 'provenance.derived_from', 'must be an array of claim ids');
    if (d.length > LIMITS.derived_from)
      fail('too_long', 'provenance.derived_from', `has more than ${LIMITS.derived_from} entries`);
    for (let i = 0; i < d.length; i++) {
      if (typeof d[i] !== 'string' || d[i] === '')
        fail('invalid_type', `provenance.derived_from[${i}]`, 'must be a claim id string');
    }
  }
  let keys = 0;
  for (const _ in prov) keys++;
  lastProvenanceKeys = keys;
  if (keys > 2 + (prov.derived_from === undefined ? 0 : 1)) {
    // Only stringify provenance that carries extra fields; the common case stays cheap.
    const size = jsonSize(prov, 'provenance');
    if (size > LIMITS.provenance_bytes)
      fail('too_large', 'provenance', `is larger than ${LIMITS.provenance_bytes} bytes as JSON`);
  }
  // One load of the field, tested as a number first: comparing it with undefined first made V8 box the double
  // (a heap number per claim, half of this function's allocation). NaN and the infinities fail the range test
  // and are then told apart from a finite value out of range.
  const x = c.confidence;
  if (typeof x === 'number') {
    if (!(x >= 0 && x <= 1)) {
      if (!Number.isFinite(x)) fail('invalid_type', 'confidence', 'must be a finite number between 0 and 1');
      fail('out_of_range', 'confidence', `must be between 0 and 1, got ${x}`);
    }
    lastConfidence[0] = x;
  } else {
    if (x !== undefined) fail('invalid_type', 'confidence', 'must be a finite number between 0 and 1');
    lastConfidence[0] = Number.NaN;
  }
  if (c.payload !== undefined) {
    const size = jsonSize(c.payload, 'payload');
    if (size > LIMITS.payload_bytes)
      fail('too_large', 'payload', `is larger than ${LIMITS.payload_bytes} bytes as JSON`);
  }
  return c as unknown as ClaimInput;
}

function jsonSize(value: unknown, field: string): number {
  let s: string | undefined;
  try {
    s = JSON.stringify(value);
  } catch (e) {
    fail('invalid_type', field, `must be JSON-serialisable (${(e as Error).message})`);
  }
  if (s === undefined) fail('invalid_type', field, 'must be JSON-serialisable');
  return s.length;
}
