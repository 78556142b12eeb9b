// Temporal values (date, localtime, time, localdatetime, datetime), built from maps of components. They compare
// within one kind by their instant (local ones by their wall-clock value) and print as Java's ISO forms, which
// is how Cypher and the TCK show them.
import { CypherArgumentError, CypherTypeError } from './errors.js';

export type TemporalKind = 'date' | 'localtime' | 'time' | 'localdatetime' | 'datetime';

const NANOS_PER_DAY = 86_400_000_000_000n;

export class TemporalValue {
  constructor(
    readonly kind: TemporalKind,
    /** Days since 1970-01-01 (0 for the time kinds). */
    readonly epochDay: number,
    /** Nanoseconds since midnight (0 for date). */
    readonly nanoOfDay: bigint,
    /** Offset from UTC in seconds (0 for the local kinds). */
    readonly offsetSeconds: number,
  ) {}

  /** The value the kind orders by: the instant for zoned kinds, the wall-clock value for local ones. */
  sortKey(): bigint {
    return BigInt(this.epochDay) * NANOS_PER_DAY + this.nanoOfDay - BigInt(this.offsetSeconds) * 1_000_000_000n;
  }

  toString(): string {
    const date = formatDate(this.epochDay);
    const time = formatTime(this.nanoOfDay);
    const offset = formatOffset(this.offsetSeconds);
    switch (this.kind) {
      case 'date':
        return date;
      case 'localtime':
        return time;
      case 'time':
        return time + offset;
      case 'localdatetime':
        return `${date}T${time}`;
      default:
        return `${date}T${time}${offset}`;
    }
  }
}

// Days from civil (Howard Hinnant's algorithm), exact over the proleptic Gregorian calendar.
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(z: number): [number, number, number] {
  const zz = z + 719468;
  const era = Math.floor(zz / 146097);
  const doe = zz - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp + (mp < 10 ? 3 : -9);
  return [era * 400 + yoe + (m <= 2 ? 1 : 0), m, d];
}

const pad = (n: number | bigint, w: number) => String(n).padStart(w, '0');

function formatDate(epochDay: number): string {
  const [y, m, d] = civilFromDays(epochDay);
  const year = y > 9999 ? `+${y}` : y < 0 ? `-${pad(-y, 4)}` : pad(y, 4);
  return `${year}-${pad(m, 2)}-${pad(d, 2)}`;
}

/** Java's LocalTime.toString: HH:mm, then :ss and a fraction of 3, 6 or 9 digits when present. */
function formatTime(nanoOfDay: bigint): string {
  const totalSeconds = nanoOfDay / 1_000_000_000n;
  const nano = Number(nanoOfDay % 1_000_000_000n);
  const h = Number(totalSeconds / 3600n);
  const mi = Number((totalSeconds / 60n) % 60n);
  const s = Number(totalSeconds % 60n);
  let out = `${pad(h, 2)}:${pad(mi, 2)}`;
  if (s === 0 && nano === 0) return out;
  out += `:${pad(s, 2)}`;
  if (nano === 0) return out;
  if (nano % 1_000_000 === 0) return `${out}.${pad(nano / 1_000_000, 3)}`;
  if (nano % 1000 === 0) return `${out}.${pad(nano / 1000, 6)}`;
  return `${out}.${pad(nano, 9)}`;
}

function formatOffset(seconds: number): string {
  if (seconds === 0) return 'Z';
  const sign = seconds < 0 ? '-' : '+';
  const a = Math.abs(seconds);
  const base = `${sign}${pad(Math.floor(a / 3600), 2)}:${pad(Math.floor(a / 60) % 60, 2)}`;
  return a % 60 === 0 ? base : `${base}:${pad(a % 60, 2)}`;
}

function parseOffset(v: unknown): number {
  if (typeof v !== 'string') throw new CypherTypeError('InvalidArgumentType', 'timezone must be a STRING');
  if (v === 'Z' || v === 'UTC') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})(?::?(\d{2}))?$/.exec(v);
  if (!m)
    throw new CypherArgumentError('InvalidArgumentValue', `unsupported timezone '${v}' (use an offset such as +01:00)`);
  const secs = Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0);
  return m[1] === '-' ? -secs : secs;
}

