// Components of temporal values and durations (`d.year`, `t.timezone`, `dur.minutesOfHour`, …).
import { CypherArgumentError } from '../errors.js';
import { dateFields } from './calendar.js';
import { secondsAndNanos } from './duration.js';
import { DurationValue, hasDate, hasTime, isZoned, NANOS_PER_SECOND, type TemporalValue } from './values.js';
import { formatOffset } from './zone.js';

const noField = (what: string, key: string) =>
  new CypherArgumentError('InvalidArgumentValue', `a ${what} has no component '${key}'`);

// A time's components from its nanosecond of the day: [unit, modulo (the unit above)].
const TIME_PARTS: Record<string, [bigint, bigint?]> = {
  hour: [3600n * NANOS_PER_SECOND],
  minute: [60n * NANOS_PER_SECOND, 60n],
  second: [NANOS_PER_SECOND, 60n],
  millisecond: [1_000_000n, 1000n],
  microsecond: [1000n, 1_000_000n],
  nanosecond: [1n, NANOS_PER_SECOND],
};

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
  if (hasTime(t.kind) && Object.hasOwn(TIME_PARTS, key)) {
    const [unit, modulo] = TIME_PARTS[key]!;
    return modulo ? (t.nanoOfDay / unit) % modulo : t.nanoOfDay / unit;
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

// A duration's components: [the part it is read from, the unit it is counted in, the modulo (the unit above)].
// `seconds+` counts the whole duration's seconds and nanoseconds in a sub-second unit: seconds * (1e9 / unit)
// + nanoseconds / unit (the nanoseconds part is never negative, so this is not one division of a total).
type DurationPart = 'months' | 'days' | 'seconds' | 'nanos' | 'seconds+';
const DURATION_PARTS: Record<string, [DurationPart, bigint, bigint?]> = {
  years: ['months', 12n],
  quarters: ['months', 3n],
  months: ['months', 1n],
  weeks: ['days', 7n],
  days: ['days', 1n],
  hours: ['seconds', 3600n],
  minutes: ['seconds', 60n],
  seconds: ['seconds', 1n],
  milliseconds: ['seconds+', 1_000_000n],
  microseconds: ['seconds+', 1000n],
  nanoseconds: ['seconds+', 1n],
  quartersOfYear: ['months', 3n, 4n],
  monthsOfQuarter: ['months', 1n, 3n],
  monthsOfYear: ['months', 1n, 12n],
  daysOfWeek: ['days', 1n, 7n],
  minutesOfHour: ['seconds', 60n, 60n],
  secondsOfMinute: ['seconds', 1n, 60n],
  millisecondsOfSecond: ['nanos', 1_000_000n],
  microsecondsOfSecond: ['nanos', 1000n],
  nanosecondsOfSecond: ['nanos', 1n],
};

export function durationComponent(d: DurationValue, key: string): bigint {
  if (!Object.hasOwn(DURATION_PARTS, key)) throw noField('duration', key);
  const [part, unit, modulo] = DURATION_PARTS[key]!;
  const [seconds, nanos] = secondsAndNanos(d);
  const v =
    part === 'seconds+'
      ? seconds * (NANOS_PER_SECOND / unit) + nanos / unit
      : { months: BigInt(d.months), days: BigInt(d.days), seconds, nanos }[part] / unit;
  return modulo ? v % modulo : v;
}

export { DurationValue };
