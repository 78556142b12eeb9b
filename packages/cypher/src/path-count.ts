// Counting variable-length paths without rows: `MATCH (a…)-[:T*m..n]->(b) RETURN count(*)` (or count(a),
// count(b)) walks the paths from each start node depth-first and adds them up, instead of binding a row, a
// relationship list and a generator frame per path. Relationship uniqueness holds as row by row (a
// relationship appears once on a path). Any other shape returns undefined and runs row by row; the counts are
// the same either way (test/pushdown.test.ts runs both).
import type { SingleQuery } from './ast.js';
import { type EvalContext, lookup } from './eval.js';
import type { Result } from './execute.js';
import type { Direction } from './graph.js';
import { matchPart } from './match.js';
import type { GraphNode, GraphRelationship } from './values.js';

export function countPaths(q: SingleQuery, ctx: EvalContext): Result | undefined {
  const [m, r] = q.clauses;
  if (q.clauses.length !== 2 || m?.kind !== 'match' || r?.kind !== 'return') return undefined;
  if (m.optional || m.where || m.pattern.length !== 1) return undefined;
  const part = m.pattern[0]!;
  const [a, b] = part.nodes;
  const rel = part.rels[0];
  if (part.variable || part.rels.length !== 1 || !a?.variable || !b || !rel?.range) return undefined;
  if (rel.variable || rel.properties || b.labels.length > 0 || b.properties) return undefined;
  if (b.variable !== null && b.variable === a.variable) return undefined;
  if (r.distinct || r.star || r.order.length > 0 || r.skip || r.limit || r.items.length === 0) return undefined;
  const counted = new Set([a.variable, b.variable].filter((v) => v !== null));
  for (const it of r.items) {
    const e = it.expr;
    if (e.kind !== 'call' || e.name.toLowerCase() !== 'count' || e.distinct) return undefined;
    if (!e.star && !(e.args[0]?.kind === 'var' && counted.has(e.args[0].name))) return undefined;
  }
  const min = rel.range.min ?? 1;
  const max = rel.range.max ?? Number.POSITIVE_INFINITY;
  // The start nodes, found as row by row (labels, properties, an index lookup for {id: …}).
  const start = { variable: null, nodes: [a], rels: [], pos: part.pos };
  let total = 0;
  for (const row of matchPart(start, {}, ctx, new Set())) {
    total += walk(lookup(row, a.variable) as GraphNode, rel.direction, rel.types, min, max, ctx);
  }
  const n = BigInt(total);
  return { columns: r.items.map((i) => i.alias ?? i.text), rows: [r.items.map(() => n)] };
}

function walk(
  from: GraphNode,
  dir: Direction,
  types: readonly string[],
  min: number,
  max: number,
  ctx: EvalContext,
): number {
  // Depth first with an explicit stack (stack[i] expands the node after path[0..i-1]), as match.ts walks.
  const path: GraphRelationship[] = [];
  const onPath = new Set<GraphRelationship>();
  let count = min === 0 ? 1 : 0;
  if (max === 0) return count;
  const stack: { node: GraphNode; rels: Iterator<GraphRelationship> }[] = [
    { node: from, rels: ctx.graph.expand(from, dir, types)[Symbol.iterator]() },
  ];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const next = top.rels.next();
    if (next.done) {
      stack.pop();
      if (path.length > 0) onPath.delete(path.pop()!);
      continue;
    }
    ctx.budget.tick();
    const r = next.value;
    if (r.deleted || onPath.has(r)) continue;
    path.push(r);
    onPath.add(r);
    if (path.length >= min) count++;
    const n = r.start === top.node ? r.end : r.start;
    if (path.length < max) stack.push({ node: n, rels: ctx.graph.expand(n, dir, types)[Symbol.iterator]() });
    else onPath.delete(path.pop()!);
  }
  return count;
}