type Components = Record<string, unknown>;

function num(c: Components, key: string, dflt: number, min: number, max: number): number {
  const v = c[key];
  if (v === undefined || v === null) return dflt;
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw new CypherTypeError('InvalidArgumentType', `${key} must be an INTEGER`);
  }
  if (n < min || n > max) throw new CypherArgumentError('InvalidArgumentValue', `${key} ${n} is out of range`);
  return n;
}

function nanoOfDay(c: Components): bigint {
  const h = num(c, 'hour', 0, 0, 23);
  const mi = num(c, 'minute', 0, 0, 59);
  const s = num(c, 'second', 0, 0, 59);
  const ms = num(c, 'millisecond', 0, 0, 999);
  const us = num(c, 'microsecond', 0, 0, 999_999);
  const ns = num(c, 'nanosecond', 0, 0, 999_999_999);
  const frac = BigInt(ms) * 1_000_000n + BigInt(us) * 1000n + BigInt(ns);
  return (BigInt(h) * 3600n + BigInt(mi) * 60n + BigInt(s)) * 1_000_000_000n + frac;
}

function epochDayOf(c: Components): number {
  const y = num(c, 'year', 1970, -999_999_999, 999_999_999);
  const m = num(c, 'month', 1, 1, 12);
  const d = num(c, 'day', 1, 1, 31);
  const day = daysFromCivil(y, m, d);
  if (civilFromDays(day)[2] !== d)
    throw new CypherArgumentError('InvalidArgumentValue', `${y}-${m}-${d} is not a date`);
  return day;
}

/** `date({year, month, day})`, `localtime({hour, …})`, `datetime({…, timezone: '+01:00'})`, … */
export function makeTemporal(kind: TemporalKind, c: Components): TemporalValue {
  const hasDate = kind === 'date' || kind === 'localdatetime' || kind === 'datetime';
  const hasTime = kind !== 'date';
  const zoned = kind === 'time' || kind === 'datetime';
  return new TemporalValue(
    kind,
    hasDate ? epochDayOf(c) : 0,
    hasTime ? nanoOfDay(c) : 0n,
    zoned && c.timezone !== undefined ? parseOffset(c.timezone) : 0,
  );
}

const ISO: Record<TemporalKind, RegExp> = {
  date: /^(?<year>-?\d{4,9})-(?<month>\d{2})-(?<day>\d{2})$/,
  localtime: /^(?<hour>\d{2}):(?<minute>\d{2})(?::(?<second>\d{2})(?:\.(?<frac>\d{1,9}))?)?$/,
  time: /^(?<hour>\d{2}):(?<minute>\d{2})(?::(?<second>\d{2})(?:\.(?<frac>\d{1,9}))?)?(?<tz>Z|[+-]\d{2}:?\d{2})?$/,
  localdatetime:
    /^(?<year>-?\d{4,9})-(?<month>\d{2})-(?<day>\d{2})T(?<hour>\d{2}):(?<minute>\d{2})(?::(?<second>\d{2})(?:\.(?<frac>\d{1,9}))?)?$/,
  datetime:
    /^(?<year>-?\d{4,9})-(?<month>\d{2})-(?<day>\d{2})T(?<hour>\d{2}):(?<minute>\d{2})(?::(?<second>\d{2})(?:\.(?<frac>\d{1,9}))?)?(?<tz>Z|[+-]\d{2}:?\d{2})?$/,
};

