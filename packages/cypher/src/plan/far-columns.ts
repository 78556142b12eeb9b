// A far end's column along an adjacency (`MATCH (n:Drug) OPTIONAL MATCH (n)<--(o:Disease) RETURN o.name`): the
// column's value and size at each far end, in the adjacency's own order, so that projecting a far end's property
// is a read next to the adjacency's, not a jump to the far node's row (a cache miss per row at a million claims,
// most of such a query's time even when read in slot order). Kept per adjacency and column once a second query
// asks for the same pair: the first pays no walk of the whole adjacency it may never need again.
import type { Column } from '../columns.js';
import type { Value } from '../values.js';
import { measuredDictionary } from './tuples.js';

export interface AlongAdjacency {
  values: Value[];
  sizes: Int32Array;
  /** Whether a value may need the caller's conversion (not a string, float, boolean or null). */
  converts: boolean;
}

type Kept = { asked: number; along?: AlongAdjacency };
const kept = new WeakMap<Int32Array, Map<Column, Kept>>();

/** Columns kept per adjacency, and the largest adjacency given one (two arrays of its length per column). */
const MAX_COLUMNS = 4;
const MAX_LENGTH = 1 << 23;

/** A dictionary column `c` at each far slot `far[j]`; undefined for other columns, or before its second use. */
export function alongAdjacency(far: Int32Array, c: Column): AlongAdjacency | undefined {
  if (c.kind !== 'dict' || far.length > MAX_LENGTH) return undefined;
  let byColumn = kept.get(far);
  if (!byColumn) {
    byColumn = new Map();
    kept.set(far, byColumn);
  }
  let k = byColumn.get(c);
  if (!k) {
    if (byColumn.size >= MAX_COLUMNS) return undefined;
    k = { asked: 0 };
    byColumn.set(c, k);
  }
  if (++k.asked < 2) return undefined;
  k.along ??= build(far, c);
  return k.along;
}

function build(far: Int32Array, c: Extract<Column, { kind: 'dict' }>): AlongAdjacency {
  const { codes, dict } = c;
  const m = measuredDictionary(dict);
  const values: Value[] = new Array(far.length);
  const sizes = new Int32Array(far.length);
  for (let j = 0; j < far.length; j++) {
    const code = codes[far[j]!]!;
    values[j] = code < 0 ? null : dict[code]!;
    sizes[j] = code < 0 ? 8 : m.sizes[code]!;
  }
  return { values, sizes, converts: m.converts };
}
