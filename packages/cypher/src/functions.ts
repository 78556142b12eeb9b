// Scalar functions: string, math, list, type conversion and graph functions. Names are matched without case.
import { type Budget, remember } from './budget.js';
import { CypherArgumentError, CypherEntityNotFoundError, CypherTypeError } from './errors.js';
import { DurationValue, TEMPORAL_FUNCTIONS } from './temporal.js';
import {
  GraphNode,
  GraphRelationship,
  INT64_MAX,
  INT64_MIN,
  isMap,
  PathValue,
  TemporalValue,
  type Value,
  typeName,
} from './values.js';

/** A function of its evaluated arguments; the budget bounds what it builds (range, split, replace). */
type Fn = (args: Value[], budget: Budget) => Value;
interface FnDef {
  min: number;
  max: number;
  fn: Fn;
}

const bad = (fn: string, v: Value): never => {
  throw new CypherTypeError('InvalidArgumentValue', `${fn}() cannot take ${typeName(v)}`);
};

const num = (fn: string, v: Value): number => {
  if (typeof v === 'bigint' || typeof v === 'number') return Number(v);
  return bad(fn, v);
};
const str = (fn: string, v: Value): string => (typeof v === 'string' ? v : bad(fn, v));
const int = (fn: string, v: Value): bigint => {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  return bad(fn, v);
};

/** Java's Double.toString, which Cypher's toString follows: 1.0, 0.1, 1.0E-4, 1.0E21. */
export function formatFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
  const a = Math.abs(v);
  if (a === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  if (a >= 1e-3 && a < 1e7) {
    const s = String(v);
    return s.includes('.') ? s : `${s}.0`;
  }
  const [m, e] = v.toExponential().split('e') as [string, string];
  return `${m.includes('.') ? m : `${m}.0`}E${e.startsWith('+') ? e.slice(1) : e}`;
}

export function toCypherString(v: Value): string | null {
  if (v === null) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return formatFloat(v);
  if (v instanceof TemporalValue || v instanceof DurationValue) return v.toString();
  return bad('toString', v);
}

function checkedInt(v: bigint): bigint {
  if (v > INT64_MAX || v < INT64_MIN) throw new CypherArgumentError('NumberOutOfRange', 'integer overflow');
  return v;
}

function toInteger(v: Value): Value {
  if (v === null) return null;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? checkedInt(BigInt(Math.trunc(v))) : null;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'string') {
    const s = v.trim();
    if (/^[+-]?\d+$/.test(s)) {
      const b = BigInt(s);
      return b > INT64_MAX || b < INT64_MIN ? null : b;
    }
    const f = Number(s);
    return s !== '' && Number.isFinite(f) && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)
      ? BigInt(Math.trunc(f))
      : null;
  }
  return bad('toInteger', v);
}

function toFloat(v: Value): Value {
  if (v === null) return null;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string') {
    const s = v.trim();
    return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s) ? Number(s) : null;
  }
  return bad('toFloat', v);
}

function toBoolean(v: Value): Value {
  if (v === null) return null;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    return s === 'true' ? true : s === 'false' ? false : null;
  }
  if (typeof v === 'bigint') return v !== 0n;
  return bad('toBoolean', v);
}

const nullIn =
  (f: Fn): Fn =>
  (args, budget) =>
    args[0] === null ? null : f(args, budget);

const math1 = (name: string, f: (x: number) => number): FnDef => ({
  min: 1,
  max: 1,
  fn: nullIn(([x]) => f(num(name, x!))),
});

function live<T extends GraphNode | GraphRelationship>(v: T): T {
  if (v.deleted) throw new CypherEntityNotFoundError('DeletedEntityAccess', 'the entity was deleted');
  return v;
}

