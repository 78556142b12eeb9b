// Variable-length expansion over slots: the relationships of the hop's types as a compressed adjacency (per node
// slot, its relationship slots and far ends in one direction), built from the graph's relationship columns and
// kept while the graph keeps those columns (keyed on their `start` array). Paths are then walked as integers:
// relationship uniqueness is a test on relationship slots, and no relationship object is built. A count of
// paths needs no walk of the last hop: the paths one shorter each extend by the end's degree, less the
// relationships of the path at that end (Cypher's relationship uniqueness).
import type { Direction } from '../graph.js';
import { type EvalContext, lookup, type Row } from '../eval.js';
import { GraphNode, setOwn } from '../values.js';

/** Per node slot `s`: its relationships `rel[offsets[s] … offsets[s+1]-1]`, each to `far[…]` (a self-loop once). */
export interface SlotAdjacency {
  offsets: Int32Array;
  rel: Int32Array;
  far: Int32Array;
  /** Relationship slots' ends, for the uniqueness count at a path's end. */
  start: ArrayLike<number>;
  end: ArrayLike<number>;
  direction: Direction;
}

const kept = new WeakMap<object, Partial<Record<Direction, SlotAdjacency>>>();

/** The adjacency of `types` in `direction`, or undefined when the graph gives no columns or slots. */
export function slotAdjacency(
  ctx: EvalContext,
  types: readonly string[],
  direction: Direction,
): SlotAdjacency | undefined {
  const g = ctx.graph;
  if (!g.slotOf || !g.nodeAt || !g.scanRelationshipColumns) return undefined;
  const cols = g.scanRelationshipColumns(types, []);
  if (!cols) return undefined;
  let byDir = kept.get(cols.start);
  if (!byDir) {
    byDir = {};
    kept.set(cols.start, byDir);
  }
  byDir[direction] ??= build(cols.start, cols.end, cols.size, direction);
  return byDir[direction];
}

function build(start: ArrayLike<number>, end: ArrayLike<number>, size: number, direction: Direction): SlotAdjacency {
  let slots = 0;
  for (let i = 0; i < size; i++) slots = Math.max(slots, start[i]! + 1, end[i]! + 1);
  const offsets = new Int32Array(slots + 1);
  const out = direction !== 'in';
  const inc = direction !== 'out';
  // Degrees shifted by one slot, then summed into offsets; the fill advances a cursor per slot.
  for (let i = 0; i < size; i++) {
    const a = start[i]!;
    const b = end[i]!;
    if (out) offsets[a + 1]!++;
    if (inc && !(out && a === b)) offsets[b + 1]!++;
  }
  for (let s = 0; s < slots; s++) offsets[s + 1]! += offsets[s]!;
  const cursor = offsets.slice(0, slots);
  const rel = new Int32Array(offsets[slots]!);
  const far = new Int32Array(offsets[slots]!);
  for (let i = 0; i < size; i++) {
    const a = start[i]!;
    const b = end[i]!;
    if (out) {
      const at = cursor[a]!++;
      rel[at] = i;
      far[at] = b;
    }
    if (inc && !(out && a === b)) {
      const at = cursor[b]!++;
      rel[at] = i;
      far[at] = a;
    }
  }
  return { offsets, rel, far, start, end, direction };
}

/** A node's slot in the adjacency's space, or undefined (a node of another graph). */
export function slotIn(ctx: EvalContext, node: GraphNode): number | undefined {
  return ctx.graph.slotOf?.(node);
}

// A slot past the last relationship's ends has none.
const first = (adj: SlotAdjacency, s: number) => (s + 1 < adj.offsets.length ? adj.offsets[s]! : 0);
const stop = (adj: SlotAdjacency, s: number) => (s + 1 < adj.offsets.length ? adj.offsets[s + 1]! : 0);

interface Range {
  min: number;
  max: number;
}

/**
 * The end slots of the paths from `from` of length min…max, relationships unique on a path, depth first (each
 * end once per path). `path` (the relationship slots so far) is reused.
 */
export function* walkSlots(adj: SlotAdjacency, from: number, range: Range, ctx: EvalContext): Generator<number> {
  if (range.min === 0) yield from;
  if (range.max < 1) return;
  const { rel, far } = adj;
  const path: number[] = [];
  const nodes: number[] = [from];
  const next: number[] = [];
  next.push(first(adj, from));
  while (next.length > 0) {
    const d = next.length - 1;
    const at = nodes[d]!;
    const i = next[d]!;
    if (i >= stop(adj, at)) {
      next.pop();
      nodes.pop();
      path.pop();
      continue;
    }
    next[d] = i + 1;
    ctx.budget.tick();
    const r = rel[i]!;
    if (onPath(path, r)) continue;
    const b = far[i]!;
    if (path.length + 1 >= range.min) yield b;
    if (path.length + 1 < range.max) {
      path.push(r);
      nodes.push(b);
      next.push(first(adj, b));
    }
  }
}

