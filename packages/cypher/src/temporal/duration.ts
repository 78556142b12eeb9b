// Durations: built from a map of components, fractions of a unit carried into the smaller units (a month as
// the average Gregorian month, 2,629,746 s; a day as 86,400 s), the same approximation scaling uses; sums,
// differences, products and quotients; and temporal ± duration.
import { CypherArgumentError, CypherTypeError } from '../errors.js';
import { plusMonths } from './calendar.js';
import { fromInstant, fromLocal } from './construct.js';
import { DurationValue, NANOS_PER_DAY, NANOS_PER_SECOND, TemporalValue } from './values.js';

// Deliberate likeness: named constants, which the duplicates tool pairs by shape with other files' constant runs
// (graph-algorithms' svd/column-kernels.ts); the values are unrelated, nothing to share.
const AVG_NANOS_PER_MONTH = 2_629_746e9;
const NANOS_PER_DAY_F = 86_400e9;

/**
 * A duration from possibly fractional months, days, seconds and nanoseconds (plus exact nanoseconds): each unit's
 * whole part is kept and its fraction carried into the next smaller unit, in nanoseconds, truncating the last
 * (Neo4j's published approximation, which the TCK's expected values follow).
 */
export function approximateDuration(
  months: number,
  days: number,
  seconds: number,
  nanos: number,
  exact = 0n,
): DurationValue {
  if ([months, days, seconds, nanos].every(Number.isSafeInteger)) {
    return new DurationValue(months, days, BigInt(seconds) * NANOS_PER_SECOND + BigInt(nanos) + exact);
  }
  const wholeMonths = Math.trunc(months);
  const monthRest = AVG_NANOS_PER_MONTH * months - AVG_NANOS_PER_MONTH * wholeMonths;
  const d = days + monthRest / NANOS_PER_DAY_F;
  const wholeDays = Math.trunc(d);
  const dayRest = NANOS_PER_DAY_F * d - NANOS_PER_DAY_F * wholeDays;
  const s = seconds + dayRest / 1e9;
  const wholeSeconds = Math.trunc(s);
  const secondRest = 1e9 * s - 1e9 * wholeSeconds;
  const n = Math.trunc(nanos + secondRest);
  // Each part is a 64-bit integer in Cypher: a duration of 10^300 years is refused, not printed in exponent form.
  for (const v of [wholeMonths, wholeDays, wholeSeconds, n]) {
    if (!(Math.abs(v) < 9.2e18)) throw new CypherArgumentError('InvalidArgumentValue', 'the duration is out of range');
  }
  return new DurationValue(wholeMonths, wholeDays, BigInt(wholeSeconds) * NANOS_PER_SECOND + BigInt(n) + exact);
}

const DURATION_KEYS = new Set([
  'years',
  'quarters',
  'months',
  'weeks',
  'days',
  'hours',
  'minutes',
  'seconds',
  'milliseconds',
  'microseconds',
  'nanoseconds',
]);

/** `duration({years: 1, days: 1.5, …})`. */
export function makeDuration(c: Record<string, unknown>): DurationValue {
  for (const k of Object.keys(c)) {
    if (!DURATION_KEYS.has(k)) throw new CypherArgumentError('InvalidArgumentValue', `duration() has no field '${k}'`);
  }
  const n = (k: string): number => {
    const v = c[k];
    if (v === undefined || v === null) return 0;
    if (typeof v === 'bigint') return Number(v);
    if (typeof v === 'number') return v;
    throw new CypherTypeError('InvalidArgumentType', `${k} must be a number`);
  };
  return approximateDuration(
    n('years') * 12 + n('quarters') * 3 + n('months'),
    n('weeks') * 7 + n('days'),
    n('hours') * 3600 + n('minutes') * 60 + n('seconds'),
    n('milliseconds') * 1e6 + n('microseconds') * 1e3 + n('nanoseconds'),
  );
}

const floorDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? a / b : -((-a + b - 1n) / b));

/** Whole seconds (floored) and the nanoseconds of the second (0 … 999,999,999) of a duration. */
export function secondsAndNanos(d: DurationValue): [bigint, bigint] {
  const s = floorDiv(d.nanos, NANOS_PER_SECOND);
  return [s, d.nanos - s * NANOS_PER_SECOND];
}

const INT64_LIMIT = 2n ** 63n;

/** A duration from exact parts, each (the nanoseconds as whole seconds) within Cypher's 64-bit integers. */
function checkedDuration(months: bigint, days: bigint, nanos: bigint): DurationValue {
  for (const v of [months, days, nanos / NANOS_PER_SECOND]) {
    if (v >= INT64_LIMIT || v < -INT64_LIMIT) {
      throw new CypherArgumentError('InvalidArgumentValue', 'the duration is out of range');
    }
  }
  return new DurationValue(Number(months), Number(days), nanos);
}

export function addDurations(a: DurationValue, b: DurationValue, sign: 1 | -1): DurationValue {
  const s = BigInt(sign);
  return checkedDuration(
    BigInt(a.months) + s * BigInt(b.months),
    BigInt(a.days) + s * BigInt(b.days),
    a.nanos + s * b.nanos,
  );
}

/** `duration * number` (an INTEGER scales each part exactly; a FLOAT approximates) and `duration / number`. */
export function scaleDuration(d: DurationValue, factor: number | bigint, divide: boolean): DurationValue {
  if (typeof factor === 'bigint' && !divide) {
    return checkedDuration(BigInt(d.months) * factor, BigInt(d.days) * factor, d.nanos * factor);
  }
  const f = Number(factor);
  if (divide && f === 0) throw new CypherArgumentError('InvalidArgumentValue', 'a duration cannot be divided by zero');
  const [s, ns] = secondsAndNanos(d);
  const by = (v: number) => (divide ? v / f : v * f);
  return approximateDuration(by(d.months), by(d.days), by(Number(s)), by(Number(ns)));
}

/**
 * `temporal + duration` (sign -1: minus), as java.time and Neo4j add: months (day clamped), then days, then
 * seconds and nanoseconds; a date takes only the whole days of the seconds; a datetime in a named zone adds
 * months and days to its wall clock and the rest to its instant.
 */
export function addDuration(t: TemporalValue, d: DurationValue, sign: 1 | -1): TemporalValue {
  const nanos = BigInt(sign) * d.nanos;
  if (t.kind === 'date') {
    const seconds = floorDiv(d.nanos, NANOS_PER_SECOND);
    const days = sign * Number(seconds / 86_400n);
    return new TemporalValue('date', plusMonths(t.epochDay, sign * d.months) + sign * d.days + days, 0n, 0);
  }
  if (t.kind === 'time' || t.kind === 'localtime') {
    const nano = (((t.nanoOfDay + nanos) % NANOS_PER_DAY) + NANOS_PER_DAY) % NANOS_PER_DAY;
    return new TemporalValue(t.kind, 0, nano, t.offsetSeconds);
  }
  const day = plusMonths(t.epochDay, sign * d.months) + sign * d.days;
  if (t.zoneId !== undefined) {
    const moved = fromLocal('datetime', day, t.nanoOfDay, t.zone, t.offsetSeconds);
    return fromInstant(t.zone, moved.sortKey() + nanos);
  }
  const local = BigInt(day) * NANOS_PER_DAY + t.nanoOfDay + nanos;
  const newDay = floorDiv(local, NANOS_PER_DAY);
  return new TemporalValue(t.kind, Number(newDay), local - newDay * NANOS_PER_DAY, t.offsetSeconds);
}
