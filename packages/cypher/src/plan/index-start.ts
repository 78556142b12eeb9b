// Where ColumnarExpandAggregate starts when an end's column filters are an equality or a range on a key the
// graph indexes (`MATCH (a:L)-[r]->(b) WHERE a.name STARTS WITH 'E1' RETURN b.type, count(*)`): that end's node
// slots from the index (GraphReader.findNodes, findNodesInRange), then their relationships from the slot
// adjacency, instead of a pass over every relationship. The filters are still tested on every row (an index may
// give more nodes, never fewer), so the rows are the full pass's, in the index's order; relationship filters read
// their columns permuted into the adjacency's order (kept), so a node's relationships are neighbours in memory.
import type { Column, RelationshipColumns } from '../columns.js';
import type { RangeBound } from '../graph.js';
import { type EvalContext, evaluate } from '../eval.js';
import { ownValue, type Value } from '../values.js';
import { columnTest } from './column-filters.js';
import { borrowInt32 } from './lent-arrays.js';
import { all, type EndMask, type ExpandAgg, passes, type Rows, type Test } from './columnar-expand.js';
import type { ColumnFilter } from './operators.js';
import { type SlotAdjacency, slotAdjacency } from './var-paths.js';

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
    // Slots straight from the index when the graph gives them: no node object per hit.
    const direct = eq
      ? g.findSlotsInRange?.(label, key, { value: v!, inclusive: true }, { value: v!, inclusive: true })
      : lower || upper
        ? g.findSlotsInRange?.(label, key, lower, upper)
        : undefined;
    if (direct) {
      ctx.budget.tick();
      return direct.length > limit ? undefined : Array.from(direct);
    }
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

/**
 * The rows from an end's node slots given by the graph's index (index-start.ts), each slot's relationships from
 * the slot adjacency: the full pass's rows, found without visiting every relationship. Undefined: no index
 * applies, it gives more than a 32nd as many nodes as there are relationships (a node costs more than a
 * relationship of the pass), or the graph has no slot adjacency over these columns.
 */
export function fromIndex(
  op: ExpandAgg,
  rels: RelationshipColumns,
  ctx: EvalContext,
  fm: EndMask | undefined,
  tm: EndMask | undefined,
): Rows | undefined {
  const limit = rels.size >> 5;
  for (const side of ['from', 'to'] as const) {
    const filters = op.filters.filter((f) => f.side === side);
    const label = (side === 'from' ? op.fromLabels : op.toLabels)[0];
    if (filters.length === 0) continue;
    const slots = indexedSlots(filters, label, ctx, limit);
    if (!slots) continue;
    return walk(op, rels, ctx, side, slots, fm, tm);
  }
  return undefined;
}

/**
 * The rows from the node slots of an end's label, each slot's relationships from the slot adjacency, when those
 * relationships are under a third of all (`(a:Disease)<-[r]-(b)`: a Disease's incoming facts, not every fact
 * with its start and end tested), and no item reads the relationship's columns. The label's rows come from the
 * graph (kept across queries by the KB); the adjacency is kept while the relationship columns are.
 * EVIDENT_CYPHER_LABEL_START=0 (read per query) turns this off, for before/after measurements.
 */
export function fromLabel(
  op: ExpandAgg,
  rels: RelationshipColumns,
  ctx: EvalContext,
  fm: EndMask | undefined,
  tm: EndMask | undefined,
): Rows | undefined {
  if (
    (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env
      .EVIDENT_CYPHER_LABEL_START === '0'
  )
    return undefined;
  // The rows come in adjacency order: an item reading the relationship's columns would read them scattered
  // (a float column of every fact is megabytes), which costs more than the pass's sequential reads save.
  if (op.items.some((it) => it.kind === 'type' || ('side' in it && it.side === 'rel'))) return undefined;
  let best: { side: 'from' | 'to'; slots: ArrayLike<number>; edges: number } | undefined;
  for (const side of ['from', 'to'] as const) {
    const label = (side === 'from' ? op.fromLabels : op.toLabels)[0];
    if (label === undefined) continue;
    const slots = ctx.graph.scanColumns?.(label, [])?.rows;
    const adj = slots && adjacencyFrom(op, ctx, side);
    if (!slots || !adj) continue;
    let edges = 0;
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i]!;
      if (s + 1 < adj.offsets.length) edges += adj.offsets[s + 1]! - adj.offsets[s]!;
    }
    if (edges * 3 < rels.size && (!best || edges < best.edges)) best = { side, slots, edges };
  }
  return best && walk(op, rels, ctx, best.side, best.slots, fm, tm);
}

