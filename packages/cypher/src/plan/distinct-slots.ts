// DISTINCT over a column scan's columns (column-select.ts refine): the first selected slot of each distinct
// combination of the columns' values, by Cypher's equivalence. Each row's combination is one number (each
// column's value as a small id, times the earlier columns' numbers of ids), marked in a bit table kept between
// queries when the combinations are few enough, else in a Set.
import { Held } from '../budget.js';
import type { Column } from '../columns.js';
import { equivalenceKey } from '../compare.js';
import type { EvalContext } from '../eval.js';
import type { Value } from '../values.js';
import { borrowFloat64, borrowInt32, giveBack } from './lent-arrays.js';

/** Combinations of DISTINCT's column ids up to this many are marked in a bit table. */
const MAX_TABLE = 1 << 24;

/** The first slot of each distinct combination of the columns' values (Cypher's equivalence). */
export function distinctSlots(cols: Column[], sel: ArrayLike<number>, ctx: EvalContext): ArrayLike<number> {
  // The per-row arrays are lent (lent-arrays.ts): fresh ones were about 450 KB of new pages per query at 18,740 rows.
  const lent: (Float64Array | Int32Array)[] = [];
  try {
    return distinctOf(cols, sel, ctx, lent);
  } finally {
    for (const a of lent) giveBack(a);
  }
}

function distinctOf(
  cols: Column[],
  sel: ArrayLike<number>,
  ctx: EvalContext,
  lent: (Float64Array | Int32Array)[],
): ArrayLike<number> {
  // Each column's value at each selected position as a small integer, equal for equivalent values (0: null).
  // strides[j]: the product of the earlier columns' numbers of ids, so that a combination is one number.
  // Every loop over the rows is a function of its own (see the note above columnIds).
  const strides: number[] = [];
  let card = 1;
  const n = sel.length;
  // No column: every row is the same combination, so the first is kept.
  if (cols.length === 0) return pickSlots(sel, Int32Array.of(0), Math.min(1, n));
  const ids = cols.map((c) => {
    strides.push(card);
    // Lent, so stale: every position is written, 0 for null.
    const out = borrowFloat64(n);
    lent.push(out);
    card *= columnIds(c, sel, n, out);
    return out;
  });
  // One number per combination while they fit a double exactly; else the ids as a string.
  const exact = card <= 2 ** 53;
  const key = (i: number): number | string => {
    if (!exact) return ids.map((x) => x[i]).join(',');
    let k = 0;
    for (let j = 0; j < ids.length; j++) k += ids[j]![i]! * strides[j]!;
    return k;
  };
  // Combinations that fit a small table are marked in it (a bit each) instead of a hashed set: a table kept
  // across queries, whose marked bits are cleared after, as a fresh one per query cost more than the marking.
  const table = exact && card <= MAX_TABLE ? scratchBits(card) : undefined;
  const held = new Held(ctx.budget, 'DISTINCT');
  if (table) {
    // The combinations first, a column at a time (tight loops over typed arrays, where a key per row read
    // every column through a closure); each kept row's mark (its word of the table) is cleared after.
    let keys = ids[0]!;
    if (ids.length > 1) {
      keys = borrowFloat64(n);
      lent.push(keys);
      keys.set(ids[0]!.subarray(0, n));
    }
    for (let j = 1; j < ids.length; j++) addScaled(keys, ids[j]!, strides[j]!, n);
    const kept = borrowInt32(n);
    lent.push(kept);
    let m = 0;
    try {
      m = markFirsts(keys, n, table, kept);
      ctx.budget.tick(m);
      held.add(56 * m);
    } finally {
      held.release();
      clearMarks(keys, kept, m, table);
    }
    return pickSlots(sel, kept, m);
  }
  const seen = new Set<number | string>();
  const out: number[] = [];
  try {
    for (let i = 0; i < sel.length; i++) {
      ctx.budget.tick();
      const k = key(i);
      if (seen.has(k)) continue;
      seen.add(k);
      held.add(48 + (typeof k === 'string' ? 2 * k.length : 8));
      out.push(sel[i]!);
    }
  } finally {
    held.release();
  }
  return out;
}

/*
 * The row loops of DISTINCT, each a function of its own. As parts of one long function they ran in code compiled
 * during a loop of the first call (on-stack replacement), which met the code after that loop with no type
 * feedback and fell back to the interpreter on every query (`--trace-deopt`: 24 deoptimisations in 20 calls of
 * a DISTINCT over 18,740 rows); the loops after it then ran interpreted until compiled again.
 */

/** Writes the column's id at each selected slot to `out` (0 for null); returns the number of ids (+1 for null). */
function columnIds(c: Column, sel: ArrayLike<number>, n: number, out: Float64Array): number {
  if (c.kind === 'dict') {
    dictIds(c.codes, classIds(c.dict), sel, n, out);
    return c.dict.length + 1;
  }
  const range = integerSpan(c, sel);
  if (range) {
    // Integers in a small range: a value's place in it is its id (-0 is 0's place, as SameValueZero has it).
    spanIds(c.values, c.nulls, 1 - range.min, sel, n, out);
    return range.span + 2;
  }
  return valueIds(c.values, c.nulls, sel, n, out) + 1;
}

