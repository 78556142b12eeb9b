// An Expand whose named relationship is read only by comparisons of its properties with known values
// (`MATCH (a)-[r]->(b) WHERE r.confidence > 0.8`): the hop's relationships as a slot adjacency (var-paths.ts),
// each comparison a test on the graph's relationship column at the relationship's slot (columnar.ts), so no
// relationship object is built and only the far nodes kept are. Falls back (undefined) to expanding
// relationships when the graph gives no columns, or a value the column cannot compare exactly.
import { type EvalContext, evaluate, lookup, type Row, truthy } from '../eval.js';
import { GraphNode, type GraphRelationship, setOwn } from '../values.js';
import { columnTest } from './column-filters.js';
import { members } from './exists.js';
import type { Op } from './operators.js';
import type { Runner } from './physical.js';
import { type SlotAdjacency, slotAdjacency, slotIn } from './var-paths.js';

type ExpandOp = Extract<Op, { op: 'Expand' }>;

/** Per runner and Expand: the adjacency and the test of a relationship slot (null: fall back). */
const prepared = new WeakMap<Runner, Map<ExpandOp, { adj: SlotAdjacency; pass: (slot: number) => boolean } | null>>();

function prepare(runner: Runner, op: ExpandOp): { adj: SlotAdjacency; pass: (slot: number) => boolean } | null {
  let byOp = prepared.get(runner);
  if (!byOp) {
    byOp = new Map();
    prepared.set(runner, byOp);
  }
  let p = byOp.get(op);
  if (p === undefined) {
    p = build(runner.ctx, op);
    byOp.set(op, p);
  }
  return p;
}

function build(ctx: EvalContext, op: ExpandOp): { adj: SlotAdjacency; pass: (slot: number) => boolean } | null {
  const filters = op.adjacency?.relFilters ?? [];
  const adj = slotAdjacency(ctx, op.types, op.direction);
  const cols = ctx.graph.scanRelationshipColumns?.(
    op.types,
    filters.map((f) => f.filter.key),
  );
  if (!adj || !cols) return null;
  const tests: ((slot: number) => boolean)[] = [];
  for (const { filter } of filters) {
    const c = cols.columns[filter.key];
    // The value is a literal or a parameter: known before any row.
    const test = c && columnTest(c, filter.op, evaluate(filter.value, {}, ctx), ctx);
    if (!test) return null;
    tests.push(test);
  }
  // Tested as the relationships are reached: an anchor of a few nodes reads a few slots of the column.
  const pass = tests.length === 1 ? tests[0]! : (s: number) => tests.every((t) => t(s));
  return { adj, pass };
}

/** The rows of the Expand on one input row, or undefined to expand relationships instead. */
export function relFilterRows(runner: Runner, op: ExpandOp, row: Row): Row[] | undefined {
  const from = lookup(row, op.from);
  if (!(from instanceof GraphNode)) return [];
  const p = prepare(runner, op);
  const g = runner.ctx.graph;
  const at = slotIn(runner.ctx, from);
  if (!p || at === undefined || !g.nodeAt) return undefined;
  const { adj, pass } = p;
  const labels = op.adjacency?.toLabels ?? [];
  const m = labels.length > 0 ? members(runner, labels) : undefined;
  const out: Row[] = [];
  if (at + 1 >= adj.offsets.length) return out;
  for (let i = adj.offsets[at]!; i < adj.offsets[at + 1]!; i++) {
    runner.ctx.budget.tick();
    if (!pass(adj.rel[i]!)) continue;
    const far = adj.far[i]!;
    if (m && m[far] !== 1) continue;
    const n = g.nodeAt(far);
    if (m === null && !labels.every((l) => n.labels.includes(l))) continue;
    const r = { ...row };
    setOwn(r, op.to, n);
    out.push(r);
  }
  return out;
}

/** The relationship comparisons on a relationship expanded row by row (the fallback's test). */
export function relFiltersHold(op: ExpandOp, row: Row, r: GraphRelationship, ctx: EvalContext): boolean {
  const filters = op.adjacency?.relFilters;
  if (!filters) return true;
  const bound = { ...row };
  setOwn(bound, op.rel, r);
  return filters.every((f) => truthy(evaluate(f.expr, bound, ctx)) === true);
}
