// Count-only aggregation: `count(*)` over a node scan answered from the graph's counts (NodeCount), and over
// the last expansion of a pattern by counting relationships or paths as they are walked (ExpandCount), with
// no row, relationship list or node binding per match. Relationship uniqueness holds as row by row. With the
// graph's relationship columns and node slots, over slots (var-paths.ts): no relationship object either.
import type { EvalContext, Row } from '../eval.js';
import { lookup } from '../eval.js';
import { GraphNode, GraphRelationship, setOwn } from '../values.js';
import type { EndsCount, Op } from './operators.js';
import { hopDegree } from './optional-expand.js';
import { walkPaths } from './checks.js';
import type { Runner } from './physical.js';
import { slotTests } from './var-count.js';
import { countPaths, EndCounts, slotAdjacency, slotIn } from './var-paths.js';

/** The node count from the graph, or undefined when it has none (the fallback scans). */
export function nodeCount(op: Extract<Op, { op: 'NodeCount' }>, ctx: EvalContext): Row[] | undefined {
  const n = ctx.graph.countNodes?.(op.label);
  if (n === undefined) return undefined;
  const r: Row = {};
  setOwn(r, op.name, BigInt(n));
  return [r];
}

export function* countExpansions(op: Extract<Op, { op: 'ExpandCount' }>, runner: Runner, arg: Row): Generator<Row> {
  const ctx = runner.ctx;
  const e = op.expand;
  if (e.op !== 'Expand' && e.op !== 'VarLengthExpand') throw new Error(`ExpandCount over ${e.op}`);
  if (op.ends) {
    yield e.op === 'Expand' ? countHops(op, op.ends, e, runner, arg) : countByEnds(op, op.ends, e, runner, arg);
    return;
  }
  let total = 0;
  for (const row of runner.rows(op.input, arg)) {
    const from = lookup(row, e.from);
    if (!(from instanceof GraphNode)) continue;
    const used = usedRels(row, e.distinctFrom);
    const adj = used.size === 0 ? slotAdjacency(ctx, e.types, e.direction) : undefined;
    const slot = adj && slotIn(ctx, from);
    if (adj && slot !== undefined) {
      // Over slots: a hop is the node's degree; paths counted without walking their last hop.
      total += countPaths(adj, slot, e.op === 'Expand' ? { min: 1, max: 1 } : e, ctx);
    } else if (e.op === 'Expand') {
      for (const r of ctx.graph.expand(from, e.direction, e.types)) {
        ctx.budget.tick();
        if (!r.deleted && !used.has(r)) total++;
      }
    } else {
      for (const _ of walkPaths(from, e, used.size > 0 ? used : undefined, null, ctx)) total++;
    }
  }
  const r: Row = {};
  for (const name of op.names) setOwn(r, name, BigInt(total));
  yield r;
}

/** The relationships bound earlier in the MATCH (one, or a list), which an expansion must not reuse. */
function usedRels(row: Row, vars: string[]): Set<GraphRelationship> {
  const used = new Set<GraphRelationship>();
  for (const v of vars) {
    const b = lookup(row, v);
    if (b instanceof GraphRelationship) used.add(b);
    else if (Array.isArray(b)) for (const r of b) if (r instanceof GraphRelationship) used.add(r);
  }
  return used;
}

/** ExpandCount's `ends` over one hop: each relationship is max(k, 1) rows, k the folded OPTIONAL MATCH's at its far end. */
function countHops(
  op: Extract<Op, { op: 'ExpandCount' }>,
  ends: EndsCount,
  e: Extract<Op, { op: 'Expand' }>,
  runner: Runner,
  arg: Row,
): Row {
  const ctx = runner.ctx;
  const g = ctx.graph;
  const tests = slotTests(ends, e.to, ctx);
  const byRow = ends.hop && hopDegree(runner, ends.hop);
  let rows = 0;
  let matches = 0;
  for (const row of runner.rows(op.input, arg)) {
    const from = lookup(row, e.from);
    if (!(from instanceof GraphNode)) continue;
    const used = usedRels(row, e.distinctFrom);
    for (const r of g.expand(from, e.direction, e.types)) {
      ctx.budget.tick();
      if (r.deleted || used.has(r)) continue;
      const far = r.start === from ? r.end : r.start;
      const slot = tests?.k && g.slotOf?.(far);
      let d = 0;
      if (slot !== undefined && slot < tests!.size) d = tests!.k!(slot);
      else if (byRow) {
        const at = { ...row };
        setOwn(at, e.to, far);
        d = byRow(at);
      }
      rows += d > 0 ? d : 1;
      matches += d;
    }
  }
  const out: Row = {};
  for (const name of op.names) setOwn(out, name, BigInt(rows));
  for (const name of ends.hopNames) setOwn(out, name, BigInt(matches));
  return out;
}

/** The counts of ExpandCount's `ends`: the inner plan once per distinct end, weighed by the paths reaching it. */
function countByEnds(
  op: Extract<Op, { op: 'ExpandCount' }>,
  ends: EndsCount,
  e: Extract<Op, { op: 'VarLengthExpand' }>,
  runner: Runner,
  arg: Row,
): Row {
  const ctx = runner.ctx;
  const k = ends.hop ? hopDegree(runner, ends.hop) : undefined;
  let rows = 0;
  let matches = 0;
  const add = (row: Row, m: number) => {
    for (const r of runner.rows(ends.inner, row)) {
      const d = k ? k(r) : 0;
      rows += m * (d > 0 ? d : 1);
      matches += m * d;
    }
  };
  const adj = slotAdjacency(ctx, e.types, e.direction);
  const counts = adj && new EndCounts(adj);
  const tests = counts && slotTests(ends, e.to, ctx);
  // The walk over relationships, one row per path, when the graph gives no slots.
  const walk: Op = { ...e, input: { op: 'Argument', est: 1 }, slots: false };
  for (const row of runner.rows(op.input, arg)) {
    const from = lookup(row, e.from);
    if (!(from instanceof GraphNode)) continue;
    const slot = counts && slotIn(ctx, from);
    if (!counts || slot === undefined) {
      for (const r of runner.rows(walk, row)) add(r, 1);
      continue;
    }
    counts.count(slot, e, ctx);
    if (tests) {
      // Every inner operator a test on the end's slot (and k per slot): no row per end.
      for (const s of counts.slots) {
        if (s >= tests.size || !tests.pass(s)) continue;
        const m = counts.paths[s]!;
        const d = tests.k ? tests.k(s) : 0;
        rows += m * (d > 0 ? d : 1);
        matches += m * d;
      }
      continue;
    }
    for (const s of counts.slots) {
      const r = { ...row };
      setOwn(r, e.to, ctx.graph.nodeAt!(s));
      add(r, counts.paths[s]!);
    }
  }
  const r: Row = {};
  for (const name of op.names) setOwn(r, name, BigInt(rows));
  for (const name of ends.hopNames) setOwn(r, name, BigInt(matches));
  return r;
}
