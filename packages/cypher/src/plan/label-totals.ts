// Counts over a whole label from a kept per-slot degree (optional-hop.ts keptDegrees): `MATCH (n:L) WHERE EXISTS
// { (n)-->(:M) } RETURN count(*)` is the label's slots with a degree above zero, and `MATCH (n:L) OPTIONAL MATCH
// (n)<--(o:M) RETURN count(*), count(o)` sums max(k, 1) and k. The three totals are kept with the degree array
// and the label's rows they were summed over (both the same arrays until a write), as a counts store keeps
// counts per label and pattern: a query then reads them instead of passing over the label's slots.
import type { NodeColumns } from '../columns.js';
import type { EvalContext, Row } from '../eval.js';
import { setOwn } from '../values.js';
import type { ColumnItem, ExistsTest, OptionalHop } from './operators.js';
import { keptDegrees } from './optional-hop.js';

interface Totals {
  /** Slots with k > 0. */
  some: number;
  /** Σ k. */
  matches: number;
  /** Σ max(k, 1): the rows of an OPTIONAL MATCH. */
  rows: number;
}

const kept = new WeakMap<Int32Array, WeakMap<object, Totals>>();

/**
 * The counts row, or undefined unless the aggregation is counts only over a whole label (no filter) with one
 * pattern predicate or one optional hop whose degrees the graph keeps.
 */
export function labelTotals(
  scan: NodeColumns,
  filters: readonly unknown[],
  exists: readonly ExistsTest[],
  optional: OptionalHop | undefined,
  items: readonly ColumnItem[],
  ctx: EvalContext,
): Row[] | undefined {
  if (filters.length > 0 || !scan.rows || exists.length + (optional ? 1 : 0) !== 1) return undefined;
  if (!items.every((i) => i.kind === 'count' || (i.kind === 'hopCount' && optional))) return undefined;
  const hop = optional ?? exists[0]!;
  const k = keptDegrees(hop, scan, ctx);
  if (!k) return undefined;
  const t = totals(k, scan.rows, ctx);
  const r: Row = {};
  for (const it of items) {
    const n = optional
      ? it.kind === 'hopCount'
        ? t.matches
        : t.rows
      : exists[0]!.anti
        ? scan.rows.length - t.some
        : t.some;
    setOwn(r, it.name, BigInt(n));
  }
  return [r];
}

function totals(k: Int32Array, rows: ArrayLike<number>, ctx: EvalContext): Totals {
  let byRows = kept.get(k);
  if (!byRows) {
    byRows = new WeakMap();
    kept.set(k, byRows);
  }
  let t = byRows.get(rows);
  if (t) return t;
  t = { some: 0, matches: 0, rows: 0 };
  for (let i = 0; i < rows.length; i++) {
    if ((i & 1023) === 0) ctx.budget.tick();
    const d = k[rows[i]!]!;
    if (d > 0) t.some++;
    t.matches += d;
    t.rows += d > 0 ? d : 1;
  }
  byRows.set(rows, t);
  return t;
}
