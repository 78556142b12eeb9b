// DISTINCT, ORDER BY, SKIP and LIMIT over a NodeColumnScan's columns: the selected slots are de-duplicated,
// sorted (a bounded heap for ORDER BY … LIMIT k) and cut as integers over the column values, and rows are built
// only for the slots kept. The order is ORDER BY's (`orderCompare`: a dictionary's entries ranked once with it,
// numbers compared as numbers, NaN after them and null last), ties in scan order as in a stable sort; DISTINCT
// keeps the first slot of each `equivalenceKey` class, as the row-by-row Distinct does.
import type { SortItem } from '../ast.js';
import { Held } from '../budget.js';
import type { Column, NodeColumns } from '../columns.js';
import { equivalenceKey, orderCompare } from '../compare.js';
import type { EvalContext } from '../eval.js';
import { count } from '../interpret/project.js';
import { ownValue, type Value } from '../values.js';
import { borrowFloat64, borrowInt32, giveBack } from './lent-arrays.js';
import type { Op } from './operators.js';

type ColumnScan = Extract<Op, { op: 'NodeColumnScan' }>;

/** Distinct, Sort, Top, Skip or Limit right over a column scan that reads columns → folded into the scan. */
export function foldIntoColumnScan(op: Op): Op | undefined {
  if (!('input' in op) || op.input.op !== 'NodeColumnScan' || !op.input.columns) return undefined;
  const scan = op.input;
  const names = scan.columns!.map((c) => c.name);
  const ordered = scan.order !== undefined;
  const cut = scan.skip != null || scan.limit !== undefined;
  const fold = (extra: Partial<ColumnScan>): Op => ({
    ...scan,
    ...extra,
    fallback: { ...op, input: scan.fallback } as Op,
    est: op.est,
  });
  const byName = (o: SortItem) =>
    o.expr.kind === 'var' && names.includes(o.expr.name) ? { name: o.expr.name, descending: o.descending } : undefined;
  switch (op.op) {
    case 'Distinct':
      if (ordered || cut || scan.distinct || !op.columns.every((c) => names.includes(c))) return undefined;
      return fold({ distinct: op.columns });
    case 'Sort':
    case 'Top': {
      if (ordered || cut || (op.op === 'Top' && op.ties)) return undefined;
      const order = op.order.map(byName);
      if (order.some((o) => !o)) return undefined;
      const o = order as { name: string; descending: boolean }[];
      if (op.op === 'Sort') return fold({ order: o });
      // A DISTINCT folded into the Top (rewrite.ts distinctTop) is the scan's DISTINCT before its order.
      const distinct = op.distinct;
      if (distinct && (scan.distinct || !distinct.every((c) => names.includes(c)))) return undefined;
      return fold({ order: o, skip: op.skip, limit: op.limit, ...(distinct ? { distinct } : {}) });
    }
    case 'Skip':
      return cut ? undefined : fold({ skip: op.count });
    case 'Limit':
      return scan.limit !== undefined ? undefined : fold({ limit: op.count });
    default:
      return undefined;
  }
}

/** The slots of `sel` that the scan's DISTINCT, ORDER BY, SKIP and LIMIT keep, in result order. */
export function refine(op: ColumnScan, scan: NodeColumns, sel: ArrayLike<number>, ctx: EvalContext): ArrayLike<number> {
  const column = (name: string) =>
    ownValue(scan.columns, op.columns!.find((c) => c.name === name)!.key) as unknown as Column;
  let s = sel;
  if (op.distinct) s = distinctSlots(op.distinct.map(column), s, ctx);
  const skip = op.skip ? count(op.skip, 'SKIP', ctx) : 0;
  const limit = op.limit ? count(op.limit, 'LIMIT', ctx) : Number.POSITIVE_INFINITY;
  if (op.order) {
    const keys = op.order.map((o) => sortKey(column(o.name), s, o.descending));
    const want = skip + limit;
    const kept =
      want < s.length
        ? smallest(s.length, want, comparator(keys), ctx).sort(comparator(keys))
        : sortedPositions(keys, s.length);
    // Typed: a JavaScript array of tens of thousands of slots is a large object, fresh pages on every run.
    const out = new Int32Array(Math.max(0, kept.length - skip));
    for (let i = skip; i < kept.length; i++) out[i - skip] = s[kept[i]!]!;
    return out;
  }
  const end = Math.min(s.length, skip + limit);
  const out = new Int32Array(Math.max(0, end - skip));
  for (let i = skip; i < end; i++) out[i - skip] = s[i]!;
  return out;
}

