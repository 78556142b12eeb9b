// The temporal value types: five instants or wall-clock values and a duration. They print as Java's ISO forms,
// which is how Cypher and the TCK show them.
import { CypherArgumentError } from '../errors.js';
import { civilFromDays, daysFromCivil } from './calendar.js';
import { formatOffset, type Zone } from './zone.js';

export type TemporalKind = 'date' | 'localtime' | 'time' | 'localdatetime' | 'datetime';

export const NANOS_PER_SECOND = 1_000_000_000n;
export const NANOS_PER_DAY = 86_400_000_000_000n;

export const hasDate = (kind: TemporalKind): boolean =>
  kind === 'date' || kind === 'localdatetime' || kind === 'datetime';
export const hasTime = (kind: TemporalKind): boolean => kind !== 'date';
export const isZoned = (kind: TemporalKind): boolean => kind === 'time' || kind === 'datetime';

// The years java.time (and so Cypher) allows: -999,999,999 to +999,999,999.
const MIN_EPOCH_DAY = daysFromCivil(-999_999_999, 1, 1);
const MAX_EPOCH_DAY = daysFromCivil(999_999_999, 12, 31);

export class TemporalValue {
  constructor(
    readonly kind: TemporalKind,
    /** Days since 1970-01-01 of the local date (0 for the time kinds). */
    readonly epochDay: number,
    /** Nanoseconds since local midnight (0 for date). */
    readonly nanoOfDay: bigint,
    /** Offset from UTC in seconds (0 for the local kinds); for a named zone, its offset at this instant. */
    readonly offsetSeconds: number,
    /** A named zone's id (`Europe/Stockholm`), for datetime only. */
    readonly zoneId?: string,
  ) {
    if (!(epochDay >= MIN_EPOCH_DAY && epochDay <= MAX_EPOCH_DAY)) {
      throw new CypherArgumentError('InvalidArgumentValue', 'the date is outside the years -999999999 to +999999999');
    }
  }

  get zone(): Zone {
    return this.zoneId === undefined ? { offsetSeconds: this.offsetSeconds } : { id: this.zoneId, offsetSeconds: 0 };
  }

  /** Nanoseconds since 1970-01-01T00:00 local time. */
  localNanos(): bigint {
    return BigInt(this.epochDay) * NANOS_PER_DAY + this.nanoOfDay;
  }

  /** The value the kind orders by: the instant for zoned kinds, the wall-clock value for local ones. */
  sortKey(): bigint {
    return this.localNanos() - BigInt(this.offsetSeconds) * NANOS_PER_SECOND;
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
        return `${date}T${time}${offset}${this.zoneId === undefined ? '' : `[${this.zoneId}]`}`;
    }
  }
}

const pad = (n: number | bigint, w: number) => String(n).padStart(w, '0');

/** Java's LocalDate.toString: four-digit years, a sign past 9999 or before 0. */
export function formatDate(epochDay: number): string {
  const [y, m, d] = civilFromDays(epochDay);
  const year = y > 9999 ? `+${y}` : y < 0 ? `-${pad(-y, 4)}` : pad(y, 4);
  return `${year}-${pad(m, 2)}-${pad(d, 2)}`;
}

/** Java's LocalTime.toString: HH:mm, then :ss and a fraction of 3, 6 or 9 digits when present. */
export function formatTime(nanoOfDay: bigint): string {
  const totalSeconds = nanoOfDay / NANOS_PER_SECOND;
  const nano = Number(nanoOfDay % NANOS_PER_SECOND);
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

/**
 * A duration: months, days and nanoseconds kept apart, as Cypher does (a month has no fixed length, nor a day
 * across a daylight-saving change). Its seconds are the nanoseconds floored to whole seconds, so that
 * `nanosecondsOfSecond` is never negative.
 */
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
      const s = (a / NANOS_PER_SECOND) % 60n;
      const frac = a % NANOS_PER_SECOND;
      const sign = neg ? '-' : '';
      out += 'T';
      if (h) out += `${sign}${h}H`;
      if (mi) out += `${sign}${mi}M`;
      if (s || frac) out += `${sign}${s}${frac ? `.${pad(frac, 9).replace(/0+$/, '')}` : ''}S`;
    }
    return out === 'P' ? 'PT0S' : out;
  }
}