/** range()'s first value, step and length, checked: the length is known before anything is built. */
function rangeOf([a, b, s]: Value[]): { start: bigint; step: bigint; n: number } {
  const arg = (v: Value): bigint => {
    if (typeof v === 'bigint') return v;
    throw new CypherArgumentError('InvalidArgumentType', `range() takes INTEGERs, not ${typeName(v)}`);
  };
  const start = arg(a!);
  const end = arg(b!);
  const step = s === undefined ? 1n : arg(s);
  if (step === 0n) throw new CypherArgumentError('NumberOutOfRange', 'range() step cannot be 0');
  const span = step > 0n ? end - start : start - end;
  return { start, step, n: span < 0n ? 0 : Number(span / (step > 0n ? step : -step) + 1n) };
}

function rangeFn(args: Value[], budget: Budget): Value {
  // range(1, 1000000000) as a value is refused before anything is allocated.
  const { start, step, n } = rangeOf(args);
  budget.list(n, 'range()');
  const bytes = 32 + 32 * n;
  budget.value(bytes, 1, 'range()');
  const out: Value[] = new Array(n);
  let v = start;
  for (let i = 0; i < n; i++, v += step) {
    budget.tick();
    out[i] = v;
  }
  return remember(out, bytes, 1);
}

/**
 * range()'s values one by one, never as a list: what UNWIND, list comprehensions and quantifiers iterate
 * over when their list is a range() call, so `UNWIND range(1, 1000000000) AS x` streams (and meets the
 * deadline) instead of building a billion-element list.
 */
export function* rangeValues(args: Value[], budget: Budget): Generator<bigint> {
  const { start, step, n } = rangeOf(args);
  let v = start;
  for (let i = 0; i < n; i++, v += step) {
    budget.tick();
    yield v;
  }
}

/** How often `search` occurs in `s`, without building anything (split and replace are sized first). */
function occurrences(s: string, search: string, budget: Budget): number {
  if (search === '') return s.length;
  let n = 0;
  for (let i = s.indexOf(search); i >= 0; i = s.indexOf(search, i + search.length)) {
    budget.tick();
    n++;
  }
  return n;
}

function splitFn([s, d]: Value[], budget: Budget): Value {
  if (s === null || d === null) return null;
  const text = str('split', s!);
  const sep = str('split', d!);
  const pieces = sep === '' ? text.length : occurrences(text, sep, budget) + 1;
  budget.list(pieces, 'split()');
  return text.split(sep);
}

function replaceFn(a: Value[], budget: Budget): Value {
  if (a.includes(null)) return null;
  const text = str('replace', a[0]!);
  const search = str('replace', a[1]!);
  const by = str('replace', a[2]!);
  // As String.split(search).join(by): an empty search puts `by` between the characters.
  const n = search === '' ? Math.max(0, text.length - 1) : occurrences(text, search, budget);
  const length = text.length + n * (by.length - search.length);
  if (length > text.length) budget.string(length, 'replace()');
  return text.split(search).join(by);
}

function substring([s, a, b]: Value[]): Value {
  if (s === null) return null;
  const text = str('substring', s!);
  const start = Number(int('substring', a!));
  if (start < 0) throw new CypherArgumentError('NumberOutOfRange', 'substring() start cannot be negative');
  if (b === undefined || b === null) return text.slice(start);
  const len = Number(int('substring', b));
  if (len < 0) throw new CypherArgumentError('NumberOutOfRange', 'substring() length cannot be negative');
  return text.slice(start, start + len);
}

function sizeOf(v: Value): Value {
  if (v === null) return null;
  if (typeof v === 'string') return BigInt([...v].length);
  if (Array.isArray(v)) return BigInt(v.length);
  if (isMap(v)) return BigInt(Object.keys(v).length);
  return bad('size', v);
}