const all = (n: number) => Array.from({ length: n }, (_, i) => i);

/**
 * A column's ORDER BY key at each selected position: class (0 a value, 1 NaN, 2 null) then a number, the
 * dictionary's entries as their rank under orderCompare.
 */
function sortKey(c: Column, sel: ArrayLike<number>, descending: boolean) {
  const n = sel.length;
  const cls = new Uint8Array(n);
  const num = new Float64Array(n);
  let ranks = 0;
  if (c.kind === 'dict') {
    const rankOf = dictRanks(c, sel);
    ranks = rankOf.count;
    for (let i = 0; i < n; i++) {
      const code = c.codes[sel[i]!]!;
      if (code < 0) cls[i] = 2;
      else num[i] = rankOf.rank(code);
    }
  } else {
    for (let i = 0; i < n; i++) {
      const slot = sel[i]!;
      const v = c.values[slot]!;
      if (c.nulls && c.nulls[slot] !== 0) cls[i] = 2;
      else if (Number.isNaN(v)) cls[i] = 1;
      else num[i] = v;
    }
  }
  return { cls, num, sign: descending ? -1 : 1, ranks };
}

type SortKey = ReturnType<typeof sortKey>;

/** Positions `i`, `j` compared under the keys, ties by position (a stable sort). */
function comparator(keys: SortKey[]) {
  return (i: number, j: number) => {
    for (const k of keys) {
      const c = k.cls[i]! - k.cls[j]! || (k.num[i]! < k.num[j]! ? -1 : k.num[i]! > k.num[j]! ? 1 : 0);
      if (c !== 0) return k.sign * c;
    }
    return i - j;
  };
}

const POSITION_BITS = 2 ** 21;

/**
 * All positions `0 … n-1` in order. One key whose values are integers in a range under 2^31 (a dictionary's
 * ranks, an integer column) is packed with the position into one float, `key · 2^21 + position`, and sorted
 * as numbers: no comparator calls, ties by position as in a stable sort.
 */
function sortedPositions(keys: SortKey[], n: number): ArrayLike<number> {
  const k = keys[0]!;
  if (keys.length !== 1 || n >= POSITION_BITS) return all(n).sort(comparator(keys));
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    if (k.cls[i] !== 0) continue;
    const v = k.num[i]!;
    if (!Number.isInteger(v)) return all(n).sort(comparator(keys));
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (min === Number.POSITIVE_INFINITY) min = max = 0;
  const span = max - min;
  if (span + 3 >= 2 ** 31) return all(n).sort(comparator(keys));
  // Classes after the values: NaN at span + 1, null at span + 2; descending reverses the whole line.
  const keyAt = (i: number) => {
    const c = k.cls[i] === 0 ? k.num[i]! - min : span + k.cls[i]!;
    return k.sign < 0 ? span + 2 - c : c;
  };
  if (span + 3 <= 8 * n + 65536) return countingSort(n, span + 3, keyAt);
  const packed = new Float64Array(n);
  for (let i = 0; i < n; i++) packed[i] = keyAt(i) * POSITION_BITS + i;
  packed.sort();
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = packed[i]! % POSITION_BITS;
  return out;
}

