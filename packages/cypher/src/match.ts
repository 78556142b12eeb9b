// Pattern matching: binds a pattern's variables against the graph for one input row. Each pattern part starts
// at its cheapest node (already bound, found by an indexed property, a label, or a full scan) and expands
// left and right from there. Relationships are unique within one MATCH (Cypher's relationship isomorphism).
import type { Expr, NodePattern, PatternPart, RelPattern } from './ast.js';
import { equals } from './compare.js';
import type { Direction } from './graph.js';
import { type EvalContext, evaluate, lookup, type Row } from './eval.js';
import { CypherTypeError } from './errors.js';
import { walkPaths } from './plan/checks.js';
import { GraphNode, type GraphRelationship, isMap, ownValue, PathValue, setOwn, type Value } from './values.js';

type RelBinding = GraphRelationship | GraphRelationship[];

interface State {
  nodes: (GraphNode | undefined)[];
  rels: (RelBinding | undefined)[];
}

/**
 * Lookups the planner found in the MATCH's WHERE (`n.key = expr`, expr known before the MATCH): a node
 * variable → the property and the expression, so its candidates come from the graph's index, not a scan.
 */
export type LookupHints = ReadonlyMap<string, readonly [string, Expr]>;

/** Every row extending `row` with a match of all `parts`, relationships unique across them. */
export function* matchPattern(parts: PatternPart[], row: Row, ctx: EvalContext, hints?: LookupHints): Generator<Row> {
  yield* matchFrom(parts, 0, row, ctx, new Set(), hints);
}

function* matchFrom(
  parts: PatternPart[],
  i: number,
  row: Row,
  ctx: EvalContext,
  used: Set<GraphRelationship>,
  hints: LookupHints | undefined,
): Generator<Row> {
  if (i === parts.length) {
    yield row;
    return;
  }
  for (const r of matchPart(parts[i]!, row, ctx, used, hints)) yield* matchFrom(parts, i + 1, r, ctx, used, hints);
}

function propsOf(p: Expr | null, row: Row, ctx: EvalContext): [string, Value][] | null {
  if (!p) return null;
  const m = evaluate(p, row, ctx);
  if (m === null) return [];
  if (!isMap(m)) throw new CypherTypeError('InvalidArgumentType', 'pattern properties must be a MAP');
  return Object.entries(m);
}

function propsMatch(entity: GraphNode | GraphRelationship, props: [string, Value][] | null): boolean {
  if (!props) return true;
  for (const [k, v] of props) if (equals(ownValue(entity.properties, k) ?? null, v) !== true) return false;
  return true;
}

function nodeMatches(n: GraphNode, pat: NodePattern, props: [string, Value][] | null, row: Row): boolean {
  if (pat.variable !== null) {
    const bound = lookup(row, pat.variable);
    if (bound !== undefined && bound !== n) return false;
  }
  for (const l of pat.labels) if (!n.labels.includes(l)) return false;
  return propsMatch(n, props);
}

function candidates(
  pat: NodePattern,
  props: [string, Value][] | null,
  row: Row,
  ctx: EvalContext,
  hints: LookupHints | undefined,
): Iterable<GraphNode> {
  const v = pat.variable !== null ? lookup(row, pat.variable) : undefined;
  if (v !== undefined) return v instanceof GraphNode ? [v] : [];
  const label = pat.labels[0];
  if (props && props.length > 0 && ctx.graph.findNodes) {
    const [k, v] = props[0]!;
    const found = ctx.graph.findNodes(label, k, v);
    if (found) return found;
  }
  const hint = pat.variable !== null ? hints?.get(pat.variable) : undefined;
  if (hint && ctx.graph.findNodes) {
    const found = ctx.graph.findNodes(label, hint[0], evaluate(hint[1], row, ctx));
    if (found) return found;
  }
  return ctx.graph.scanNodes(label);
}