const FUNCTIONS: Record<string, FnDef> = {
  // math
  abs: { min: 1, max: 1, fn: nullIn(([x]) => (typeof x === 'bigint' ? (x < 0n ? -x : x) : Math.abs(num('abs', x!)))) },
  ceil: math1('ceil', Math.ceil),
  floor: math1('floor', Math.floor),
  round: math1('round', (x) => (x < 0 && x - Math.trunc(x) === -0.5 ? Math.trunc(x) - 1 : Math.round(x))),
  sign: { min: 1, max: 1, fn: nullIn(([x]) => BigInt(Math.sign(num('sign', x!)))) },
  sqrt: math1('sqrt', Math.sqrt),
  exp: math1('exp', Math.exp),
  log: math1('log', Math.log),
  log10: math1('log10', Math.log10),
  sin: math1('sin', Math.sin),
  cos: math1('cos', Math.cos),
  tan: math1('tan', Math.tan),
  asin: math1('asin', Math.asin),
  acos: math1('acos', Math.acos),
  atan: math1('atan', Math.atan),
  cot: math1('cot', (x) => 1 / Math.tan(x)),
  degrees: math1('degrees', (x) => (x * 180) / Math.PI),
  radians: math1('radians', (x) => (x * Math.PI) / 180),
  haversin: math1('haversin', (x) => (1 - Math.cos(x)) / 2),
  atan2: {
    min: 2,
    max: 2,
    fn: ([a, b]) => (a === null || b === null ? null : Math.atan2(num('atan2', a!), num('atan2', b!))),
  },
  pi: { min: 0, max: 0, fn: () => Math.PI },
  e: { min: 0, max: 0, fn: () => Math.E },
  rand: { min: 0, max: 0, fn: () => Math.random() },
  // strings
  tolower: { min: 1, max: 1, fn: nullIn(([s]) => str('toLower', s!).toLowerCase()) },
  toupper: { min: 1, max: 1, fn: nullIn(([s]) => str('toUpper', s!).toUpperCase()) },
  lower: { min: 1, max: 1, fn: nullIn(([s]) => str('lower', s!).toLowerCase()) },
  upper: { min: 1, max: 1, fn: nullIn(([s]) => str('upper', s!).toUpperCase()) },
  trim: { min: 1, max: 1, fn: nullIn(([s]) => str('trim', s!).trim()) },
  ltrim: { min: 1, max: 1, fn: nullIn(([s]) => str('lTrim', s!).trimStart()) },
  rtrim: { min: 1, max: 1, fn: nullIn(([s]) => str('rTrim', s!).trimEnd()) },
  replace: { min: 3, max: 3, fn: replaceFn },
  substring: { min: 2, max: 3, fn: substring },
  left: {
    min: 2,
    max: 2,
    fn: ([s, n]) => (s === null ? null : str('left', s!).slice(0, Number(int('left', n!)))),
  },
  right: {
    min: 2,
    max: 2,
    fn: ([s, n]) => {
      if (s === null) return null;
      const k = Number(int('right', n!));
      return k === 0 ? '' : str('right', s!).slice(-k);
    },
  },
  split: { min: 2, max: 2, fn: splitFn },
  reverse: {
    min: 1,
    max: 1,
    fn: nullIn(([v]) => (Array.isArray(v) ? [...v].reverse() : [...str('reverse', v!)].reverse().join(''))),
  },
  tostring: { min: 1, max: 1, fn: ([v]) => toCypherString(v!) },
  tostringornull: {
    min: 1,
    max: 1,
    fn: ([v]) => (['bigint', 'number', 'string', 'boolean'].includes(typeof v) ? toCypherString(v!) : null),
  },
  // conversion
  tointeger: { min: 1, max: 1, fn: ([v]) => toInteger(v!) },
  tofloat: { min: 1, max: 1, fn: ([v]) => toFloat(v!) },
  toboolean: { min: 1, max: 1, fn: ([v]) => toBoolean(v!) },
  tointegerornull: { min: 1, max: 1, fn: ([v]) => orNull(toInteger, v!) },
  tofloatornull: { min: 1, max: 1, fn: ([v]) => orNull(toFloat, v!) },
  tobooleanornull: { min: 1, max: 1, fn: ([v]) => orNull(toBoolean, v!) },
  // lists
  size: { min: 1, max: 1, fn: ([v]) => sizeOf(v!) },
  head: { min: 1, max: 1, fn: nullIn(([l]) => (Array.isArray(l) ? (l[0] ?? null) : bad('head', l!))) },
  last: { min: 1, max: 1, fn: nullIn(([l]) => (Array.isArray(l) ? (l[l.length - 1] ?? null) : bad('last', l!))) },
  tail: { min: 1, max: 1, fn: nullIn(([l]) => (Array.isArray(l) ? l.slice(1) : bad('tail', l!))) },
  range: { min: 2, max: 3, fn: rangeFn },
  coalesce: { min: 1, max: Number.POSITIVE_INFINITY, fn: (a) => a.find((v) => v !== null) ?? null },
  isempty: {
    min: 1,
    max: 1,
    fn: nullIn(([v]) => {
      if (typeof v === 'string' || Array.isArray(v)) return v.length === 0;
      if (isMap(v)) return Object.keys(v).length === 0;
      return bad('isEmpty', v!);
    }),
  },
  // graph
  id: {
    min: 1,
    max: 1,
    fn: nullIn(([v]) => (v instanceof GraphNode || v instanceof GraphRelationship ? BigInt(v.id) : bad('id', v!))),
  },
  labels: { min: 1, max: 1, fn: nullIn(([v]) => (v instanceof GraphNode ? [...live(v).labels] : bad('labels', v!))) },
  type: { min: 1, max: 1, fn: nullIn(([v]) => (v instanceof GraphRelationship ? v.type : bad('type', v!))) },
  properties: {
    min: 1,
    max: 1,
    fn: nullIn(([v]) => {
      if (v instanceof GraphNode || v instanceof GraphRelationship) return { ...live(v).properties };
      if (isMap(v)) return v;
      return bad('properties', v!);
    }),
  },
  keys: {
    min: 1,
    max: 1,
    fn: nullIn(([v]) => {
      if (v instanceof GraphNode || v instanceof GraphRelationship) return Object.keys(live(v).properties);
      if (isMap(v)) return Object.keys(v);
      return bad('keys', v!);
    }),
  },
  nodes: { min: 1, max: 1, fn: nullIn(([p]) => (p instanceof PathValue ? [...p.nodes] : bad('nodes', p!))) },
  relationships: {
    min: 1,
    max: 1,
    fn: nullIn(([p]) => (p instanceof PathValue ? [...p.rels] : bad('relationships', p!))),
  },
  length: {
    min: 1,
    max: 1,
    fn: nullIn(([p]) => (p instanceof PathValue ? BigInt(p.rels.length) : bad('length', p!))),
  },
  startnode: {
    min: 1,
    max: 1,
    fn: nullIn(([r]) => (r instanceof GraphRelationship ? r.start : bad('startNode', r!))),
  },
  endnode: { min: 1, max: 1, fn: nullIn(([r]) => (r instanceof GraphRelationship ? r.end : bad('endNode', r!))) },
  timestamp: { min: 0, max: 0, fn: () => BigInt(Date.now()) },
  ...TEMPORAL_FUNCTIONS,
};

function orNull(f: (v: Value) => Value, v: Value): Value {
  try {
    return f(v);
  } catch {
    return null;
  }
}

export const AGGREGATES = new Set([
  'count',
  'sum',
  'avg',
  'min',
  'max',
  'collect',
  'stdev',
  'stdevp',
  'percentilecont',
  'percentiledisc',
]);

export function lookupFunction(name: string): FnDef | undefined {
  const key = name.toLowerCase();
  // Own entries only: `constructor(1)` is an unknown function, not Object.
  return Object.hasOwn(FUNCTIONS, key) ? FUNCTIONS[key] : undefined;
}

export { checkedInt };
