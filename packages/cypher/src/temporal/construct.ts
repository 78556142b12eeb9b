// Building temporal values: from a local day, time and zone; from an instant; and from a map of components,
// which may select the date, time or datetime of other temporal values (`{date: d, hour: 12}`) and override
// their fields. Calendar dates, ISO week dates (`{year, week, dayOfWeek}`, the year then being the week-based
// year), ordinal dates (`{year, ordinalDay}`) and quarter dates (`{year, quarter, dayOfQuarter}`) are accepted.
import { CypherArgumentError, CypherTypeError } from '../errors.js';
import {
  daysFromCivil,
  dateFields,
  monthLength,
  quarterLength,
  quarterStart,
  weekDate,
  weeksInYear,
  yearLength,
} from './calendar.js';
import {
  hasDate,
  hasTime,
  isZoned,
  NANOS_PER_DAY,
  NANOS_PER_SECOND,
  type TemporalKind,
  TemporalValue,
} from './values.js';
import { offsetAt, offsetForLocal, parseZone, UTC, type Zone } from './zone.js';

const floorDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? a / b : -((-a + b - 1n) / b));

/** A datetime at an instant (nanoseconds since the epoch) in a zone. */
export function fromInstant(zone: Zone, instant: bigint): TemporalValue {
  const offset = offsetAt(zone, floorDiv(instant, NANOS_PER_SECOND));
  const local = instant + BigInt(offset) * NANOS_PER_SECOND;
  const day = floorDiv(local, NANOS_PER_DAY);
  return new TemporalValue('datetime', Number(day), local - day * NANOS_PER_DAY, offset, zone.id);
}

/** A value of `kind` from a local day and time; a zoned kind takes `zone` (UTC if none), resolved there. */
export function fromLocal(
  kind: TemporalKind,
  epochDay: number,
  nanoOfDay: bigint,
  zone: Zone = UTC,
  preferredOffset?: number,
): TemporalValue {
  switch (kind) {
    case 'date':
      return new TemporalValue(kind, epochDay, 0n, 0);
    case 'localtime':
      return new TemporalValue(kind, 0, nanoOfDay, 0);
    case 'localdatetime':
      return new TemporalValue(kind, epochDay, nanoOfDay, 0);
    case 'time': {
      // A time has an offset, not a zone: a named zone gives its offset of today.
      const offset = zone.id === undefined ? zone.offsetSeconds : offsetAt(zone, BigInt(Math.floor(Date.now() / 1000)));
      return new TemporalValue(kind, 0, nanoOfDay, offset);
    }
    default: {
      if (zone.id === undefined) return new TemporalValue(kind, epochDay, nanoOfDay, zone.offsetSeconds);
      const local = BigInt(epochDay) * NANOS_PER_DAY + nanoOfDay;
      const offset = offsetForLocal(zone, floorDiv(local, NANOS_PER_SECOND), preferredOffset);
      // In a gap the instant read back in the zone has the later offset and a later wall-clock time.
      return fromInstant(zone, local - BigInt(offset) * NANOS_PER_SECOND);
    }
  }
}

/** Now, in UTC or the given zone. */
export function now(kind: TemporalKind, zone: Zone = UTC): TemporalValue {
  const instant = BigInt(Date.now()) * 1_000_000n;
  const dt = fromInstant(zone, instant);
  return fromLocal(kind, dt.epochDay, dt.nanoOfDay, zone, dt.offsetSeconds);
}

type Components = Record<string, unknown>;

const DATE_KEYS = ['year', 'month', 'day', 'week', 'dayOfWeek', 'ordinalDay', 'quarter', 'dayOfQuarter'];
const TIME_KEYS = ['hour', 'minute', 'second', 'millisecond', 'microsecond', 'nanosecond'];
const KNOWN = new Set([
  ...DATE_KEYS,
  ...TIME_KEYS,
  'timezone',
  'date',
  'time',
  'datetime',
  'epochSeconds',
  'epochMillis',
]);

function intField(c: Components, key: string, min: number, max: number): number | undefined {
  const v = c[key];
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw new CypherTypeError('InvalidArgumentType', `${key} must be an INTEGER`);
  }
  if (n < min || n > max) throw new CypherArgumentError('InvalidArgumentValue', `${key} ${n} is out of range`);
  return n;
}

function temporalField(c: Components, key: string): TemporalValue | undefined {
  const v = c[key];
  if (v === undefined || v === null) return undefined;
  if (!(v instanceof TemporalValue))
    throw new CypherTypeError('InvalidArgumentType', `${key} must be a temporal value`);
  return v;
}

const YEAR_RANGE = 999_999_999;