function anchorIndex(part: PatternPart, row: Row, hints: LookupHints | undefined): number {
  let best = 0;
  let bestScore = -1;
  part.nodes.forEach((n, i) => {
    const bound = n.variable !== null && lookup(row, n.variable) !== undefined;
    const hinted = n.properties !== null || (n.variable !== null && hints?.has(n.variable) === true);
    const score = bound ? 3 : hinted ? 2 : n.labels.length > 0 ? 1 : 0;
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}

/** The matches of one pattern part; `used` holds the relationships the enclosing MATCH already bound. */
export function* matchPart(
  part: PatternPart,
  row: Row,
  ctx: EvalContext,
  used: Set<GraphRelationship>,
  hints?: LookupHints,
): Generator<Row> {
  const nodeProps = part.nodes.map((n) => propsOf(n.properties, row, ctx));
  const relProps = part.rels.map((r) => propsOf(r.properties, row, ctx));
  const a = anchorIndex(part, row, hints);
  const st: State = { nodes: new Array(part.nodes.length), rels: new Array(part.rels.length) };
  for (const n of candidates(part.nodes[a]!, nodeProps[a]!, row, ctx, hints)) {
    ctx.budget.tick();
    if (n.deleted || !nodeMatches(n, part.nodes[a]!, nodeProps[a]!, row)) continue;
    st.nodes[a] = n;
    // A lone node needs no expansion (and no generators: label scans go through here row by row).
    if (part.rels.length === 0) {
      yield bind(part, st, row);
      continue;
    }
    for (const _ of expandSide(part, a, 1, st, row, ctx, used, nodeProps, relProps)) {
      for (const _l of expandSide(part, a, -1, st, row, ctx, used, nodeProps, relProps)) yield bind(part, st, row);
    }
  }
}

function bind(part: PatternPart, st: State, row: Row): Row {
  const out = { ...row };
  part.nodes.forEach((p, i) => {
    if (p.variable !== null) setOwn(out, p.variable, st.nodes[i]!);
  });
  part.rels.forEach((p, i) => {
    if (p.variable !== null) setOwn(out, p.variable, st.rels[i]!);
  });
  if (part.variable !== null) setOwn(out, part.variable, toPath(st));
  return out;
}

function toPath(st: State): PathValue {
  const nodes = [st.nodes[0]!];
  const rels: GraphRelationship[] = [];
  st.rels.forEach((b, i) => {
    const list = Array.isArray(b) ? b : [b!];
    let cur = nodes[nodes.length - 1]!;
    for (const r of list) {
      rels.push(r);
      cur = r.start === cur ? r.end : r.start;
      nodes.push(cur);
    }
    if (list.length === 0 || cur !== st.nodes[i + 1]) nodes[nodes.length - 1] = st.nodes[i + 1]!;
  });
  return new PathValue(nodes, rels);
}

type Props = ([string, Value][] | null)[];

const flip = (d: Direction): Direction => (d === 'out' ? 'in' : d === 'in' ? 'out' : 'both');

/**
 * Extends the match from node `i` one relationship at a time, rightwards (`step` 1) or leftwards (-1),
 * yielding once per complete side with `st` filled in.
 */
function* expandSide(
  part: PatternPart,
  i: number,
  step: 1 | -1,
  st: State,
  row: Row,
  ctx: EvalContext,
  used: Set<GraphRelationship>,
  np: Props,
  rp: Props,
): Generator<void> {
  if (step === 1 ? i === part.rels.length : i === 0) {
    yield;
    return;
  }
  const ri = step === 1 ? i : i - 1;
  const j = i + step;
  const rel = part.rels[ri]!;
  const dir = step === 1 ? rel.direction : flip(rel.direction);
  for (const [binding, next] of hop(rel, dir, st.nodes[i]!, row, ctx, used, rp[ri]!)) {
    if (!nodeMatches(next, part.nodes[j]!, np[j]!, row)) continue;
    // A node variable seen twice in one part must be the same node.
    if (!sameVariableOk(part, st, j, next)) continue;
    // Walking leftwards reaches a variable-length path from its far end: store it in pattern order.
    st.rels[ri] = step === -1 && Array.isArray(binding) ? [...binding].reverse() : binding;
    st.nodes[j] = next;
    const list = Array.isArray(binding) ? binding : [binding];
    for (const r of list) used.add(r);
    yield* expandSide(part, j, step, st, row, ctx, used, np, rp);
    for (const r of list) used.delete(r);
  }
}

function sameVariableOk(part: PatternPart, st: State, idx: number, n: GraphNode): boolean {
  const v = part.nodes[idx]!.variable;
  if (v === null) return true;
  for (let j = 0; j < part.nodes.length; j++) {
    if (j !== idx && part.nodes[j]!.variable === v && st.nodes[j] !== undefined && st.nodes[j] !== n) return false;
  }
  return true;
}

function relOk(r: GraphRelationship, pat: RelPattern, props: [string, Value][] | null, row: Row): boolean {
  if (r.deleted || !propsMatch(r, props)) return false;
  if (pat.variable !== null && pat.range === null) {
    const bound = lookup(row, pat.variable);
    if (bound !== undefined && bound !== r) return false;
  }
  return true;
}

/** One step along a relationship pattern from `from`: [binding, the node reached]. */
function* hop(
  pat: RelPattern,
  dir: Direction,
  from: GraphNode,
  row: Row,
  ctx: EvalContext,
  used: Set<GraphRelationship>,
  props: [string, Value][] | null,
): Generator<[RelBinding, GraphNode]> {
  if (pat.range === null) {
    for (const r of ctx.graph.expand(from, dir, pat.types)) {
      ctx.budget.tick();
      if (used.has(r) || !relOk(r, pat, props, row)) continue;
      yield [r, r.start === from ? r.end : r.start];
    }
    return;
  }
  const min = pat.range.min ?? 1;
  const max = pat.range.max ?? Number.POSITIVE_INFINITY;
  const bound = pat.variable !== null ? lookup(row, pat.variable) : undefined;
  // walkPaths reuses its path array: each binding is a copy.
  for (const [path, n] of walkPaths(from, { direction: dir, types: pat.types, min, max }, used, props, ctx)) {
    if (bound === undefined || equals(bound, [...path]) === true) yield [[...path], n];
  }
}
