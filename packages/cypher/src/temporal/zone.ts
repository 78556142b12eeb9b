// Time zones: a fixed offset (`+01:00`, `Z`) or a named IANA zone (`Europe/Stockholm`), whose offset at an
// instant comes from the platform's time-zone data through temporal-polyfill. A local date-time in a named
// zone resolves as Java's ZonedDateTime.ofLocal does (and Temporal's 'compatible' disambiguation): in an
// overlap the earlier offset (or the preferred one when it is valid), in a gap the time shifted forward.
import { Temporal } from 'temporal-polyfill';
import { CypherArgumentError, CypherTypeError } from '../errors.js';

export interface Zone {
  /** A named zone's id; undefined for a fixed offset. */
  id?: string;
  /** The fixed offset in seconds (for a named zone: 0, the offset is looked up per instant). */
  offsetSeconds: number;
}

export const UTC: Zone = { offsetSeconds: 0 };

// Temporal's instants span ±10^8 days around 1970; outside them a named zone keeps its offset at the edge.
const MAX_EPOCH_SECONDS = 8_639_999_000_000n;

/** `Z`, `UTC`, `+01`, `+0100`, `+01:00`, `-02:05:07`, or a zone id such as `Europe/Stockholm`. */
export function parseZone(v: unknown): Zone {
  if (typeof v !== 'string') throw new CypherTypeError('InvalidArgumentType', 'timezone must be a STRING');
  const offset = parseOffset(v);
  if (offset !== undefined) return { offsetSeconds: offset };
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(v)) throw badZone(v);
  try {
    const id = Temporal.Now.zonedDateTimeISO(v).timeZoneId;
    return { id, offsetSeconds: 0 };
  } catch {
    throw badZone(v);
  }
}

const badZone = (v: string) => new CypherArgumentError('InvalidArgumentValue', `'${v}' is not a time zone`);

/** An offset written as ISO 8601 allows, in seconds; undefined when the text is not an offset. */
export function parseOffset(v: string): number | undefined {
  if (v === 'Z' || v === 'z' || v === 'UTC') return 0;
  const m = /^([+-])(\d{2})(?::?(\d{2})(?::?(\d{2}))?)?$/.exec(v);
  if (!m) return undefined;
  const h = Number(m[2]);
  const mi = Number(m[3] ?? 0);
  const s = Number(m[4] ?? 0);
  if (h > 18 || mi > 59 || s > 59 || h * 3600 + mi * 60 + s > 18 * 3600) {
    throw new CypherArgumentError('InvalidArgumentValue', `offset '${v}' is out of range (±18:00)`);
  }
  const secs = h * 3600 + mi * 60 + s;
  return m[1] === '-' ? -secs : secs;
}

/** The zone's offset from UTC at an instant (epoch seconds). */
export function offsetAt(zone: Zone, epochSeconds: bigint): number {
  if (zone.id === undefined) return zone.offsetSeconds;
  const s =
    epochSeconds > MAX_EPOCH_SECONDS
      ? MAX_EPOCH_SECONDS
      : epochSeconds < -MAX_EPOCH_SECONDS
        ? -MAX_EPOCH_SECONDS
        : epochSeconds;
  const zdt = Temporal.Instant.fromEpochMilliseconds(Number(s) * 1000).toZonedDateTimeISO(zone.id);
  return zdt.offsetNanoseconds / 1e9;
}

/**
 * The offset a local date-time (seconds since 1970-01-01T00:00 local) takes in the zone: `preferred` when it is
 * one of the valid offsets, else the earlier of an overlap; in a gap the offset before it, which shifts the time
 * forward by the gap once the instant is read back in the zone.
 */
export function offsetForLocal(zone: Zone, localSeconds: bigint, preferred?: number): number {
  if (zone.id === undefined) return zone.offsetSeconds;
  const before = offsetAt(zone, localSeconds - 86_400n);
  const after = offsetAt(zone, localSeconds + 86_400n);
  const valid = [before, after].filter(
    (o, i, all) => all.indexOf(o) === i && offsetAt(zone, localSeconds - BigInt(o)) === o,
  );
  if (valid.length === 0) {
    // Neither neighbour's offset holds: the transition is within a day; try the offset at the local time read as UTC.
    const guess = offsetAt(zone, localSeconds);
    if (offsetAt(zone, localSeconds - BigInt(guess)) === guess) return guess;
    return before;
  }
  if (preferred !== undefined && valid.includes(preferred)) return preferred;
  return Math.max(...valid);
}

export function formatOffset(seconds: number, zeroAsZ = true): string {
  if (seconds === 0 && zeroAsZ) return 'Z';
  const sign = seconds < 0 ? '-' : '+';
  const a = Math.abs(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  const base = `${sign}${pad(Math.floor(a / 3600))}:${pad(Math.floor(a / 60) % 60)}`;
  return a % 60 === 0 ? base : `${base}:${pad(a % 60)}`;
}