/** The slot adjacency walked from `side`'s end (the other way from the `to` end). */
function adjacencyFrom(op: ExpandAgg, ctx: EvalContext, side: 'from' | 'to'): SlotAdjacency | undefined {
  const flip = side === 'to' && op.direction !== 'both';
  return slotAdjacency(ctx, op.types, flip ? (op.direction === 'out' ? 'in' : 'out') : op.direction);
}

/** The full pass's rows of the relationships at `slots` (one end's), in the adjacency's order. */
function walk(
  op: ExpandAgg,
  rels: RelationshipColumns,
  ctx: EvalContext,
  side: 'from' | 'to',
  slots: ArrayLike<number>,
  fm: EndMask | undefined,
  tm: EndMask | undefined,
): Rows | undefined {
  const adj = adjacencyFrom(op, ctx, side);
  if (!adj || adj.start !== rels.start) return undefined;
  const relT = adjacencyTests(op, rels, adj, ctx);
  if (!relT) return undefined;
  const { offsets, far, rel: relOf } = adj;
  const first = (s: number) => (s + 1 < offsets.length ? offsets[s]! : 0);
  const stop = (s: number) => (s + 1 < offsets.length ? offsets[s + 1]! : 0);
  let cap = 0;
  for (let k = 0; k < slots.length; k++) cap += stop(slots[k]!) - first(slots[k]!);
  // Borrowed, as the full pass's are (columnar-expand.ts gives them back once aggregated): three fresh arrays of a
  // label's relationships are megabytes of new pages, which made a run 6 ms slower (12.5 against 6.4 ms, 487 page
  // faults, in_degree_top at 1,000,000 claims) whenever the allocator handed out unmapped memory.
  const rows: Rows = { n: 0, from: borrowInt32(cap), to: borrowInt32(cap), rel: borrowInt32(cap), lent: true };
  const [near, other] = side === 'from' ? [fm, tm] : [tm, fm];
  const [mine, theirs] = side === 'from' ? [rows.from, rows.to] : [rows.to, rows.from];
  let n = 0;
  for (let k = 0; k < slots.length; k++) {
    const s = slots[k]!;
    if (!passes(near, s)) continue;
    for (let i = first(s); i < stop(s); i++) {
      if ((i & 63) === 0) ctx.budget.tick();
      if ((relT.length > 0 && !all(relT, i)) || !passes(other, far[i]!)) continue;
      mine[n] = s;
      theirs[n] = far[i]!;
      rows.rel[n++] = relOf[i]!;
    }
  }
  rows.n = n;
  return rows;
}

/** Relationship columns in an adjacency's order, kept while the adjacency and the column are. */
const permuted = new WeakMap<SlotAdjacency, WeakMap<Column, Column>>();

/**
 * The relationship filters as tests of adjacency positions, over the columns permuted into the adjacency's order:
 * a node's relationships are then read from neighbouring memory, not from slots scattered over the column.
 */
function adjacencyTests(
  op: ExpandAgg,
  rels: RelationshipColumns,
  adj: SlotAdjacency,
  ctx: EvalContext,
): Test[] | undefined {
  let byColumn = permuted.get(adj);
  if (!byColumn) {
    byColumn = new WeakMap();
    permuted.set(adj, byColumn);
  }
  const out: Test[] = [];
  for (const f of op.filters) {
    if (f.side !== 'rel') continue;
    const c = ownValue(rels.columns, f.key) as Column | undefined;
    if (!c) return undefined;
    let p = byColumn.get(c);
    if (!p) {
      const at = adj.rel;
      if (c.kind === 'dict') p = { kind: 'dict', codes: Int32Array.from(at, (r) => c.codes[r]!), dict: c.dict };
      else {
        const nulls = c.nulls;
        p = {
          kind: c.kind,
          values: Float64Array.from(at, (r) => c.values[r]!),
          ...(nulls ? { nulls: Uint8Array.from(at, (r) => (nulls[r] ? 1 : 0)) } : {}),
        };
      }
      byColumn.set(c, p);
    }
    const t = columnTest(p, f.op, evaluate(f.value, {}, ctx), ctx);
    if (!t) return undefined;
    out.push(t);
  }
  return out;
}