/** The local day a map names, with `base` (a selected date) filling the fields the map leaves out. */
function dayOf(c: Components, base: number | undefined): number {
  const b = base === undefined ? undefined : dateFields(base);
  const has = (k: string) => c[k] !== undefined && c[k] !== null;
  const year = intField(c, 'year', -YEAR_RANGE, YEAR_RANGE);
  const need = (v: number | undefined, what: string): number => {
    if (v === undefined) throw new CypherArgumentError('InvalidArgumentValue', `${what} is required`);
    return v;
  };
  if (has('week') || has('dayOfWeek')) {
    if (has('month') || has('day') || has('ordinalDay') || has('quarter') || has('dayOfQuarter')) throw mixed();
    const wy = need(year ?? b?.weekYear, 'year');
    const week = intField(c, 'week', 1, 53) ?? b?.week ?? 1;
    const dow = intField(c, 'dayOfWeek', 1, 7) ?? b?.dayOfWeek ?? 1;
    if (week > weeksInYear(wy)) throw new CypherArgumentError('InvalidArgumentValue', `${wy} has no week ${week}`);
    return weekDate(wy, week, dow);
  }
  if (has('ordinalDay')) {
    if (has('month') || has('day') || has('quarter') || has('dayOfQuarter')) throw mixed();
    const y = need(year ?? b?.year, 'year');
    const od = intField(c, 'ordinalDay', 1, 366) as number;
    if (od > yearLength(y)) throw new CypherArgumentError('InvalidArgumentValue', `${y} has no day ${od}`);
    return daysFromCivil(y, 1, 1) + od - 1;
  }
  if (has('quarter') || has('dayOfQuarter')) {
    if (has('month') || has('day')) throw mixed();
    const y = need(year ?? b?.year, 'year');
    const q = intField(c, 'quarter', 1, 4) ?? b?.quarter ?? 1;
    const dq = intField(c, 'dayOfQuarter', 1, 92) ?? b?.dayOfQuarter ?? 1;
    if (dq > quarterLength(y, q))
      throw new CypherArgumentError('InvalidArgumentValue', `quarter ${q} has no day ${dq}`);
    return quarterStart(y, q) + dq - 1;
  }
  const y = need(year ?? b?.year, 'year');
  const m = intField(c, 'month', 1, 12) ?? b?.month ?? 1;
  const d = intField(c, 'day', 1, 31) ?? b?.day ?? 1;
  if (d > monthLength(y, m)) throw new CypherArgumentError('InvalidArgumentValue', `${y}-${m} has no day ${d}`);
  if (!has('month') && has('day') && b === undefined) {
    throw new CypherArgumentError('InvalidArgumentValue', 'day needs month (or a selected date)');
  }
  return daysFromCivil(y, m, d);
}

const mixed = () =>
  new CypherArgumentError('InvalidArgumentValue', 'the date fields mix calendar, week, ordinal and quarter dates');

/** The local time a map names, over `base` (a selected time): fields the map gives replace the base's. */
function timeOf(c: Components, base: bigint, hasBase: boolean): bigint {
  const hour = intField(c, 'hour', 0, 23);
  const minute = intField(c, 'minute', 0, 59);
  const second = intField(c, 'second', 0, 59);
  const ms = intField(c, 'millisecond', 0, 999);
  const us = intField(c, 'microsecond', 0, 999_999);
  const ns = intField(c, 'nanosecond', 0, 999_999_999);
  const baseSeconds = base / NANOS_PER_SECOND;
  const h = hour ?? Number(baseSeconds / 3600n);
  const mi = minute ?? Number((baseSeconds / 60n) % 60n);
  const s = second ?? Number(baseSeconds % 60n);
  if (hour === undefined && (minute !== undefined || second !== undefined) && !hasBase) {
    throw new CypherArgumentError('InvalidArgumentValue', 'hour is required with minute or second');
  }
  const sub =
    ms === undefined && us === undefined && ns === undefined
      ? base % NANOS_PER_SECOND
      : BigInt(ms ?? 0) * 1_000_000n + BigInt(us ?? 0) * 1000n + BigInt(ns ?? 0);
  if (sub >= NANOS_PER_SECOND)
    throw new CypherArgumentError('InvalidArgumentValue', 'the fraction of a second is out of range');
  return (BigInt(h) * 3600n + BigInt(mi) * 60n + BigInt(s)) * NANOS_PER_SECOND + sub;
}

