// Shared pieces of the reasoning stage: argument checks (the errors name the field), facts seen as plain
// records, and how two predicates contradict each other by the base's tables (rules.ts).
import { KbNotFoundError, KbValidationError } from '../errors.js';
import type { ReadContext } from '../graph/read.js';
import { scanColumns, strengthAt } from './columns.js';
import type { ReasoningRules } from './rules.js';

/** A relationship (fact) as the reasoning calls report it. */
export interface FactRef {
  content_id: string;
  subject_id: string;
  predicate: string;
  predicate_class: string;
  object_id: string;
}

export function factRef(rc: ReadContext, f: number): FactRef {
  const s = rc.s;
  const p = s.factP[f]!;
  return {
    content_id: s.contentIdOfFact(f),
    subject_id: s.entityIds[s.factS[f]!]!,
    predicate: s.predName[p]!,
    predicate_class: s.predClass[p]!,
    object_id: s.entityIds[s.factO[f]!]!,
  };
}

/** Distinct sources among the fact's claims that are active at the context's moment, minus `without`. */
export function liveSources(rc: ReadContext, f: number, without?: ReadonlySet<number>): Set<number> {
  const s = rc.s;
  const out = new Set<number>();
  for (let c = s.factFirst[f]!; c >= 0; c = s.claimNextInFact[c]!)
    if (rc.isLive(c) && !without?.has(c)) out.add(s.claimSource[c]!);
  return out;
}

/**
 * The fact's combined confidence and distinct-source count at the context's moment, as Relationship has them
 * (noisy-OR over sources, each with its most confident active claim); zeros when no claim is active. Computed
 * here rather than through rc.relationship, which also counts the target's claims (a walk on an at() view).
 */
export function factStrength(rc: ReadContext, f: number): { confidence: number; source_count: number } {
  return strengthAt(scanColumns(rc), f, rc.cutoff, noisyOr);
}

export function entityArg(rc: ReadContext, ref: unknown, field: string, includeInactive = false): number {
  if (typeof ref !== 'string' || ref.trim() === '')
    throw new KbValidationError('invalid_type', field, 'must be a non-empty entity id or name');
  const e = rc.lookupEntity(ref, undefined, includeInactive);
  if (e < 0) throw new KbNotFoundError('entity', ref);
  return e;
}

export function intArg(v: unknown, field: string, dflt: number, min: number, max: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    throw new KbValidationError('out_of_range', field, `must be an integer from ${min} to ${max}`);
  return v;
}

export function optionsArg<T extends object>(v: unknown, field = 'options'): Partial<T> {
  if (v === undefined) return {};
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new KbValidationError('invalid_type', field, 'must be an object');
  return v as Partial<T>;
}

/** A moment: Date, ISO 8601 string or ms since the epoch; anything else is a KbValidationError on `field`. */
export function momentArg(v: unknown, field: string): number {
  const ms = v instanceof Date ? v.getTime() : typeof v === 'string' ? Date.parse(v) : v;
  if (typeof ms !== 'number' || !Number.isFinite(ms))
    throw new KbValidationError(
      'invalid_timestamp',
      field,
      'must be a Date, an ISO 8601 string or milliseconds since the epoch',
    );
  return ms;
}

/** "Now" for a context: the cutoff of an at(t) view, the clock for the live base. */
export function nowOf(rc: ReadContext): number {
  return rc.live ? Date.now() : rc.cutoff;
}

/**
 * How q contradicts p (same subject, object and direction): 'opposite' (the base's opposite_predicates,
 * reasoningRules), 'negation' (not_p), or null.
 */
export function contradictionKind(rules: ReasoningRules, p: string, q: string): 'opposite' | 'negation' | null {
  if (rules.opposites.get(p)?.has(q)) return 'opposite';
  if (q === `not_${p}` || p === `not_${q}`) return 'negation';
  return null;
}

/** Noisy-OR of probabilities: 1 - prod(1 - x). */
export function noisyOr(xs: Iterable<number>): number {
  let miss = 1;
  for (const x of xs) miss *= 1 - x;
  return 1 - miss;
}

export const iso = (ms: number): string => new Date(ms).toISOString();