/** Positions by an integer key in [0, range), stable: a count per key, then each position placed (O(n + range)). */
function countingSort(n: number, range: number, keyAt: (i: number) => number): Int32Array {
  // The keys and counts are borrowed (lent-arrays.ts): a dictionary's range of ranks is as long as the dictionary.
  const keys = borrowInt32(n);
  const start = borrowInt32(range + 1);
  try {
    start.fill(0, 0, range + 1);
    for (let i = 0; i < n; i++) {
      keys[i] = keyAt(i);
      start[keys[i]! + 1]!++;
    }
    for (let r = 0; r < range; r++) start[r + 1]! += start[r]!;
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[start[keys[i]!]!++] = i;
    return out;
  } finally {
    giveBack(keys);
    giveBack(start);
  }
}

// A dictionary's entries ranked under orderCompare, kept per dictionary (a kept column's dictionary is reused
// across queries; one that grew is ranked again).
const DICT_RANKS = new WeakMap<readonly Value[], { length: number; rank: Float64Array; count: number }>();

function rankCodes(dict: readonly Value[], codes: number[]) {
  codes.sort((a, b) => orderCompare(dict[a]!, dict[b]!));
  const rank: number[] = new Array(codes.length);
  let count = 0;
  for (let i = 0; i < codes.length; i++) {
    const same = i > 0 && orderCompare(dict[codes[i - 1]!]!, dict[codes[i]!]!) === 0;
    rank[i] = same ? rank[i - 1]! : count++;
  }
  return { rank, count };
}

/** Each code's rank among the entries: the whole dictionary's, kept, unless the selection is far smaller. */
function dictRanks(c: Extract<Column, { kind: 'dict' }>, sel: ArrayLike<number>) {
  const d = c.dict;
  if (sel.length * 16 >= d.length) {
    let kept = DICT_RANKS.get(d);
    if (!kept || kept.length !== d.length) {
      const codes = Array.from({ length: d.length }, (_, i) => i);
      const r = rankCodes(d, codes);
      const rank = new Float64Array(d.length);
      for (let i = 0; i < codes.length; i++) rank[codes[i]!] = r.rank[i]!;
      kept = { length: d.length, rank, count: r.count };
      DICT_RANKS.set(d, kept);
    }
    const rank = kept.rank;
    return { rank: (code: number) => rank[code]!, count: kept.count };
  }
  const seen = new Set<number>();
  for (let i = 0; i < sel.length; i++) {
    const code = c.codes[sel[i]!]!;
    if (code >= 0) seen.add(code);
  }
  const codes = [...seen];
  const r = rankCodes(d, codes);
  const byCode = new Map<number, number>();
  for (let i = 0; i < codes.length; i++) byCode.set(codes[i]!, r.rank[i]!);
  return { rank: (code: number) => byCode.get(code)!, count: r.count };
}

/** Combinations of DISTINCT's column ids up to this many are marked in a byte table. */
const MAX_TABLE = 1 << 24;

