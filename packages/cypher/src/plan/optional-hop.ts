// An OPTIONAL MATCH of one relationship after an aggregation's pattern (`MATCH (a)-[r]->(b) OPTIONAL MATCH
// (b)<--(o:L) RETURN r.predicate, count(*), count(o)`), when the aggregation reads the OPTIONAL MATCH's
// variables only through count(o): row by row, each row of the pattern becomes k rows (k the relationships
// from b's node to a node with the labels) or one row with o null. Only k matters to the aggregation, so it is
// a multiplicity per row: read once per node slot from the graph's adjacency (GraphReader.adjacent) and the
// labels' node slots, and the columnar aggregations weigh each row by max(k, 1) (count(o) adds k).
import type { Expr } from '../ast.js';
import type { NodeColumns, RelationshipColumns } from '../columns.js';
import type { Direction } from '../graph.js';
import type { EvalContext } from '../eval.js';
import { members } from './columnar-expand.js';
import type { Op, OptionalHop } from './operators.js';
import { isCountOf } from './rewrite.js';

/**
 * The hop of an `Optional` whose inner plan is one Expand from a node bound before it to a new node, filtered by
 * that node's labels only; `input` is the Optional's input.
 */
export function optionalHopOf(op: Op): { hop: OptionalHop; input: Op } | undefined {
  if (op.op !== 'Optional') return undefined;
  let e = op.inner;
  const labels: string[] = [];
  if (e.op === 'Filter') {
    const to = e.input.op === 'Expand' ? e.input.to : undefined;
    for (const p of e.predicates) {
      if (p.kind !== 'labels' || p.variable !== to) return undefined;
      labels.push(...p.labels);
    }
    e = e.input;
  }
  if (e.op !== 'Expand' || e.into || e.relBound || e.distinctFrom.length > 0 || e.from === e.to) return undefined;
  if (e.adjacency) labels.push(...e.adjacency.toLabels);
  const s = e.input;
  if (s.op !== 'Filter' || s.input.op !== 'Argument') return undefined;
  if (!s.predicates.every((p) => p.kind === 'isNode' && p.variable === e.from)) return undefined;
  const binds = [e.to, e.rel];
  if (!op.nullable.every((v) => binds.includes(v))) return undefined;
  return { hop: { variable: e.from, direction: e.direction, types: e.types, labels, binds }, input: op.input };
}

/** `count(o)` or `count(rel)` of the hop's variables. */
export const isHopCount = (e: Expr, hop: OptionalHop | undefined): boolean =>
  hop !== undefined && isCountOf(e, hop.binds) && !(e.kind === 'call' && e.star);

/**
 * k per node slot: the relationships of the hop's types and direction from the slot's node to a node with its
 * labels, as an array by slot when every slot's is known at once, else a function (memoised); undefined when the
 * graph has no adjacency or cannot say which slots carry a label.
 */
export function hopDegrees(
  hop: OptionalHop,
  nodes: NodeColumns,
  ctx: EvalContext,
): Int32Array | ((slot: number) => number) | undefined {
  const g = ctx.graph;
  const kept = keptDegrees(hop, nodes, ctx);
  if (kept) return kept;
  const m = members(hop.labels, nodes, ctx);
  if (m === null) return undefined;
  const all = everyDegree(hop, nodes, m, ctx);
  if (all) return all;
  if (!g.adjacent) return undefined;
  const memo = new Int32Array(nodes.size).fill(-1);
  const adjacent = g.adjacent.bind(g);
  return (slot) => {
    let k = memo[slot]!;
    if (k >= 0) return k;
    const far = adjacent(slot, hop.direction, hop.types);
    // A graph that has adjacency for one node has it for all.
    if (!far) throw new Error('GraphReader.adjacent answered undefined for a node');
    k = 0;
    if (!m) k = far.length;
    else for (let i = 0; i < far.length; i++) if (m[far[i]!] === 1) k++;
    memo[slot] = k;
    return k;
  };
}

/**
 * Every slot's k, kept while the graph keeps the relationship columns of the hop's types and the labels' rows
 * (the same arrays across queries): a count over an OPTIONAL MATCH of a label then reads k, with no pass over
 * the relationships. Undefined when the graph gives neither or a label's rows are unknown.
 */
