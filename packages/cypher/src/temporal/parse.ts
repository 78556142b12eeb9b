// The ISO 8601 forms the temporal constructors read: calendar (`2015-07-21`, `20150721`, `2015-07`), week
// (`2015-W30-2`, `2015W302`, `2015-W30`), ordinal (`2015-202`) and year (`2015`) dates; times with or without
// colons and a fraction (`21:40:32.142`, `214032`, `21`); offsets (`Z`, `+01`, `+0100`, `+01:00`) and zone ids
// in brackets (`…+02:00[Europe/Stockholm]`); durations (`P14DT16H12M`, `P0.75M`, `PT-1.5S`, `P2012-02-02T14:37:21.545`).
import { CypherArgumentError } from '../errors.js';
import { daysFromCivil, monthLength, weekDate, weeksInYear, yearLength } from './calendar.js';
import { fromLocal } from './construct.js';
import { approximateDuration } from './duration.js';
import {
  type DurationValue,
  hasDate,
  hasTime,
  NANOS_PER_SECOND,
  type TemporalKind,
  type TemporalValue,
} from './values.js';
import { parseOffset, parseZone, UTC, type Zone } from './zone.js';

const bad = (text: string, what: string) =>
  new CypherArgumentError('InvalidArgumentValue', `'${text}' is not a ${what}`);

const DASHED_DATE =
  /^(?<year>[+-]\d{4,9}|\d{4})(?:-(?:W(?<week>\d{2})(?:-(?<dow>\d))?|(?<ordinal>\d{3})|(?<month>\d{2})(?:-(?<day>\d{2}))?))?$/;
const COMPACT_DATE = /^(?<year>\d{4})(?:W(?<week>\d{2})(?<dow>\d)?|(?<ordinal>\d{3})|(?<month>\d{2})(?<day>\d{2})?)?$/;
const TIME =
  /^(?<hour>\d{2})(?::?(?<minute>\d{2})(?::?(?<second>\d{2})(?:[.,](?<frac>\d{1,9}))?)?)?(?<offset>Z|[+-]\d{2}(?::?\d{2}(?::?\d{2})?)?)?(?:\[(?<zone>[^\]]+)\])?$/;

function parseDate(text: string, whole: string): number {
  const g = (DASHED_DATE.exec(text) ?? COMPACT_DATE.exec(text))?.groups;
  if (!g) throw bad(whole, 'date');
  const y = Number(g.year);
  const range = (v: number, lo: number, hi: number) => {
    if (v < lo || v > hi) throw bad(whole, 'date');
    return v;
  };
  if (g.week !== undefined) {
    const w = range(Number(g.week), 1, weeksInYear(y));
    return weekDate(y, w, range(Number(g.dow ?? 1), 1, 7));
  }
  if (g.ordinal !== undefined) return daysFromCivil(y, 1, 1) + range(Number(g.ordinal), 1, yearLength(y)) - 1;
  const m = range(Number(g.month ?? 1), 1, 12);
  return daysFromCivil(y, m, range(Number(g.day ?? 1), 1, monthLength(y, m)));
}

interface ParsedTime {
  nano: bigint;
  offset?: number;
  zone?: string;
}

function parseTime(text: string, whole: string): ParsedTime {
  const g = TIME.exec(text)?.groups;
  if (!g) throw bad(whole, 'time');
  const h = Number(g.hour);
  const mi = Number(g.minute ?? 0);
  const s = Number(g.second ?? 0);
  if (h > 23 || mi > 59 || s > 59) throw bad(whole, 'time');
  const frac = g.frac === undefined ? 0n : BigInt(g.frac.padEnd(9, '0'));
  return {
    nano: (BigInt(h) * 3600n + BigInt(mi) * 60n + BigInt(s)) * NANOS_PER_SECOND + frac,
    offset: g.offset === undefined ? undefined : parseOffset(g.offset),
    zone: g.zone,
  };
}

/** A temporal value of `kind` from its ISO text. */
export function parseTemporal(kind: TemporalKind, raw: string): TemporalValue {
  const text = raw.trim();
  let datePart = text;
  let timePart: string | undefined;
  if (hasDate(kind)) {
    const t = text.indexOf('T');
    if (t >= 0) {
      datePart = text.slice(0, t);
      timePart = text.slice(t + 1);
    }
    if (kind === 'date' && timePart !== undefined) throw bad(raw, kind);
  } else {
    timePart = text;
  }
  const day = hasDate(kind) ? parseDate(datePart, raw) : 0;
  const time = timePart === undefined ? { nano: 0n } : parseTime(timePart, raw);
  if (!hasTime(kind)) return fromLocal(kind, day, 0n);
  let zone: Zone = UTC;
  // A time keeps the offset it is written with; a datetime takes the zone id and resolves its offset there.
  if (time.zone !== undefined && (kind === 'datetime' || time.offset === undefined)) zone = parseZone(time.zone);
  else if (time.offset !== undefined) zone = { offsetSeconds: time.offset };
  return fromLocal(kind, day, time.nano, zone, time.offset);
}

const NUMBER = '([+-]?\\d+(?:[.,]\\d+)?)';
const DURATION = new RegExp(
  `^([+-])?P(?:${NUMBER}Y)?(?:${NUMBER}M)?(?:${NUMBER}W)?(?:${NUMBER}D)?(?:T(?:${NUMBER}H)?(?:${NUMBER}M)?(?:${NUMBER}S)?)?$`,
  'i',
);
const DURATION_AS_DATE = /^([+-])?P(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2}(?:[.,]\d{1,9})?)$/;

/** Seconds written with up to nine decimals, as exact nanoseconds. */
function secondsToNanos(text: string): bigint {
  const t = text.replace(',', '.');
  const neg = t.startsWith('-');
  const [int, frac = ''] = t.replace(/^[+-]/, '').split('.');
  const n = BigInt(int!) * NANOS_PER_SECOND + BigInt(frac.slice(0, 9).padEnd(9, '0'));
  return neg ? -n : n;
}

export function parseDuration(raw: string): DurationValue {
  const text = raw.trim();
  const num = (v: string | undefined) => (v === undefined ? 0 : Number(v.replace(',', '.')));
  let m = DURATION.exec(text);
  if (m && text !== 'P' && !/T$/i.test(text)) {
    const sign = m[1] === '-' ? -1 : 1;
    const seconds = m[8] === undefined ? 0n : secondsToNanos(m[8]);
    return approximateDuration(
      sign * (num(m[2]) * 12 + num(m[3])),
      sign * (num(m[4]) * 7 + num(m[5])),
      sign * (num(m[6]) * 3600 + num(m[7]) * 60),
      0,
      BigInt(sign) * seconds,
    );
  }
  m = DURATION_AS_DATE.exec(text);
  if (m) {
    const sign = m[1] === '-' ? -1 : 1;
    return approximateDuration(
      sign * (num(m[2]) * 12 + num(m[3])),
      sign * num(m[4]),
      sign * (num(m[5]) * 3600 + num(m[6]) * 60),
      0,
      BigInt(sign) * secondsToNanos(m[7]!),
    );
  }
  throw bad(raw, 'duration');
}