/** The first slot of each distinct combination of the columns' values (Cypher's equivalence). */
function distinctSlots(cols: Column[], sel: ArrayLike<number>, ctx: EvalContext): ArrayLike<number> {
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
  const strides: number[] = [];
  let card = 1;
  const ids = cols.map((c) => {
    strides.push(card);
    // Lent, so stale: every position is written, 0 for null.
    const out = borrowFloat64(sel.length);
    lent.push(out);
    const n = sel.length;
    if (c.kind === 'dict') {
      const id = classIds(c.dict);
      const codes = c.codes;
      for (let i = 0; i < n; i++) {
        const code = codes[sel[i]!]!;
        out[i] = code >= 0 ? id[code]! : 0;
      }
      card *= c.dict.length + 1;
    } else {
      const range = integerSpan(c, sel);
      if (range) {
        // Integers in a small range: a value's place in it is its id (-0 is 0's place, as SameValueZero has it).
        const { values, nulls } = c;
        const base = 1 - range.min;
        if (nulls) for (let i = 0; i < n; i++) out[i] = nulls[sel[i]!] === 0 ? values[sel[i]!]! + base : 0;
        else for (let i = 0; i < n; i++) out[i] = values[sel[i]!]! + base;
        card *= range.span + 2;
      } else {
        // A Map's keys are equal as SameValueZero: -0 with 0, NaN with NaN, as equivalenceKey has numbers.
        const seen = new Map<number, number>();
        for (let i = 0; i < sel.length; i++) {
          const slot = sel[i]!;
          out[i] = 0;
          if (c.nulls && c.nulls[slot] !== 0) continue;
          const v = c.values[slot]!;
          let id = seen.get(v);
          if (id === undefined) {
            id = seen.size + 1;
            seen.set(v, id);
          }
          out[i] = id;
        }
        card *= seen.size + 1;
      }
    }
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
    const n = sel.length;
    let keys = ids[0]!;
    if (ids.length > 1) {
      keys = borrowFloat64(n);
      lent.push(keys);
      keys.set(ids[0]!.subarray(0, n));
    }
    for (let j = 1; j < ids.length; j++) {
      const x = ids[j]!;
      const stride = strides[j]!;
      for (let i = 0; i < n; i++) keys[i] = keys[i]! + x[i]! * stride;
    }
    const kept = borrowInt32(n);
    lent.push(kept);
    let m = 0;
    try {
      for (let i = 0; i < n; i++) {
        const k = keys[i]!;
        const at = k >>> 5;
        const bit = 1 << (k & 31);
        const word = table[at]!;
        if ((word & bit) !== 0) continue;
        table[at] = word | bit;
        kept[m++] = i;
      }
      ctx.budget.tick(m);
      held.add(56 * m);
    } finally {
      held.release();
      for (let j = 0; j < m; j++) table[keys[kept[j]!]! >>> 5] = 0;
    }
    const out = new Int32Array(m);
    for (let j = 0; j < m; j++) out[j] = sel[kept[j]!]!;
    return out;
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

/** The least value and the span of an integer column's selected values, when they are few enough for a table. */
function integerSpan(c: Extract<Column, { kind: 'int' | 'float' }>, sel: ArrayLike<number>) {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  const { values, nulls } = c;
  for (let i = 0; i < sel.length; i++) {
    const slot = sel[i]!;
    if (nulls && nulls[slot] !== 0) continue;
    const v = values[slot]!;
    if (!Number.isInteger(v)) return undefined;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (min > max) return { min: 0, span: 0 };
  const span = max - min;
  return span <= 8 * sel.length + 65536 ? { min, span } : undefined;
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

/** The `k` first positions of `0 … n-1` under `cmp`, by a heap whose root is the worst kept (unordered). */
function smallest(n: number, k: number, cmp: (i: number, j: number) => number, ctx: EvalContext): number[] {
  const heap: number[] = [];
  if (k <= 0) return heap;
  const swap = (i: number, j: number) => {
    const t = heap[i]!;
    heap[i] = heap[j]!;
    heap[j] = t;
  };
  for (let x = 0; x < n; x++) {
    ctx.budget.tick();
    if (heap.length < k) {
      heap.push(x);
      for (let i = heap.length - 1, p = (i - 1) >> 1; i > 0 && cmp(heap[i]!, heap[p]!) > 0; i = p, p = (i - 1) >> 1)
        swap(i, p);
      continue;
    }
    if (cmp(x, heap[0]!) >= 0) continue;
    heap[0] = x;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      let m = i;
      if (l < heap.length && cmp(heap[l]!, heap[m]!) > 0) m = l;
      if (l + 1 < heap.length && cmp(heap[l + 1]!, heap[m]!) > 0) m = l + 1;
      if (m === i) break;
      swap(i, m);
      i = m;
    }
  }
  return heap;
}