export function keptDegrees(
  hop: Pick<OptionalHop, 'direction' | 'types' | 'labels'>,
  nodes: NodeColumns,
  ctx: EvalContext,
  /**
   * false: only what an earlier query kept (undefined rather than a pass over the relationships); 'again': build
   * when an earlier query on the same columns asked for it too (a query asking a few nodes one by one then pays
   * for the pass only when the pattern comes back).
   */
  build: boolean | 'again' = true,
): Int32Array | undefined {
  const g = ctx.graph;
  const rels = g.scanRelationshipColumns?.(hop.types, []);
  if (!rels || !g.scanColumns) return undefined;
  const sources: ArrayLike<number>[] = [];
  for (const label of hop.labels) {
    const c = g.scanColumns(label, []);
    if (!c?.rows || c.size !== nodes.size) return undefined;
    sources.push(c.rows);
  }
  let byHop = keptK.get(rels.start);
  if (!byHop) {
    byHop = new Map();
    keptK.set(rels.start, byHop);
  }
  const key = `${hop.direction}\u0000${hop.labels.join('\u0000')}`;
  const k = byHop.get(key);
  if (k && k.size === nodes.size && k.sources.every((x, i) => x === sources[i])) return k.k;
  if (build === 'again') {
    const seen = sightings.get(rels.start) ?? new Set<string>();
    sightings.set(rels.start, seen);
    if (!seen.has(key)) {
      seen.add(key);
      return undefined;
    }
  } else if (!build) return undefined;
  const m = members(hop.labels, nodes, ctx);
  if (m === null) return undefined;
  const fresh = degreesOver(rels, hop.direction, m, nodes.size, ctx);
  byHop.set(key, { sources, size: nodes.size, k: fresh });
  return fresh;
}

/** Per relationship columns, the hops asked for with `build: 'again'` and not built yet. */
const sightings = new WeakMap<object, Set<string>>();

/** Per relationship columns (their `start` array), per direction and labels: k per slot and what it was read from. */
const keptK = new WeakMap<object, Map<string, { sources: ArrayLike<number>[]; size: number; k: Int32Array }>>();

/**
 * Every slot's k in one pass over the relationship columns of the hop's types (kept by the graph across queries),
 * when the graph has them.
 */
function everyDegree(
  hop: OptionalHop,
  nodes: NodeColumns,
  m: Uint8Array | undefined,
  ctx: EvalContext,
): Int32Array | undefined {
  const rels = ctx.graph.scanRelationshipColumns?.(hop.types, []);
  return rels && degreesOver(rels, hop.direction, m, nodes.size, ctx);
}

/**
 * Per node slot, its relationships in `direction` whose far end is in `m` (any end when absent), in one pass over
 * relationship columns: a self-loop counts once, as an expansion gives it once.
 */
export function degreesOver(
  rels: RelationshipColumns,
  direction: Direction,
  m: Uint8Array | undefined,
  size: number,
  ctx: EvalContext,
): Int32Array {
  const k = new Int32Array(size);
  const { start, end } = rels;
  const out = direction !== 'in';
  const inc = direction !== 'out';
  for (let i = 0; i < rels.size; i++) {
    if ((i & 1023) === 0) ctx.budget.tick();
    const a = start[i]!;
    const b = end[i]!;
    if (out && (!m || m[b] === 1)) k[a]!++;
    if (inc && (!m || m[a] === 1) && !(out && a === b)) k[b]!++;
  }
  return k;
}

/** Per row: the rows it stands for (max(k, 1)) and the matches of the hop (k). */
export interface Weights {
  w: Float64Array;
  k: Float64Array;
}

export function weigh(
  slots: ArrayLike<number>,
  n: number,
  degree: Int32Array | ((slot: number) => number),
  ctx: EvalContext,
  /** Where the weights go (each at least n long), else new arrays. */
  into?: Weights,
): Weights {
  const w = into ? into.w.subarray(0, n) : new Float64Array(n);
  const k = into ? into.k.subarray(0, n) : new Float64Array(n);
  // An array read in its own loop: the call of a function that differs from query to query stays a call.
  if (typeof degree !== 'function') {
    for (let i = 0; i < n; i++) {
      if ((i & 63) === 0) ctx.budget.tick();
      const d = degree[slots[i]!]!;
      k[i] = d;
      w[i] = d > 0 ? d : 1;
    }
    return { w, k };
  }
  for (let i = 0; i < n; i++) {
    if ((i & 63) === 0) ctx.budget.tick();
    const d = degree(slots[i]!);
    k[i] = d;
    w[i] = d > 0 ? d : 1;
  }
  return { w, k };
}
