// duration.between(a, b) and its inMonths / inDays / inSeconds forms. Months and days are counted on the wall
// clock (as java.time's until: a month or day is whole only once the time of day is reached), the rest is
// elapsed time. A value without a zone is read in the other value's zone; a value without a date is read on
// the other's date (and then only the time between counts); a date is its midnight.
import { monthsUntil, plusMonths } from './calendar.js';
import { fromInstant, fromLocal } from './construct.js';
import { DurationValue, hasDate, isZoned, NANOS_PER_DAY, type TemporalValue } from './values.js';
import { UTC, type Zone } from './zone.js';

export type BetweenUnit = 'all' | 'months' | 'days' | 'seconds';

/** `v` as a datetime on its own date (or `day`), in its own zone or else `zone` (local values: UTC). */
function asDateTime(v: TemporalValue, day: number, zone: Zone | undefined): TemporalValue {
  const d = hasDate(v.kind) ? v.epochDay : day;
  if (v.kind === 'datetime') return v;
  if (v.kind === 'time') {
    return fromInstant(v.zone, BigInt(d) * NANOS_PER_DAY + v.nanoOfDay - BigInt(v.offsetSeconds) * 1_000_000_000n);
  }
  return fromLocal('datetime', d, v.nanoOfDay, zone ?? UTC);
}

export function between(a: TemporalValue, b: TemporalValue, unit: BetweenUnit): DurationValue {
  const zone = isZoned(a.kind) ? a.zone : isZoned(b.kind) ? b.zone : undefined;
  const day = hasDate(a.kind) ? a.epochDay : hasDate(b.kind) ? b.epochDay : 0;
  const from = asDateTime(a, day, zone);
  let to = asDateTime(b, day, zone);
  const elapsed = to.sortKey() - from.sortKey();
  if (!hasDate(a.kind) || !hasDate(b.kind))
    return new DurationValue(0, 0, unit === 'all' || unit === 'seconds' ? elapsed : 0n);
  if (unit === 'seconds') return new DurationValue(0, 0, elapsed);
  // Wall-clock units are counted in the first value's zone.
  to = fromInstant(from.zone, to.sortKey());
  const months = wallUntil(from, to, 'months');
  if (unit === 'months') return new DurationValue(months, 0, 0n);
  if (unit === 'days') return new DurationValue(0, wallUntil(from, to, 'days'), 0n);
  const afterMonths = fromLocal(
    'datetime',
    plusMonths(from.epochDay, months),
    from.nanoOfDay,
    from.zone,
    from.offsetSeconds,
  );
  const days = wallUntil(afterMonths, to, 'days');
  const afterDays = fromLocal(
    'datetime',
    afterMonths.epochDay + days,
    from.nanoOfDay,
    from.zone,
    afterMonths.offsetSeconds,
  );
  return new DurationValue(months, days, to.sortKey() - afterDays.sortKey());
}

/** Whole months or days from one wall-clock date-time to another (LocalDateTime.until). */
function wallUntil(from: TemporalValue, to: TemporalValue, unit: 'months' | 'days'): number {
  let end = to.epochDay;
  if (end > from.epochDay && to.nanoOfDay < from.nanoOfDay) end--;
  else if (end < from.epochDay && to.nanoOfDay > from.nanoOfDay) end++;
  return unit === 'months' ? monthsUntil(from.epochDay, end) : end - from.epochDay;
}
