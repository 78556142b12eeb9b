// Count-only aggregation: `count(*)` over a node scan answered from the graph's counts (NodeCount), and over
// the last expansion of a pattern by counting relationships or paths as they are walked (ExpandCount), with
// no row, relationship list or node binding per match. Relationship uniqueness holds as row by row. With the
// graph's relationship columns and node slots, over slots (var-paths.ts): no relationship object either.
import type { EvalContext, Row } from '../eval.js';
import { lookup } from '../eval.js';
import { GraphNode, GraphRelationship, setOwn } from '../values.js';
import type { Op } from './operators.js';
import { walkPaths } from './checks.js';
import type { Runner } from './physical.js';
import { countPaths, slotAdjacency, slotIn } from './var-paths.js';

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
  let total = 0;
  for (const row of runner.rows(op.input, arg)) {
    const from = lookup(row, e.from);
    if (!(from instanceof GraphNode)) continue;
    const used = new Set<GraphRelationship>();
    for (const v of e.distinctFrom) {
      const b = lookup(row, v);
      if (b instanceof GraphRelationship) used.add(b);
      else if (Array.isArray(b)) for (const r of b) if (r instanceof GraphRelationship) used.add(r);
    }
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
