// Where ColumnarExpandAggregate starts when an end's column filters are an equality or a range on a key the
// graph indexes (`MATCH (a:L)-[r]->(b) WHERE a.name STARTS WITH 'E1' RETURN b.type, count(*)`): that end's node
// slots from the index (GraphReader.findNodes, findNodesInRange), then their relationships from the slot
// adjacency, instead of a pass over every relationship. The filters are still tested on every row (an index may
// give more nodes, never fewer), so the rows are the full pass's, in the index's order.
import type { RangeBound } from '../graph.js';
import { type EvalContext, evaluate } from '../eval.js';
import type { Value } from '../values.js';
import type { ColumnFilter } from './operators.js';

/**
 * The distinct node slots the index gives for `filters` (one end's), at most `limit` of them; undefined when no
 * filter is on an indexed key or the index gives more than `limit` (a pass over the relationships is cheaper).
 */
export function indexedSlots(
  filters: readonly ColumnFilter[],
  label: string | undefined,
  ctx: EvalContext,
  limit: number,
): number[] | undefined {
  const g = ctx.graph;
  if (!g.countNodesWhere || !g.slotOf) return undefined;
  for (const key of new Set(filters.map((f) => f.key))) {
    if (g.countNodesWhere(label, key) === undefined) continue;
    const on = filters.filter((f) => f.key === key);
    const value = (f: ColumnFilter): Value => evaluate(f.value, {}, ctx);
    const eq = on.find((f) => f.op === '=');
    const bound = (ops: string[]): RangeBound | undefined => {
      const f = on.find((x) => ops.includes(x.op));
      return f && { value: value(f), inclusive: f.op.endsWith('=') };
    };
    const lower = eq ? undefined : bound(['>', '>=']);
    const upper = eq ? undefined : bound(['<', '<=']);
    const v = eq ? value(eq) : undefined;
    // A comparison with null holds for no node.
    if (v === null || lower?.value === null || upper?.value === null) return [];
    const found = eq
      ? g.findNodes?.(label, key, v!)
      : lower || upper
        ? g.findNodesInRange?.(label, key, lower, upper)
        : undefined;
    if (!found) continue;
    const slots: number[] = [];
    const seen = new Set<number>();
    for (const n of found) {
      ctx.budget.tick();
      if (n.deleted) continue;
      const s = g.slotOf(n);
      if (s === undefined || slots.length >= limit) return undefined;
      if (seen.has(s)) continue;
      seen.add(s);
      slots.push(s);
    }
    return slots;
  }
  return undefined;
}
