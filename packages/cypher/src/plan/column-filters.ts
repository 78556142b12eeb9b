// Column filters of a node scan: a comparison of a column with a value known before the scan. A dictionary column
// is compared once per distinct value, with Cypher's own comparison; a numeric column by value. selectSlots runs
// them as passes over a selection vector; columnTest gives one as a test of a slot, for plans that test slot by
// slot (adjacency walks, chains).
import type { Budget } from '../budget.js';
import type { Column, NodeColumns } from '../columns.js';
import { type EvalContext, evaluate, truthy } from '../eval.js';
import { ownValue, type Value } from '../values.js';
import { indexedSlots } from './index-start.js';
import type { ColumnFilter } from './operators.js';

/**
 * The slots every filter (and every slot test given) keeps, in scan order: a selection vector refined by one pass
 * per filter. Each pass's comparison is chosen once (column kind and operator), so its loop reads typed arrays
 * and calls nothing per slot; the slot tests (pattern predicates, which read adjacency) run last, on what is left.
 */
export function selectSlots(
  scan: NodeColumns,
  filters: ColumnFilter[],
  ctx: EvalContext,
  extra: ((slot: number) => boolean)[] = [],
  /** Where the selection goes (at least the scan's length), else a new array. */
  into?: Int32Array,
  /** The scan's label (its slots are the label's): the passes may then start from an index (indexStart). */
  scanned?: { label: string | undefined },
): ArrayLike<number> | undefined {
  const all = scan.rows;
  let n = all ? all.length : scan.size;
  if (filters.length === 0 && extra.length === 0) return all ?? Int32Array.from({ length: n }, (_, i) => i);
  const passes: Pass[] = [];
  for (const f of filters) {
    const c = ownValue(scan.columns, f.key) as Column | undefined;
    if (!c) return undefined;
    const value = evaluate(f.value, {}, ctx);
    const pass = columnPass(c, f.op, value, ctx);
    if (!pass) return undefined;
    passes.push(pass);
  }
  let from: ArrayLike<number> | undefined = all;
  const start = scanned && indexStart(scan, filters, scanned.label, ctx);
  if (start) {
    from = start;
    n = start.length;
  }
  const out = into && into.length >= n ? into : new Int32Array(n);
  let m = n;
  for (const pass of passes) {
    m = pass(from, m, out, ctx.budget);
    from = out;
  }
  if (extra.length > 0) {
    let kept = 0;
    for (let i = 0; i < m; i++) {
      if ((i & 63) === 0) ctx.budget.tick();
      const s = from ? from[i]! : i;
      let keep = true;
      for (const t of extra) {
        if (!t(s)) {
          keep = false;
          break;
        }
      }
      if (keep) out[kept++] = s;
    }
    m = kept;
  }
  return out.subarray(0, m);
}

/** Whether each scanned-slots array is ascending (a label's slots are): kept per array. */
const ascending = new WeakMap<object, boolean>();

function isAscending(rows: ArrayLike<number>): boolean {
  let known = ascending.get(rows);
  if (known === undefined) {
    known = true;
    for (let i = 1; i < rows.length && known; i++) known = rows[i - 1]! < rows[i]!;
    ascending.set(rows, known);
  }
  return known;
}

/**
 * The slots an index gives for an equality or a range among the filters, ascending, when they are fewer than a
 * quarter of the scan (else a pass over the scan is cheaper) and the scan's own order is ascending slots (so the
 * selection keeps scan order). The filters still run over them all: an index may give more, never fewer.
 */
function indexStart(
  scan: NodeColumns,
  filters: ColumnFilter[],
  label: string | undefined,
  ctx: EvalContext,
): Int32Array | undefined {
  const n = scan.rows ? scan.rows.length : scan.size;
  if (n < 64 || (scan.rows && !isAscending(scan.rows))) return undefined;
  const slots = indexedSlots(filters, label, ctx, n >> 2);
  return slots && Int32Array.from(slots).sort();
}

/**
 * One filter's pass: the slots `from[0 … count)` (slots 0 … count-1 when absent) that pass, written to `out` in
 * order (out may be `from`: a slot is written no later than it is read); returns how many.
 */
type Pass = (from: ArrayLike<number> | undefined, count: number, out: Int32Array, budget: Budget) => number;

