// DISTINCT, ORDER BY, SKIP and LIMIT over a NodeColumnScan's columns: the selected slots are de-duplicated,
// sorted (a bounded heap for ORDER BY … LIMIT k) and cut as integers over the column values, and rows are built
// only for the slots kept. The order is ORDER BY's (`orderCompare`: a dictionary's entries ranked once with it,
// numbers compared as numbers, NaN after them and null last), ties in scan order as in a stable sort; DISTINCT
// keeps the first slot of each `equivalenceKey` class, as the row-by-row Distinct does (distinct-slots.ts).
import type { SortItem } from '../ast.js';
import type { Column, NodeColumns } from '../columns.js';
import { orderCompare } from '../compare.js';
import type { EvalContext } from '../eval.js';
import { count } from '../interpret/project.js';
import { ownValue, type Value } from '../values.js';
import { distinctSlots } from './distinct-slots.js';
import { borrowInt32, giveBack } from './lent-arrays.js';
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

/**
 * The slots a scan's DISTINCT, ORDER BY, SKIP and LIMIT keep. Without `order`, `slots` are in result order.
 * With it, `slots` are in scan order and result row k is the row of `slots[order[k]]`: an ORDER BY that keeps
 * many slots leaves them scattered over the columns, and reading each column in scan order, then moving the
 * rows made (permuteRows), replaced a cache miss per cell with one per row.
 */
export interface Refined {
  slots: ArrayLike<number>;
  order?: Int32Array;
}

/** Kept slots at least, for rows to be made in scan order (below, the scattered reads cost little). */
const IN_SCAN_ORDER_MIN = 4096;

/** See Refined. */
export function refine(op: ColumnScan, scan: NodeColumns, sel: ArrayLike<number>, ctx: EvalContext): Refined {
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
    if (kept.length - skip >= IN_SCAN_ORDER_MIN) return inScanOrder(s, kept, skip);
    // Typed: a JavaScript array of tens of thousands of slots is a large object, fresh pages on every run.
    const out = new Int32Array(Math.max(0, kept.length - skip));
    for (let i = skip; i < kept.length; i++) out[i - skip] = s[kept[i]!]!;
    return { slots: out };
  }
  const end = Math.min(s.length, skip + limit);
  const out = new Int32Array(Math.max(0, end - skip));
  for (let i = skip; i < end; i++) out[i - skip] = s[i]!;
  return { slots: out };
}

/** The slots at positions kept[skip …] of `s`, in the order of `s`, with the result order (see Refined). */
function inScanOrder(s: ArrayLike<number>, kept: ArrayLike<number>, skip: number): Refined {
  const n = kept.length - skip;
  // Position in s -> result row, -1 where not kept (borrowed: read only here).
  const rowAt = borrowInt32(s.length);
  try {
    rowAt.fill(-1, 0, s.length);
    for (let i = skip; i < kept.length; i++) rowAt[kept[i]!] = i - skip;
    const slots = new Int32Array(n);
    const order = new Int32Array(n);
    for (let p = 0, a = 0; p < s.length; p++) {
      const k = rowAt[p]!;
      if (k < 0) continue;
      slots[a] = s[p]!;
      order[k] = a++;
    }
    return { slots, order };
  } finally {
    giveBack(rowAt);
  }
}

/** The slots of a Refined in result order. */
export function inResultOrder(r: Refined): ArrayLike<number> {
  const { slots, order } = r;
  if (!order) return slots;
  const out = new Int32Array(order.length);
  for (let k = 0; k < order.length; k++) out[k] = slots[order[k]!]!;
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
  // Strings only (names, ids): compared as orderCompare compares two strings, without its dispatch on the kind
  // per comparison.
  let strings = true;
  for (let i = 0; i < codes.length && strings; i++) strings = typeof dict[codes[i]!] === 'string';
  if (strings) {
    const str = dict as readonly string[];
    codes.sort((a, b) => (str[a]! < str[b]! ? -1 : str[a]! > str[b]! ? 1 : 0));
  } else codes.sort((a, b) => orderCompare(dict[a]!, dict[b]!));
  const rank: number[] = new Array(codes.length);
  let count = 0;
  for (let i = 0; i < codes.length; i++) {
    const same = i > 0 && orderCompare(dict[codes[i - 1]!]!, dict[codes[i]!]!) === 0;
    rank[i] = same ? rank[i - 1]! : count++;
  }
  return { rank, count };
}

/**
 * Each code's rank among the entries: the whole dictionary's, kept, when the selection is not far smaller or an
 * earlier query has ranked the whole dictionary already; else those of the selection's entries only.
 */
function dictRanks(c: Extract<Column, { kind: 'dict' }>, sel: ArrayLike<number>) {
  const d = c.dict;
  let kept = DICT_RANKS.get(d);
  if (kept && kept.length !== d.length) kept = undefined;
  if (!kept && sel.length * 16 >= d.length) {
    const codes = Array.from({ length: d.length }, (_, i) => i);
    const r = rankCodes(d, codes);
    const rank = new Float64Array(d.length);
    for (let i = 0; i < codes.length; i++) rank[codes[i]!] = r.rank[i]!;
    kept = { length: d.length, rank, count: r.count };
    DICT_RANKS.set(d, kept);
  }
  if (kept) {
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