function onPath(path: number[], r: number): boolean {
  for (let j = 0; j < path.length; j++) if (path[j] === r) return true;
  return false;
}

/**
 * How many paths of length min…max start at `from` (relationships unique on a path): the paths up to max-1 are
 * walked, and each of length max-1 adds its end's degree less the path's relationships at that end.
 */
export function countPaths(adj: SlotAdjacency, from: number, range: Range, ctx: EvalContext): number {
  const { min, max } = range;
  if (min > max) return 0;
  let total = min === 0 ? 1 : 0;
  if (max === 0) return total;
  if (!Number.isFinite(max)) {
    for (const _ of walkSlots(adj, from, { min: Math.max(min, 1), max }, ctx)) total++;
    return total;
  }
  const { rel, far } = adj;
  const path: number[] = [];
  if (max === 1) return total + extensions(adj, path, from);
  const nodes: number[] = [from];
  const next: number[] = [first(adj, from)];
  while (next.length > 0) {
    const d = next.length - 1;
    const at = nodes[d]!;
    const i = next[d]!;
    if (i >= stop(adj, at)) {
      next.pop();
      nodes.pop();
      path.pop();
      continue;
    }
    next[d] = i + 1;
    ctx.budget.tick();
    const r = rel[i]!;
    if (onPath(path, r)) continue;
    const b = far[i]!;
    path.push(r);
    if (path.length >= min) total++;
    if (path.length === max - 1) {
      total += extensions(adj, path, b);
      path.pop();
    } else {
      nodes.push(b);
      next.push(first(adj, b));
    }
  }
  return total;
}

/** The relationships at `at` in the adjacency's direction that are not on `path`. */
function extensions(adj: SlotAdjacency, path: number[], at: number): number {
  const { start, end, direction } = adj;
  let k = stop(adj, at) - first(adj, at);
  for (let j = 0; j < path.length; j++) {
    const r = path[j]!;
    const s = start[r] === at;
    const e = end[r] === at;
    if (direction === 'out' ? s : direction === 'in' ? e : s || e) k--;
  }
  return k;
}

/**
 * The rows of a VarLengthExpand whose relationship list nothing reads: the end node of each path, over slots
 * (the list is not bound); undefined when the graph gives no slots (the walk over relationships runs instead).
 */
export function slotRows(
  ctx: EvalContext,
  op: { from: string; to: string; types: string[]; direction: Direction; min: number; max: number },
  row: Row,
): Iterable<Row> | undefined {
  const from = lookup(row, op.from);
  if (!(from instanceof GraphNode)) return [];
  const adj = slotAdjacency(ctx, op.types, op.direction);
  const slot = adj && slotIn(ctx, from);
  if (!adj || slot === undefined) return undefined;
  return ends(adj, slot);
  function* ends(adj: SlotAdjacency, slot: number): Generator<Row> {
    const g = ctx.graph;
    for (const b of walkSlots(adj, slot, op, ctx)) {
      const r = { ...row };
      setOwn(r, op.to, g.nodeAt!(b));
      yield r;
    }
  }
}

/**
 * The ends of the paths from `from` (length min…max, relationships unique on a path) with how many paths reach
 * each: `slots` in first-reached order, `paths[s]` the count for slot s. The paths of the last length are not
 * walked: each of their ends is counted from its predecessor's adjacency. `paths` is zeroed for the next call by
 * the caller through `clear`.
 */
export class EndCounts {
  slots: number[] = [];
  paths: Float64Array;
  constructor(readonly adj: SlotAdjacency) {
    this.paths = new Float64Array(adj.offsets.length);
  }

  private add(s: number, m: number) {
    if (s >= this.paths.length) return;
    if (this.paths[s] === 0) this.slots.push(s);
    this.paths[s]! += m;
  }

  clear() {
    for (const s of this.slots) this.paths[s] = 0;
    this.slots.length = 0;
  }

  /** The ends from `from`: clears the previous call's counts first. */
  count(from: number, range: Range, ctx: EvalContext): this {
    this.clear();
    const adj = this.adj;
    const { rel, far } = adj;
    const { min, max } = range;
    if (min > max) return this;
    if (min === 0) this.add(from, 1);
    if (max === 0) return this;
    const path: number[] = [];
    const nodes: number[] = [from];
    const next: number[] = [first(adj, from)];
    while (next.length > 0) {
      const d = next.length - 1;
      const at = nodes[d]!;
      const i = next[d]!;
      if (i >= stop(adj, at)) {
        next.pop();
        nodes.pop();
        path.pop();
        continue;
      }
      next[d] = i + 1;
      ctx.budget.tick();
      const r = rel[i]!;
      if (onPath(path, r)) continue;
      const b = far[i]!;
      if (path.length + 1 >= min) this.add(b, 1);
      if (path.length + 1 < max) {
        path.push(r);
        nodes.push(b);
        next.push(first(adj, b));
      }
    }
    return this;
  }
}