/** The ISO 8601 forms Cypher prints (`2015-07-21`, `12:31:14.5+01:00`, …). */
export function parseTemporal(kind: TemporalKind, text: string): TemporalValue {
  const m = ISO[kind].exec(text.trim());
  if (!m?.groups) throw new CypherArgumentError('InvalidArgumentValue', `'${text}' is not a ${kind}`);
  const g = m.groups;
  const c: Components = {};
  for (const k of ['year', 'month', 'day', 'hour', 'minute', 'second']) if (g[k] !== undefined) c[k] = Number(g[k]);
  if (g.frac !== undefined) c.nanosecond = Number(g.frac.padEnd(9, '0'));
  if (g.tz !== undefined) c.timezone = g.tz;
  return makeTemporal(kind, c);
}

/** A duration: months, days and nanoseconds kept apart, as Cypher does (a month has no fixed length). */
export class DurationValue {
  constructor(
    readonly months: number,
    readonly days: number,
    readonly nanos: bigint,
  ) {}

  toString(): string {
    const y = Math.trunc(this.months / 12);
    const mo = this.months % 12;
    let out = 'P';
    if (y) out += `${y}Y`;
    if (mo) out += `${mo}M`;
    if (this.days) out += `${this.days}D`;
    if (this.nanos !== 0n) {
      const neg = this.nanos < 0n;
      const a = neg ? -this.nanos : this.nanos;
      const h = a / 3_600_000_000_000n;
      const mi = (a / 60_000_000_000n) % 60n;
      const s = (a / 1_000_000_000n) % 60n;
      const frac = a % 1_000_000_000n;
      const sign = neg ? '-' : '';
      out += 'T';
      if (h) out += `${sign}${h}H`;
      if (mi) out += `${sign}${mi}M`;
      if (s || frac) out += `${sign}${s}${frac ? `.${pad(frac, 9).replace(/0+$/, '')}` : ''}S`;
    }
    return out === 'P' ? 'PT0S' : out;
  }
}

export function makeDuration(c: Components): DurationValue {
  const n = (k: string) => {
    const v = c[k];
    if (v === undefined || v === null) return 0;
    if (typeof v === 'bigint') return Number(v);
    if (typeof v === 'number') return v;
    throw new CypherTypeError('InvalidArgumentType', `${k} must be a number`);
  };
  const months = n('years') * 12 + n('months');
  const days = n('weeks') * 7 + n('days');
  const seconds = n('hours') * 3600 + n('minutes') * 60 + n('seconds');
  const nanos =
    BigInt(Math.round(seconds * 1e9)) +
    BigInt(Math.round(n('milliseconds') * 1e6)) +
    BigInt(Math.round(n('microseconds') * 1e3)) +
    BigInt(Math.round(n('nanoseconds')));
  return new DurationValue(Math.trunc(months), Math.trunc(days), nanos);
}

/** `temporal + duration` (sign -1: minus), as Java's plus: months first (day clamped), then days, then time. */
export function addDuration(t: TemporalValue, d: DurationValue, sign: 1 | -1): TemporalValue {
  let epochDay = t.epochDay;
  let nano = t.nanoOfDay;
  const hasDate = t.kind === 'date' || t.kind === 'localdatetime' || t.kind === 'datetime';
  if (hasDate) {
    if (d.months !== 0) {
      const [y, m, day] = civilFromDays(epochDay);
      const total = y * 12 + (m - 1) + sign * d.months;
      const ny = Math.floor(total / 12);
      const nm = total - ny * 12 + 1;
      const first = daysFromCivil(ny, nm, 1);
      const monthLength = (nm === 12 ? daysFromCivil(ny + 1, 1, 1) : daysFromCivil(ny, nm + 1, 1)) - first;
      epochDay = first + Math.min(day, monthLength) - 1;
    }
    epochDay += sign * d.days;
  }
  if (t.kind !== 'date') {
    const total = nano + BigInt(sign) * d.nanos;
    const dayShift = total >= 0n ? total / NANOS_PER_DAY : (total - NANOS_PER_DAY + 1n) / NANOS_PER_DAY;
    nano = total - dayShift * NANOS_PER_DAY;
    if (hasDate) epochDay += Number(dayShift);
  }
  return new TemporalValue(t.kind, epochDay, nano, t.offsetSeconds);
}
