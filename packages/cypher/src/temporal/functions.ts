// The temporal functions, registered by name with the scalar functions: the five constructors (from a map, an
// ISO string, another temporal value, or nothing: now), their `.transaction/.statement/.realtime` clocks and
// `.truncate`, `datetime.fromepoch[millis]`, `duration(…)` and `duration.between/inMonths/inDays/inSeconds`.
import { CypherTypeError } from '../errors.js';
import { isMap, type Value, typeName } from '../values.js';
import { between, type BetweenUnit } from './between.js';
import { convert, fromInstant, fromMap, now } from './construct.js';
import { makeDuration } from './duration.js';
import { parseDuration, parseTemporal } from './parse.js';
import { truncate } from './truncate.js';
import { DurationValue, NANOS_PER_SECOND, type TemporalKind, TemporalValue } from './values.js';
import { parseZone, UTC } from './zone.js';

export interface TemporalFnDef {
  min: number;
  max: number;
  fn: (args: Value[]) => Value;
}

const bad = (fn: string, v: Value): never => {
  throw new CypherTypeError('InvalidArgumentType', `${fn}() cannot take ${typeName(v)}`);
};

const KINDS: TemporalKind[] = ['date', 'localtime', 'time', 'localdatetime', 'datetime'];

// Deliberate likeness: clock (below) is the same kind of definition; what each argument means differs.
function construct(kind: TemporalKind): TemporalFnDef {
  return {
    min: 0,
    max: 1,
    fn: ([v]) => {
      if (v === undefined) return now(kind);
      if (v === null) return null;
      if (typeof v === 'string') return parseTemporal(kind, v);
      if (v instanceof TemporalValue) return convert(kind, v);
      if (isMap(v)) return fromMap(kind, v);
      return bad(kind, v);
    },
  };
}

/** `date.transaction()`, `datetime.realtime('Europe/Stockholm')`, …: the clock, in UTC or the zone given (null: null). */
// Deliberate likeness: construct (above) is the same kind of definition; what each argument means differs.
function clock(kind: TemporalKind): TemporalFnDef {
  return {
    min: 0,
    max: 1,
    fn: ([zone]) => {
      if (zone === undefined) return now(kind);
      if (zone === null) return null;
      return isMap(zone) ? fromMap(kind, zone) : now(kind, parseZone(zone));
    },
  };
}

function truncator(kind: TemporalKind): TemporalFnDef {
  return {
    min: 2,
    max: 3,
    fn: ([unit, v, map]) => {
      if (v === null || unit === null) return null;
      if (!(v instanceof TemporalValue)) return bad(`${kind}.truncate`, v!);
      if (map !== undefined && map !== null && !isMap(map)) return bad(`${kind}.truncate`, map);
      return truncate(kind, unit, v, map ?? {});
    },
  };
}

function betweenFn(name: string, unit: BetweenUnit): TemporalFnDef {
  return {
    min: 2,
    max: 2,
    fn: ([a, b]) => {
      if (a === null || b === null) return null;
      if (!(a instanceof TemporalValue)) return bad(name, a!);
      if (!(b instanceof TemporalValue)) return bad(name, b!);
      return between(a, b, unit);
    },
  };
}

const integer = (fn: string, v: Value): bigint => {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  return bad(fn, v);
};

export const TEMPORAL_FUNCTIONS: Record<string, TemporalFnDef> = {
  duration: {
    min: 1,
    max: 1,
    fn: ([v]) => {
      if (v === null) return null;
      if (typeof v === 'string') return parseDuration(v);
      if (v instanceof DurationValue) return v;
      return isMap(v) ? makeDuration(v) : bad('duration', v!);
    },
  },
  'duration.between': betweenFn('duration.between', 'all'),
  'duration.inmonths': betweenFn('duration.inMonths', 'months'),
  'duration.indays': betweenFn('duration.inDays', 'days'),
  'duration.inseconds': betweenFn('duration.inSeconds', 'seconds'),
  'datetime.fromepoch': {
    min: 2,
    max: 2,
    fn: ([s, n]) =>
      s === null || n === null
        ? null
        : fromInstant(UTC, integer('datetime.fromepoch', s!) * NANOS_PER_SECOND + integer('datetime.fromepoch', n!)),
  },
  'datetime.fromepochmillis': {
    min: 1,
    max: 1,
    fn: ([ms]) => (ms === null ? null : fromInstant(UTC, integer('datetime.fromepochmillis', ms!) * 1_000_000n)),
  },
};

for (const kind of KINDS) {
  TEMPORAL_FUNCTIONS[kind] = construct(kind);
  TEMPORAL_FUNCTIONS[`${kind}.truncate`] = truncator(kind);
  for (const c of ['transaction', 'statement', 'realtime']) TEMPORAL_FUNCTIONS[`${kind}.${c}`] = clock(kind);
}