/** `date({…})`, `datetime({date: d, time: t, timezone: 'Europe/Stockholm'})`, …, as Neo4j builds them. */
export function fromMap(kind: TemporalKind, c: Components): TemporalValue {
  for (const k of Object.keys(c)) {
    if (!KNOWN.has(k)) throw new CypherArgumentError('InvalidArgumentValue', `${kind}() has no field '${k}'`);
  }
  if (c.epochSeconds !== undefined || c.epochMillis !== undefined) return fromEpoch(kind, c);
  const dt = temporalField(c, 'datetime');
  const dateSrc = temporalField(c, 'date') ?? dt;
  const timeSrc = temporalField(c, 'time') ?? dt;
  const tz = c.timezone === undefined || c.timezone === null ? undefined : parseZone(c.timezone);
  const hasDateKeys = DATE_KEYS.some((k) => c[k] !== undefined && c[k] !== null);
  const hasTimeKeys = TIME_KEYS.some((k) => c[k] !== undefined && c[k] !== null);
  if (!hasDateKeys && !hasTimeKeys && dateSrc === undefined && timeSrc === undefined) {
    // Only a time zone (or nothing): now, there.
    return now(kind, tz);
  }
  if (dateSrc !== undefined && !hasDate(dateSrc.kind))
    throw new CypherTypeError('InvalidArgumentType', 'date must have a date');
  const day = hasDate(kind) ? dayOf(c, dateSrc?.epochDay) : 0;
  const nano = hasTime(kind)
    ? timeOf(c, timeSrc && hasTime(timeSrc.kind) ? timeSrc.nanoOfDay : 0n, timeSrc !== undefined)
    : 0n;
  if (!isZoned(kind)) return fromLocal(kind, day, nano);
  const srcZoned = timeSrc !== undefined && isZoned(timeSrc.kind);
  if (!srcZoned) return fromLocal(kind, day, nano, tz ?? UTC);
  const srcZone = timeSrc.zone;
  if (kind === 'time') {
    // A time has no date: moving it to another offset shifts the wall clock by the difference.
    const t = new TemporalValue('time', 0, nano, timeSrc.offsetSeconds);
    return tz === undefined ? t : withOffset(t, tz);
  }
  const inSource = fromLocal('datetime', day, nano, srcZone, timeSrc.offsetSeconds);
  return tz === undefined ? inSource : fromInstant(tz, inSource.sortKey());
}

/** A time moved to another zone's offset, the instant kept. */
function withOffset(t: TemporalValue, zone: Zone): TemporalValue {
  const target = zone.id === undefined ? zone.offsetSeconds : offsetAt(zone, BigInt(Math.floor(Date.now() / 1000)));
  let nano = t.nanoOfDay + BigInt(target - t.offsetSeconds) * NANOS_PER_SECOND;
  nano = ((nano % NANOS_PER_DAY) + NANOS_PER_DAY) % NANOS_PER_DAY;
  return new TemporalValue('time', 0, nano, target);
}

/** `date(other)`, `localtime(other)`, …: another temporal value converted to `kind`. */
export function convert(kind: TemporalKind, v: TemporalValue): TemporalValue {
  if (v.kind === kind) return v;
  if (hasDate(kind) && !hasDate(v.kind)) {
    throw new CypherTypeError('InvalidArgumentType', `a ${v.kind} cannot be converted to a ${kind}`);
  }
  if (kind === 'date') return fromLocal('date', v.epochDay, 0n);
  if (!hasTime(v.kind)) return fromLocal(kind, v.epochDay, 0n, UTC);
  if (kind === 'time' && isZoned(v.kind)) return new TemporalValue('time', 0, v.nanoOfDay, v.offsetSeconds);
  return fromLocal(kind, v.epochDay, v.nanoOfDay, isZoned(v.kind) ? v.zone : UTC, v.offsetSeconds);
}

/** `datetime({epochSeconds: s, nanosecond: n, timezone: z})` or `{epochMillis: ms}`: an instant, read in the zone. */
function fromEpoch(kind: TemporalKind, c: Components): TemporalValue {
  if (kind !== 'datetime') throw new CypherArgumentError('InvalidArgumentValue', `${kind}() takes no epoch fields`);
  const int = (k: string): bigint => {
    const v = c[k];
    if (v === undefined || v === null) return 0n;
    if (typeof v === 'bigint') return v;
    throw new CypherTypeError('InvalidArgumentType', `${k} must be an INTEGER`);
  };
  for (const k of Object.keys(c)) {
    if (!['epochSeconds', 'epochMillis', 'millisecond', 'microsecond', 'nanosecond', 'timezone'].includes(k)) {
      throw new CypherArgumentError('InvalidArgumentValue', `an epoch datetime cannot also take '${k}'`);
    }
  }
  const instant =
    int('epochSeconds') * NANOS_PER_SECOND +
    int('epochMillis') * 1_000_000n +
    int('millisecond') * 1_000_000n +
    int('microsecond') * 1000n +
    int('nanosecond');
  return fromInstant(c.timezone === undefined || c.timezone === null ? UTC : parseZone(c.timezone), instant);
}
