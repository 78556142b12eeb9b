// A count of a scan's slots under range filters on one numeric column (`MATCH (n:Gene) WHERE n.c > 8 RETURN
// count(*)`), answered from an ordered copy of the column's values over the scanned slots by binary search:
// no pass over the slots. The ordered copy is an index the graph did not build: it is made only when the same
// column and slot arrays come back (a graph that keeps its columns across queries, until a write replaces
// them), so a graph that builds columns per scan never pays for a sort it would not reuse.
import type { Column, NodeColumns } from '../columns.js';
import { type EvalContext, evaluate } from '../eval.js';
import { ownValue } from '../values.js';
import type { ColumnFilter } from './operators.js';

interface Kept {
  /** Sightings of this column and slot set before the ordered copy is made. */
  seen: number;
  /** The non-null, non-NaN values at the scanned slots, ascending. */
  sorted?: Float64Array;
}

// Per column values array, per scanned slots array (a label's rows).
const kept = new WeakMap<object, WeakMap<object, Kept>>();

/** The number of slots every filter keeps, or undefined when the filters are not ranges on one numeric column. */
export function rangeCount(scan: NodeColumns, filters: readonly ColumnFilter[], ctx: EvalContext): number | undefined {
  if (filters.length === 0) return undefined;
  const key = filters[0]!.key;
  if (filters.some((f) => f.key !== key || f.op === '<>')) return undefined;
  const c = ownValue(scan.columns, key) as Column | undefined;
  if (!c || c.kind === 'dict') return undefined;
  const bounds: { op: ColumnFilter['op']; x: number }[] = [];
  for (const f of filters) {
    const v = evaluate(f.value, {}, ctx);
    // As columnTest: a number, or an INTEGER a double holds exactly; anything else runs by the scan.
    if (typeof v === 'number' && !Number.isNaN(v)) bounds.push({ op: f.op, x: v });
    else if (typeof v === 'bigint' && Number.isSafeInteger(Number(v))) bounds.push({ op: f.op, x: Number(v) });
    else return undefined;
  }
  const sorted = ordered(c, scan, ctx);
  if (!sorted) return undefined;
  let lo = 0;
  let hi = sorted.length;
  for (const { op, x } of bounds) {
    if (op === '>' || op === '>=' || op === '=') lo = Math.max(lo, firstPast(sorted, x, op === '>'));
    if (op === '<' || op === '<=' || op === '=') hi = Math.min(hi, firstPast(sorted, x, op !== '<'));
  }
  return Math.max(0, hi - lo);
}

function ordered(c: Extract<Column, { kind: 'int' | 'float' }>, scan: NodeColumns, ctx: EvalContext) {
  let byRows = kept.get(c.values);
  if (!byRows) {
    byRows = new WeakMap();
    kept.set(c.values, byRows);
  }
  const rows = scan.rows;
  if (!rows) return undefined;
  let k = byRows.get(rows);
  if (!k) {
    k = { seen: 0 };
    byRows.set(rows, k);
  }
  if (k.sorted) return k.sorted;
  if (++k.seen < 2) return undefined;
  const { values, nulls } = c;
  const out = new Float64Array(rows.length);
  let n = 0;
  for (let i = 0; i < rows.length; i++) {
    if ((i & 1023) === 0) ctx.budget.tick();
    const s = rows[i]!;
    const v = values[s]!;
    if ((nulls && nulls[s] !== 0) || Number.isNaN(v)) continue;
    out[n++] = v;
  }
  k.sorted = out.subarray(0, n).sort();
  return k.sorted;
}

/** The first position whose value is past `x`: `> x` when `strict`, else `>= x`. */
function firstPast(sorted: Float64Array, x: number, strict: boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const v = sorted[mid]!;
    if (strict ? v <= x : v < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