function columnPass(c: Column, op: ColumnFilter['op'], value: Value, ctx: EvalContext): Pass | undefined {
  if (c.kind === 'dict') {
    // Each distinct value decided when a slot holding it is first met, then a table lookup.
    const { codes, dict } = c;
    const cmp = stringCompare(op, value);
    const known = new Uint8Array(dict.length);
    const decide = (k: number) => {
      const d = dict[k]!;
      return (typeof d === 'string' && cmp ? cmp(d) : compareValues(op, d, value, ctx)) ? 1 : 2;
    };
    return (from, count, out, budget) => {
      let m = 0;
      for (let i = 0; i < count; i++) {
        if ((i & 63) === 0) budget.tick();
        const s = from ? from[i]! : i;
        const k = codes[s]!;
        if (k < 0) continue;
        let p = known[k]!;
        if (p === 0) p = known[k] = decide(k);
        if (p === 1) out[m++] = s;
      }
      return m;
    };
  }
  const x = numberOf(value);
  if (x === undefined) return undefined;
  const { values, nulls } = c;
  // Deliberate copy: one loop per operator, so a pass compares without a call or a branch on the operator per
  // slot (a closure called per slot and filter was what this replaced). The dictionary pass decides each code as
  // columnTest's dictionary test does, with the table read inline.
  switch (op) {
    case '=':
      return (from, count, out, budget) => {
        let m = 0;
        for (let i = 0; i < count; i++) {
          if ((i & 63) === 0) budget.tick();
          const s = from ? from[i]! : i;
          if ((nulls === undefined || nulls[s] === 0) && values[s] === x) out[m++] = s;
        }
        return m;
      };
    case '<>':
      return (from, count, out, budget) => {
        let m = 0;
        for (let i = 0; i < count; i++) {
          if ((i & 63) === 0) budget.tick();
          const s = from ? from[i]! : i;
          if ((nulls === undefined || nulls[s] === 0) && values[s] !== x) out[m++] = s;
        }
        return m;
      };
    case '<':
      return (from, count, out, budget) => {
        let m = 0;
        for (let i = 0; i < count; i++) {
          if ((i & 63) === 0) budget.tick();
          const s = from ? from[i]! : i;
          if ((nulls === undefined || nulls[s] === 0) && values[s]! < x) out[m++] = s;
        }
        return m;
      };
    case '>':
      return (from, count, out, budget) => {
        let m = 0;
        for (let i = 0; i < count; i++) {
          if ((i & 63) === 0) budget.tick();
          const s = from ? from[i]! : i;
          if ((nulls === undefined || nulls[s] === 0) && values[s]! > x) out[m++] = s;
        }
        return m;
      };
    case '<=':
      return (from, count, out, budget) => {
        let m = 0;
        for (let i = 0; i < count; i++) {
          if ((i & 63) === 0) budget.tick();
          const s = from ? from[i]! : i;
          if ((nulls === undefined || nulls[s] === 0) && values[s]! <= x) out[m++] = s;
        }
        return m;
      };
    case '>=':
      return (from, count, out, budget) => {
        let m = 0;
        for (let i = 0; i < count; i++) {
          if ((i & 63) === 0) budget.tick();
          const s = from ? from[i]! : i;
          if ((nulls === undefined || nulls[s] === 0) && values[s]! >= x) out[m++] = s;
        }
        return m;
      };
  }
}

/**
 * A number compared with a numeric column: INTEGER and FLOAT compare by value. Anything else (a string, null, NaN,
 * an INTEGER past 2^53) is undefined, and the filter runs row by row.
 */
function numberOf(value: Value): number | undefined {
  if (typeof value === 'number' && !Number.isNaN(value)) return value;
  if (typeof value === 'bigint' && Number.isSafeInteger(Number(value))) return Number(value);
  return undefined;
}

export function columnTest(
  c: Column,
  op: ColumnFilter['op'],
  value: Value,
  ctx: EvalContext,
): ((slot: number) => boolean) | undefined {
  if (c.kind === 'dict') {
    // Each distinct value is compared once, when a slot holding it is first tested (a selective anchor reads a
    // few codes of a large dictionary): the column's test is then a table lookup.
    const cmp = stringCompare(op, value);
    const { codes, dict } = c;
    const pass = new Uint8Array(dict.length);
    return (s) => {
      const k = codes[s]!;
      if (k < 0) return false;
      let p = pass[k]!;
      if (p === 0) {
        const d = dict[k]!;
        p = pass[k] = (typeof d === 'string' && cmp ? cmp(d) : compareValues(op, d, value, ctx)) ? 1 : 2;
      }
      return p === 1;
    };
  }
  // Numbers against a number: the comparison is numeric (INTEGER and FLOAT compare by value); anything else
  // (a string, null, a huge INTEGER) runs row by row.
  const x = numberOf(value);
  if (x === undefined) return undefined;
  const { values, nulls } = c;
  const ok = (s: number) => !nulls || nulls[s] === 0;
  switch (op) {
    case '=':
      return (s) => ok(s) && values[s] === x;
    case '<>':
      return (s) => ok(s) && values[s] !== x;
    case '<':
      return (s) => ok(s) && values[s]! < x;
    case '>':
      return (s) => ok(s) && values[s]! > x;
    case '<=':
      return (s) => ok(s) && values[s]! <= x;
    case '>=':
      return (s) => ok(s) && values[s]! >= x;
  }
}

/** Cypher's comparison of two values by the evaluator itself. */
function compareValues(op: ColumnFilter['op'], a: Value, b: Value, ctx: EvalContext): boolean {
  const e = {
    kind: 'compare' as const,
    ops: [op],
    args: [
      { kind: 'literal' as const, value: a, pos: 0 },
      { kind: 'literal' as const, value: b, pos: 0 },
    ],
    pos: 0,
  };
  return truthy(evaluate(e, {}, ctx)) === true;
}

/**
 * A string compared with a string `value`, as Cypher compares them (equality and code-unit order: compare.ts);
 * undefined when `value` is not a string.
 */
function stringCompare(op: ColumnFilter['op'], value: Value): ((d: string) => boolean) | undefined {
  if (typeof value !== 'string') return undefined;
  switch (op) {
    case '=':
      return (d) => d === value;
    case '<>':
      return (d) => d !== value;
    case '<':
      return (d) => d < value;
    case '>':
      return (d) => d > value;
    case '<=':
      return (d) => d <= value;
    case '>=':
      return (d) => d >= value;
  }
}
