// What operators check on a row: the relationships a pattern already used, a pattern's property map, a scan's
// pushed-down labels and properties, a Filter's predicates; and the paths of a variable-length expansion.
import type { Expr } from '../ast.js';
import { equals } from '../compare.js';
import { CypherTypeError } from '../errors.js';
import { type EvalContext, evaluate, lookup, type Row, truthy } from '../eval.js';
import { GraphNode, GraphRelationship, isMap, ownValue, type Value } from '../values.js';
import type { NodeCheck, Op, Predicate } from './operators.js';
import { RelSlots } from './var-paths.js';

/** The relationships bound to `vars` in `row` (single ones and lists), or undefined when there are none. */
export function usedBy(row: Row, vars: string[]): Set<GraphRelationship> | undefined {
  if (vars.length === 0) return undefined;
  const used = new Set<GraphRelationship>();
  for (const v of vars) {
    const b = lookup(row, v);
    if (b instanceof GraphRelationship) used.add(b);
    else if (Array.isArray(b)) {
      for (const r of b) if (r instanceof GraphRelationship) used.add(r);
    } else if ((b as unknown) instanceof RelSlots) {
      // Slots are excluded only by slot walks of their space (slot-groups.ts plans a group's members together).
      throw new Error(`relationship slots of ${v} read by a row-wise expansion`);
    }
  }
  return used;
}

export function propsOf(e: Expr, row: Row, ctx: EvalContext): [string, Value][] {
  const m = evaluate(e, row, ctx);
  if (m === null) return [];
  if (!isMap(m)) throw new CypherTypeError('InvalidArgumentType', 'pattern properties must be a MAP');
  return Object.entries(m);
}

/** A scan's pushed-down check for one input row: the property map evaluated now, compared per node. */
export function nodeCheck(
  where: NodeCheck | undefined,
  row: Row,
  ctx: EvalContext,
): ((n: GraphNode) => boolean) | undefined {
  if (!where) return undefined;
  const props = where.props ? propsOf(where.props, row, ctx) : [];
  const labels = where.labels;
  return (n) => labels.every((l) => n.labels.includes(l)) && propsMatch(n, props);
}

export function propsMatch(entity: GraphNode | GraphRelationship, props: [string, Value][]): boolean {
  for (const [k, v] of props) if (equals(ownValue(entity.properties, k) ?? null, v) !== true) return false;
  return true;
}

export function holds(p: Predicate, row: Row, ctx: EvalContext): boolean {
  switch (p.kind) {
    case 'expr':
      return truthy(evaluate(p.expr, row, ctx)) === true;
    case 'isNode':
      return lookup(row, p.variable) instanceof GraphNode;
    case 'labels': {
      const n = lookup(row, p.variable);
      return n instanceof GraphNode && p.labels.every((l) => n.labels.includes(l));
    }
    case 'props': {
      const e = lookup(row, p.variable);
      if (!(e instanceof GraphNode || e instanceof GraphRelationship)) return false;
      // A map written in the pattern is compared entry by entry, without building the map for every row.
      if (p.map.kind === 'map') {
        for (const [k, x] of p.map.entries) {
          if (equals(ownValue(e.properties, k) ?? null, evaluate(x, row, ctx)) !== true) return false;
        }
        return true;
      }
      return propsMatch(e, propsOf(p.map, row, ctx));
    }
  }
}

/**
 * The paths of a variable-length expansion from `from`, depth first with an explicit stack (stack[i] expands
 * the node after path[0..i-1]), relationships unique on a path and apart from `used`: [path, end node]. The
 * path array is reused: callers copy it.
 */
export function* walkPaths(
  from: GraphNode,
  op: { direction: Extract<Op, { op: 'VarLengthExpand' }>['direction']; types: string[]; min: number; max: number },
  used: Set<GraphRelationship> | undefined,
  props: [string, Value][] | null,
  ctx: EvalContext,
): Generator<[GraphRelationship[], GraphNode]> {
  const g = ctx.graph;
  const path: GraphRelationship[] = [];
  const onPath = new Set<GraphRelationship>();
  if (op.min === 0) yield [path, from];
  if (op.max === 0) return;
  const stack: { node: GraphNode; rels: Iterator<GraphRelationship> }[] = [
    { node: from, rels: g.expand(from, op.direction, op.types)[Symbol.iterator]() },
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
    if (r.deleted || onPath.has(r) || used?.has(r) || (props && !propsMatch(r, props))) continue;
    path.push(r);
    onPath.add(r);
    const n = r.start === top.node ? r.end : r.start;
    if (path.length >= op.min) yield [path, n];
    if (path.length < op.max) stack.push({ node: n, rels: g.expand(n, op.direction, op.types)[Symbol.iterator]() });
    else onPath.delete(path.pop()!);
  }
}
