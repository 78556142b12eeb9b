// Equality, comparison and ordering as openCypher defines them: `=` and `<` are ternary (null when a side
// is null or the types do not compare), ORDER BY uses a total order across types, DISTINCT and grouping use
// equivalence (null is equivalent to null, NaN to NaN).
import { DurationValue, GraphNode, GraphRelationship, isMap, PathValue, TemporalValue, type Value } from './values.js';

/** Ternary `a = b`: true, false, or null when the answer is unknown. */
export function equals(a: Value, b: Value): boolean | null {
  if (a === null || b === null) return null;
  if (typeof a === 'bigint' || typeof a === 'number') {
    if (typeof b !== 'bigint' && typeof b !== 'number') return false;
    return numEq(a, b);
  }
  if (typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return false;
    if (a.length !== b.length) return false;
    let unknown = false;
    for (let i = 0; i < a.length; i++) {
      const e = equals(a[i]!, b[i]!);
      if (e === false) return false;
      if (e === null) unknown = true;
    }
    return unknown ? null : true;
  }
  if (a instanceof GraphNode || a instanceof GraphRelationship) return a === b;
  if (a instanceof TemporalValue) return b instanceof TemporalValue && a.kind === b.kind && a.sortKey() === b.sortKey();
  if (a instanceof DurationValue) {
    return b instanceof DurationValue && a.months === b.months && a.days === b.days && a.nanos === b.nanos;
  }
  if (a instanceof PathValue) {
    if (!(b instanceof PathValue) || a.nodes.length !== b.nodes.length) return false;
    return a.nodes.every((n, i) => n === b.nodes[i]) && a.rels.every((r, i) => r === b.rels[i]);
  }
  if (!isMap(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  let unknown = false;
  for (const k of ka) {
    if (!Object.hasOwn(b, k)) return false;
    const e = equals(a[k]!, b[k]!);
    if (e === false) return false;
    if (e === null) unknown = true;
  }
  return unknown ? null : true;
}

function numEq(a: bigint | number, b: bigint | number): boolean {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a === b;
  return Number(a) === Number(b);
}

function numCmp(a: bigint | number, b: bigint | number): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  const x = Number(a);
  const y = Number(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Ternary comparison for `<`, `<=`, `>`, `>=`: a sign, or null when the values do not compare. */
export function compare(a: Value, b: Value): number | null {
  if (a === null || b === null) return null;
  if (typeof a === 'bigint' || typeof a === 'number') {
    if (typeof b !== 'bigint' && typeof b !== 'number') return null;
    if (Number.isNaN(a) || Number.isNaN(b)) return null;
    return numCmp(a, b);
  }
  if (typeof a === 'string') return typeof b === 'string' ? (a < b ? -1 : a > b ? 1 : 0) : null;
  if (typeof a === 'boolean') return typeof b === 'boolean' ? Number(a) - Number(b) : null;
  if (a instanceof TemporalValue) {
    if (!(b instanceof TemporalValue) || a.kind !== b.kind) return null;
    const x = a.sortKey();
    const y = b.sortKey();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return null;
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const c = compare(a[i]!, b[i]!);
      if (c === null) return null;
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  return null;
}

// Ascending order across types: map, node, relationship, list, path, temporal, string, boolean, number, null.
const TEMPORAL_ORDER = ['datetime', 'localdatetime', 'date', 'time', 'localtime'];
function rank(v: Value): number {
  if (v === null) return 9;
  if (typeof v === 'bigint' || typeof v === 'number') return Number.isNaN(v) ? 8 : 7;
  if (typeof v === 'boolean') return 6;
  if (typeof v === 'string') return 5;
  if (v instanceof TemporalValue) return 4.5;
  if (v instanceof DurationValue) return 4.75;
  if (v instanceof PathValue) return 4;
  if (Array.isArray(v)) return 3;
  if (v instanceof GraphRelationship) return 2;
  if (v instanceof GraphNode) return 1;
  return 0;
}

/** The total order ORDER BY, min and max use. */
export function orderCompare(a: Value, b: Value): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case 9:
    case 8:
      return 0;
    case 7:
      return numCmp(a as number, b as number);
    case 6:
      return Number(a) - Number(b);
    case 5:
      return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
    case 3: {
      const x = a as Value[];
      const y = b as Value[];
      const n = Math.min(x.length, y.length);
      for (let i = 0; i < n; i++) {
        const c = orderCompare(x[i]!, y[i]!);
        if (c !== 0) return c;
      }
      return x.length - y.length;
    }
    case 4.5: {
      const x = a as TemporalValue;
      const y = b as TemporalValue;
      if (x.kind !== y.kind) return TEMPORAL_ORDER.indexOf(x.kind) - TEMPORAL_ORDER.indexOf(y.kind);
      const kx = x.sortKey();
      const ky = y.sortKey();
      return kx < ky ? -1 : kx > ky ? 1 : 0;
    }
    case 4.75: {
      const x = a as DurationValue;
      const y = b as DurationValue;
      return x.months - y.months || x.days - y.days || (x.nanos < y.nanos ? -1 : x.nanos > y.nanos ? 1 : 0);
    }
    case 4: {
      const x = a as PathValue;
      const y = b as PathValue;
      return orderCompare([...x.nodes, ...x.rels] as unknown as Value[], [...y.nodes, ...y.rels] as unknown as Value[]);
    }
    case 2:
    case 1:
      return (a as GraphNode).id - (b as GraphNode).id;
    default: {
      const x = a as Record<string, Value>;
      const y = b as Record<string, Value>;
      const kx = Object.keys(x).sort();
      const ky = Object.keys(y).sort();
      const c = orderCompare(kx, ky);
      if (c !== 0) return c;
      for (const k of kx) {
        const d = orderCompare(x[k]!, y[k]!);
        if (d !== 0) return d;
      }
      return 0;
    }
  }
}

/** A string that is equal for equivalent values: the key of DISTINCT, grouping and UNION. */
export function equivalenceKey(v: Value): string {
  if (v === null) return 'n';
  switch (typeof v) {
    case 'boolean':
      return v ? 't' : 'f';
    case 'bigint':
      return `#${v}`;
    case 'number':
      return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? `#${BigInt(v)}` : `#${v}`;
    case 'string':
      return JSON.stringify(v);
  }
  if (Array.isArray(v)) return `[${v.map(equivalenceKey).join(',')}]`;
  if (v instanceof GraphNode) return `N${v.id}`;
  if (v instanceof GraphRelationship) return `R${v.id}`;
  if (v instanceof TemporalValue) return `T${v.kind}${v.sortKey()}`;
  if (v instanceof DurationValue) return `D${v.months},${v.days},${v.nanos}`;
  if (v instanceof PathValue) return `P${v.nodes.map((n) => n.id).join(',')}|${v.rels.map((r) => r.id).join(',')}`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${equivalenceKey(v[k]!)}`).join(',')}}`;
}
