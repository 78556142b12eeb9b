// Counts over a variable-length expansion with row-wise operators above it (`MATCH (a)-[*1..3]->(b) WHERE
// b.x > 8 RETURN count(*)`, a pattern predicate on b, an OPTIONAL MATCH from b read by count(o)): the paths'
// rows differ only in their end node when the relationship list is unread, so the operators above run once per
// distinct end and their rows are weighed by the number of paths reaching it (var-paths.ts EndCounts); when
// each of them is a test on the end's node slot, no row is built at all (slotTests). An OPTIONAL MATCH read by
// counts right after a fixed hop is counted per relationship with its far end's k (count.ts countHops).
import type { Expr } from '../ast.js';
import type { Column } from '../columns.js';
import { type EvalContext, evaluate } from '../eval.js';
import { ownValue } from '../values.js';
import { columnTest } from './column-filters.js';
import { existsTest, members } from './columnar-expand.js';
import type { ColumnFilter, EndsCount, ExistsTest, Op } from './operators.js';
import { varsOf } from './exprs.js';
import { hopDegrees, isHopCount } from './optional-hop.js';
import { columnFilter, isCountOf, readsOnlyItems } from './rewrite.js';

// Operators whose rows depend on their input row alone (each input row → rows extending it).
const ROW_WISE = new Set<Op['op']>(['Filter', 'ExpandExists', 'SemiApply', 'Expand', 'OptionalExpand', 'Optional']);

/**
 * Aggregate of counts only, over row-wise operators over a VarLengthExpand over slots, or with an OPTIONAL MATCH
 * folded in right over an Expand → ExpandCount with ends.
 */
export function endsCount(op: Op, pass: (x: Op) => Op): Op | undefined {
  if (op.op !== 'Aggregate' || op.keys.length > 0 || !readsOnlyItems(op)) return undefined;
  const chain: Op[] = [];
  let e = op.input;
  while (ROW_WISE.has(e.op) && 'input' in e && !(op.hop && chain.length === 0 && e.op === 'Expand')) {
    chain.push(e);
    e = e.input;
  }
  // Paths merged by their end: not when a later expansion keeps apart from a path's relationships.
  const slotted = e.op === 'VarLengthExpand' && e.slots && !e.bindRels && (chain.length > 0 || op.hop);
  if (!slotted) {
    // A fixed hop, the last of its pattern: each of its relationships counted through the operators above it.
    chain.length = 0;
    e = op.input;
    while (ROW_WISE.has(e.op) && e.op !== 'Expand' && 'input' in e) {
      chain.push(e);
      e = e.input;
    }
    if (e.op !== 'Expand' || !(chain.length > 0 || op.hop) || !countsByHop(e, chain)) return undefined;
  }
  if (e.op !== 'Expand' && e.op !== 'VarLengthExpand') return undefined;
  const names: string[] = [];
  const hopNames: string[] = [];
  for (const it of op.items) {
    if (isHopCount(it.expr, op.hop)) hopNames.push(it.name);
    else if (isCountOf(it.expr, [e.from, e.to])) names.push(it.name);
    else return undefined;
  }
  let inner: Op = { op: 'Argument', est: 1 };
  for (const c of chain.reverse()) inner = { ...c, input: inner } as Op;
  const ends = { inner: pass(inner), hopNames, ...(op.hop ? { hop: op.hop } : {}) };
  return { op: 'ExpandCount', input: e.input, names, expand: e, ends, est: 1 };
}

/**
 * Whether the operators above fixed hop `e` can run on its far end's row without its relationship: the
 * relationship is read by nothing (adjacency), or only filters and pattern predicates not reading it are above.
 */
function countsByHop(e: Extract<Op, { op: 'Expand' }>, chain: Op[]): boolean {
  if (e.into || e.relBound || e.adjacency?.relFilters) return false;
  if (e.adjacency) return true;
  const free = (x: Expr) => {
    const vars = varsOf(x);
    return vars !== 'late' && !vars.has(e.rel);
  };
  return chain.every(
    (c) =>
      (c.op === 'ExpandExists' && c.from !== e.rel) ||
      (c.op === 'Filter' &&
        c.predicates.every((p) =>
          p.kind === 'expr' ? free(p.expr) : p.variable !== e.rel && (p.kind !== 'props' || free(p.map)),
        )),
  );
}

type Test = (slot: number) => boolean;

/**
 * The inner operators of ExpandCount's `ends` as tests on the end's node slot, when each is one: a Filter of
 * labels and comparisons of `to`'s keys with known values (node columns), a pattern predicate on `to`
 * (existsTest), and a folded OPTIONAL MATCH from `to` (k per slot). Then no row is built per end.
 */
export function slotTests(
  ends: EndsCount,
  to: string,
  ctx: EvalContext,
): { pass: Test; k?: (slot: number) => number; size: number } | undefined {
  const g = ctx.graph;
  const labels: string[] = [];
  const filters: ColumnFilter[] = [];
  const exists: ExistsTest[] = [];
  for (let op = ends.inner; op.op !== 'Argument'; op = (op as { input: Op }).input) {
    if (op.op === 'ExpandExists' && op.from === to) {
      const { direction, types, toLabels, anti } = op;
      exists.push({ side: 'to', direction, types, labels: toLabels, anti });
    } else if (op.op === 'Filter') {
      for (const p of op.predicates) {
        const f = p.kind === 'expr' ? columnFilter(p.expr, to) : undefined;
        if (f) filters.push(f);
        else if (p.kind === 'labels' && p.variable === to) labels.push(...p.labels);
        else return undefined;
      }
    } else return undefined;
  }
  if (ends.hop && ends.hop.variable !== to) return undefined;
  const nodes = g.scanColumns?.(undefined, [...new Set(filters.map((f) => f.key))]);
  if (!nodes) return undefined;
  const tests: Test[] = [];
  const m = members(labels, nodes, ctx);
  if (m === null) return undefined;
  if (m) tests.push((s) => m[s] === 1);
  for (const f of filters) {
    const c = ownValue(nodes.columns, f.key) as Column | undefined;
    const t = c && columnTest(c, f.op, evaluate(f.value, {}, ctx), ctx);
    if (!t) return undefined;
    tests.push(t);
  }
  for (const x of exists) {
    const t = existsTest(x, nodes, ctx);
    if (!t) return undefined;
    tests.push(t);
  }
  let k: ((slot: number) => number) | undefined;
  if (ends.hop) {
    const d = hopDegrees(ends.hop, nodes, ctx);
    if (!d) return undefined;
    k = typeof d === 'function' ? d : (slot) => d[slot]!;
  }
  const pass = (s: number) => {
    for (const t of tests) if (!t(s)) return false;
    return true;
  };
  return { pass, ...(k ? { k } : {}), size: nodes.size };
}
