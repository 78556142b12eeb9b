// Components of temporal values and durations (`d.year`, `t.timezone`, `dur.minutesOfHour`, …).
import { CypherArgumentError } from '../errors.js';
import { dateFields } from './calendar.js';
import { secondsAndNanos } from './duration.js';
import { DurationValue, hasDate, hasTime, isZoned, NANOS_PER_SECOND, type TemporalValue } from './values.js';
import { formatOffset } from './zone.js';

const noField = (what: string, key: string) =>
  new CypherArgumentError('InvalidArgumentValue', `a ${what} has no component '${key}'`);

export function temporalComponent(t: TemporalValue, key: string): bigint | string {
  if (hasDate(t.kind)) {
    const f = dateFields(t.epochDay);
    const dateKeys: Record<string, number> = {
      year: f.year,
      quarter: f.quarter,
      month: f.month,
      week: f.week,
      weekYear: f.weekYear,
      day: f.day,
      ordinalDay: f.ordinalDay,
      weekDay: f.dayOfWeek,
      dayOfWeek: f.dayOfWeek,
      dayOfQuarter: f.dayOfQuarter,
    };
    if (Object.hasOwn(dateKeys, key)) return BigInt(dateKeys[key]!);
  }
  if (hasTime(t.kind)) {
    const s = t.nanoOfDay / NANOS_PER_SECOND;
    const ns = t.nanoOfDay % NANOS_PER_SECOND;
    switch (key) {
      case 'hour':
        return s / 3600n;
      case 'minute':
        return (s / 60n) % 60n;
      case 'second':
        return s % 60n;
      case 'millisecond':
        return ns / 1_000_000n;
      case 'microsecond':
        return ns / 1000n;
      case 'nanosecond':
        return ns;
    }
  }
  if (isZoned(t.kind)) {
    switch (key) {
      case 'timezone':
        return t.zoneId ?? formatOffset(t.offsetSeconds);
      case 'offset':
        return formatOffset(t.offsetSeconds, false);
      case 'offsetMinutes':
        return BigInt(Math.trunc(t.offsetSeconds / 60));
      case 'offsetSeconds':
        return BigInt(t.offsetSeconds);
    }
  }
  if (t.kind === 'datetime') {
    const instant = t.sortKey();
    const floor = (unit: bigint) => (instant >= 0n ? instant / unit : -((-instant + unit - 1n) / unit));
    if (key === 'epochSeconds') return floor(NANOS_PER_SECOND);
    if (key === 'epochMillis') return floor(1_000_000n);
  }
  throw noField(t.kind, key);
}

export function durationComponent(d: DurationValue, key: string): bigint {
  const months = BigInt(d.months);
  const days = BigInt(d.days);
  const [seconds, nanos] = secondsAndNanos(d);
  switch (key) {
    case 'years':
      return months / 12n;
    case 'quarters':
      return months / 3n;
    case 'months':
      return months;
    case 'weeks':
      return days / 7n;
    case 'days':
      return days;
    case 'hours':
      return seconds / 3600n;
    case 'minutes':
      return seconds / 60n;
    case 'seconds':
      return seconds;
    case 'milliseconds':
      return seconds * 1000n + nanos / 1_000_000n;
    case 'microseconds':
      return seconds * 1_000_000n + nanos / 1000n;
    case 'nanoseconds':
      return seconds * NANOS_PER_SECOND + nanos;
    case 'quartersOfYear':
      return (months / 3n) % 4n;
    case 'monthsOfQuarter':
      return months % 3n;
    case 'monthsOfYear':
      return months % 12n;
    case 'daysOfWeek':
      return days % 7n;
    case 'minutesOfHour':
      return (seconds / 60n) % 60n;
    case 'secondsOfMinute':
      return seconds % 60n;
    case 'millisecondsOfSecond':
      return nanos / 1_000_000n;
    case 'microsecondsOfSecond':
      return nanos / 1000n;
    case 'nanosecondsOfSecond':
      return nanos;
    default:
      throw noField('duration', key);
  }
}

export { DurationValue };