function dictIds(codes: ArrayLike<number>, id: Int32Array, sel: ArrayLike<number>, n: number, out: Float64Array) {
  for (let i = 0; i < n; i++) {
    const code = codes[sel[i]!]!;
    out[i] = code >= 0 ? id[code]! : 0;
  }
}

function spanIds(
  values: ArrayLike<number>,
  nulls: ArrayLike<number> | undefined,
  base: number,
  sel: ArrayLike<number>,
  n: number,
  out: Float64Array,
) {
  if (nulls) for (let i = 0; i < n; i++) out[i] = nulls[sel[i]!] === 0 ? values[sel[i]!]! + base : 0;
  else for (let i = 0; i < n; i++) out[i] = values[sel[i]!]! + base;
}

/** Ids by first appearance; returns how many. A Map's keys are equal as SameValueZero (-0 with 0, NaN with NaN). */
function valueIds(
  values: ArrayLike<number>,
  nulls: ArrayLike<number> | undefined,
  sel: ArrayLike<number>,
  n: number,
  out: Float64Array,
): number {
  const seen = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const slot = sel[i]!;
    out[i] = 0;
    if (nulls && nulls[slot] !== 0) continue;
    const v = values[slot]!;
    let id = seen.get(v);
    if (id === undefined) {
      id = seen.size + 1;
      seen.set(v, id);
    }
    out[i] = id;
  }
  return seen.size;
}

function addScaled(keys: Float64Array, x: Float64Array, stride: number, n: number) {
  for (let i = 0; i < n; i++) keys[i] = keys[i]! + x[i]! * stride;
}

/** Marks each row's key in the table; writes the positions of the rows that marked it first; returns how many. */
function markFirsts(keys: Float64Array, n: number, table: Int32Array, kept: Int32Array): number {
  let m = 0;
  for (let i = 0; i < n; i++) {
    const k = keys[i]!;
    const at = k >>> 5;
    const bit = 1 << (k & 31);
    const word = table[at]!;
    if ((word & bit) !== 0) continue;
    table[at] = word | bit;
    kept[m++] = i;
  }
  return m;
}

function clearMarks(keys: Float64Array, kept: Int32Array, m: number, table: Int32Array) {
  for (let j = 0; j < m; j++) table[keys[kept[j]!]! >>> 5] = 0;
}

function pickSlots(sel: ArrayLike<number>, kept: Int32Array, m: number): Int32Array {
  const out = new Int32Array(m);
  for (let j = 0; j < m; j++) out[j] = sel[kept[j]!]!;
  return out;
}

/** The least value and the span of an integer column's selected values, when they are few enough for a table. */
function integerSpan(c: Extract<Column, { kind: 'int' | 'float' }>, sel: ArrayLike<number>) {
  // The loop apart from the comparisons after it (see the note above columnIds): 20 deoptimisations in one run of
  // the benchmark's shapes when they were one function.
  if (!integerRange(c.values, c.nulls, sel, range)) return undefined;
  const [min, max] = range;
  if (min! > max!) return { min: 0, span: 0 };
  const span = max! - min!;
  return span <= 8 * sel.length + 65536 ? { min: min!, span } : undefined;
}

const range = new Float64Array(2);

/** The least and greatest non-null value at the slots into `out`; false when one is not an integer. */
function integerRange(
  values: ArrayLike<number>,
  nulls: ArrayLike<number> | undefined,
  sel: ArrayLike<number>,
  out: Float64Array,
): boolean {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < sel.length; i++) {
    const slot = sel[i]!;
    if (nulls && nulls[slot] !== 0) continue;
    const v = values[slot]!;
    if (!Number.isInteger(v)) return false;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  out[0] = min;
  out[1] = max;
  return true;
}

let bits = new Int32Array(0);

/** A table of at least `n` bits, all clear (the caller clears what it marks before another query takes it). */
function scratchBits(n: number): Int32Array {
  const words = (n + 31) >>> 5;
  if (bits.length < words) bits = new Int32Array(words);
  return bits;
}

// Per dictionary, each entry's DISTINCT class id, kept (a kept column's dictionary is reused across queries).
const CLASS_IDS = new WeakMap<readonly Value[], Int32Array>();

/**
 * An entry's class id is 1 + the first code of its class: distinct strings or booleans are never equivalent;
 * other values (1 and 1.0, lists, maps) go by equivalenceKey. Made for the whole dictionary at once: reading a
 * string per selected code on every query was a cache miss per row.
 */
function classIds(dict: readonly Value[]): Int32Array {
  let id = CLASS_IDS.get(dict);
  if (id && id.length === dict.length) return id;
  id = new Int32Array(dict.length);
  const classes = new Map<string, number>();
  for (let code = 0; code < dict.length; code++) {
    const v = dict[code]!;
    if (typeof v === 'string' || typeof v === 'boolean') id[code] = code + 1;
    else {
      const k = equivalenceKey(v);
      if (!classes.has(k)) classes.set(k, code + 1);
      id[code] = classes.get(k)!;
    }
  }
  CLASS_IDS.set(dict, id);
  return id;
}
