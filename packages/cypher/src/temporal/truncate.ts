// date.truncate(unit, value, map?) and its kin: the value cut to the start of the unit (millennium … microsecond),
// then the map's fields set over it as in a constructor (`{day: 2}`, `{dayOfWeek: 2}`, `{nanosecond: 2}`);
// a `timezone` in the map keeps the wall-clock time and changes the zone.
import { CypherArgumentError, CypherTypeError } from '../errors.js';
import { daysFromCivil, dateFields, quarterStart, weekDate } from './calendar.js';
import { fromLocal, fromMap } from './construct.js';
import { hasDate, hasTime, isZoned, NANOS_PER_SECOND, type TemporalKind, TemporalValue } from './values.js';
import { parseZone, UTC } from './zone.js';

const DATE_UNITS = ['millennium', 'century', 'decade', 'year', 'weekyear', 'quarter', 'month', 'week', 'day'];
const TIME_UNITS: Record<string, bigint> = {
  hour: 3600n * NANOS_PER_SECOND,
  minute: 60n * NANOS_PER_SECOND,
  second: NANOS_PER_SECOND,
  millisecond: 1_000_000n,
  microsecond: 1000n,
};

function truncateDay(unit: string, epochDay: number): number {
  const f = dateFields(epochDay);
  const floorTo = (n: number) => Math.floor(f.year / n) * n;
  switch (unit) {
    case 'millennium':
      return daysFromCivil(floorTo(1000), 1, 1);
    case 'century':
      return daysFromCivil(floorTo(100), 1, 1);
    case 'decade':
      return daysFromCivil(floorTo(10), 1, 1);
    case 'year':
      return daysFromCivil(f.year, 1, 1);
    case 'weekyear':
      return weekDate(f.weekYear, 1, 1);
    case 'quarter':
      return quarterStart(f.year, f.quarter);
    case 'month':
      return daysFromCivil(f.year, f.month, 1);
    case 'week':
      return epochDay - (f.dayOfWeek - 1);
    default:
      return epochDay;
  }
}

export function truncate(
  kind: TemporalKind,
  unitArg: unknown,
  v: TemporalValue,
  map: Record<string, unknown>,
): TemporalValue {
  if (typeof unitArg !== 'string') throw new CypherTypeError('InvalidArgumentType', 'the unit must be a STRING');
  const unit = unitArg.toLowerCase();
  const isDateUnit = DATE_UNITS.includes(unit);
  if (!isDateUnit && TIME_UNITS[unit] === undefined) {
    throw new CypherArgumentError('InvalidArgumentValue', `'${unitArg}' is not a unit to truncate to`);
  }
  if (hasDate(kind) && !hasDate(v.kind)) {
    throw new CypherArgumentError('InvalidArgumentValue', `a ${v.kind} has no date to truncate to a ${kind}`);
  }
  if (!hasTime(kind) && !isDateUnit) {
    throw new CypherArgumentError('InvalidArgumentValue', `a date cannot be truncated to the ${unitArg}`);
  }
  if (!hasDate(kind) && isDateUnit && unit !== 'day') {
    throw new CypherArgumentError('InvalidArgumentValue', `a ${kind} cannot be truncated to the ${unitArg}`);
  }
  const day = hasDate(v.kind) ? (isDateUnit ? truncateDay(unit, v.epochDay) : v.epochDay) : 0;
  const time = !hasTime(v.kind) || isDateUnit ? 0n : v.nanoOfDay - (v.nanoOfDay % TIME_UNITS[unit]!);
  const { timezone, ...fields } = map;
  let zone = isZoned(v.kind) ? v.zone : UTC;
  if (timezone !== undefined && timezone !== null) zone = parseZone(timezone);
  const base = fromLocal(kind, day, time, zone, isZoned(v.kind) ? v.offsetSeconds : undefined);
  if (Object.keys(fields).length === 0) return base;
  // A finer fraction in the map adds to the unit kept: truncate('millisecond', t, {nanosecond: 2}) is .645000002.
  const sub = time % NANOS_PER_SECOND;
  if (
    unit === 'millisecond' &&
    fields.millisecond === undefined &&
    (fields.microsecond !== undefined || fields.nanosecond !== undefined)
  ) {
    fields.millisecond = sub / 1_000_000n;
  }
  if (unit === 'microsecond' && fields.microsecond === undefined && fields.nanosecond !== undefined) {
    fields.microsecond = sub / 1000n;
  }
  const select = hasDate(kind) && hasTime(kind) ? 'datetime' : hasDate(kind) ? 'date' : 'time';
  return fromMap(kind, { ...fields, [select]: base });
}

export { TemporalValue };
