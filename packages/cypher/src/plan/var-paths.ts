// Variable-length expansion over slots: the relationships of the hop's types as a compressed adjacency (per node
// slot, its relationship slots and far ends in one direction), built from the graph's relationship columns and
// kept while the graph keeps those columns (keyed on their `start` array). Paths are then walked as integers:
// relationship uniqueness is a test on relationship slots, and no relationship object is built. A count of
// paths needs no walk of the last hop: the paths one shorter each extend by the end's degree, less the
// relationships of the path at that end (Cypher's relationship uniqueness).
//
// Expansions of one MATCH kept apart from each other (`(a)-[*1..2]->(b)-[:T]->(c)`) walk the slots of one
// relationship space, the columns of all their types (`space`), each through its own types' adjacency: a path's
// relationships are then bound as slots (RelSlots) that the next expansion excludes, exactly, with no
// relationship object or list built.
import type { RelationshipColumns } from '../columns.js';
import type { Direction } from '../graph.js';
import { type EvalContext, lookup, type Row } from '../eval.js';
import { GraphNode, setOwn, type Value } from '../values.js';
import { members } from './columnar-expand.js';

/** Per node slot `s`: its relationships `rel[offsets[s] … offsets[s+1]-1]`, each to `far[…]` (a self-loop once). */
export interface SlotAdjacency {
  offsets: Int32Array;
  rel: Int32Array;
  far: Int32Array;
  /** Relationship slots' ends, for the uniqueness count at a path's end. */
  start: ArrayLike<number>;
  end: ArrayLike<number>;
  direction: Direction;
  /** 1 for the relationship slots of this adjacency's types, when its space holds other types too. */
  member?: Uint8Array;
}

/**
 * The relationship slots a slot walk bound (the planner's own variable, never returned): a later expansion of
 * the same MATCH excludes them. Not a Cypher value; only slot walks of the same space read it.
 */
export class RelSlots {
  constructor(readonly rels: readonly number[]) {}
}

const kept = new WeakMap<object, Map<string, SlotAdjacency | Uint8Array | null>>();

function keptFor(cols: RelationshipColumns): Map<string, SlotAdjacency | Uint8Array | null> {
  let byKey = kept.get(cols.start);
  if (!byKey) {
    byKey = new Map();
    kept.set(cols.start, byKey);
  }
  return byKey;
}

/**
 * 1 for the relationship slots of `space`'s columns whose type is one of `types`; undefined when every slot is
 * (`types` is the space), null when the columns cannot tell types apart (no dictionary of types).
 */
export function typeMask(
  cols: RelationshipColumns,
  types: readonly string[],
  space: readonly string[],
): Uint8Array | undefined | null {
  const narrower = types.length > 0 && !(space.length === types.length && space.every((t) => types.includes(t)));
  if (!narrower) return undefined;
  const byKey = keptFor(cols);
  const key = `mask\u0000${types.join('\u0000')}`;
  let member = byKey.get(key) as Uint8Array | null | undefined;
  if (member === undefined) {
    const t = cols.type;
    member = null;
    if (t.kind === 'dict') {
      const want = t.dict.map((v) => typeof v === 'string' && types.includes(v));
      member = new Uint8Array(cols.size);
      for (let i = 0; i < cols.size; i++) if (want[t.codes[i]!]) member[i] = 1;
    }
    byKey.set(key, member);
  }
  return member;
}

/**
 * The adjacency of `types` in `direction`, over the relationship slots of `space` (the columns of those types;
 * `types` itself when absent), or undefined when the graph gives no columns or slots.
 */
export function slotAdjacency(
  ctx: EvalContext,
  types: readonly string[],
  direction: Direction,
  space: readonly string[] = types,
): SlotAdjacency | undefined {
  const g = ctx.graph;
  if (!g.slotOf || !g.nodeAt || !g.scanRelationshipColumns) return undefined;
  const cols = g.scanRelationshipColumns(space, []);
  if (!cols) return undefined;
  const member = typeMask(cols, types, space);
  if (member === null) return undefined;
  const byKey = keptFor(cols);
  const key = `${direction}\u0000${member ? types.join('\u0000') : ''}`;
  let adj = byKey.get(key) as SlotAdjacency | undefined;
  if (!adj) {
    adj = build(cols.start, cols.end, cols.size, direction, member);
    byKey.set(key, adj);
  }
  return adj;
}

function build(
  start: ArrayLike<number>,
  end: ArrayLike<number>,
  size: number,
  direction: Direction,
  member: Uint8Array | undefined,
): SlotAdjacency {
  let slots = 0;
  for (let i = 0; i < size; i++) slots = Math.max(slots, start[i]! + 1, end[i]! + 1);
  const offsets = new Int32Array(slots + 1);
  const out = direction !== 'in';
  const inc = direction !== 'out';
  // Degrees shifted by one slot, then summed into offsets; the fill advances a cursor per slot.
  for (let i = 0; i < size; i++) {
    if (member && member[i] !== 1) continue;
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
    if (member && member[i] !== 1) continue;
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
  return { offsets, rel, far, start, end, direction, ...(member ? { member } : {}) };
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

const NONE: readonly number[] = [];

/**
 * The one depth-first walk over slots, stepped by its callers (rows, counts, ends): each step gives the end of
 * the next path of length 1…limit from the start, its relationship slots in `path`, unique on the path and apart
 * from `excluded`. A stepped walk rather than a generator or a callback, so the loop stays one monomorphic
 * function over integer arrays whatever its caller does with the ends.
 */
export class SlotWalk {
  /** The relationship slots of the path the last step ended. */
  readonly path: number[] = [];
  private readonly nodes: number[] = [];
  /** Per depth, the next adjacency index to try; -1 once the path is as long as the limit. */
  private readonly next: number[] = [];
  private limit = 0;
  private excluded = NONE;

  constructor(
    readonly adj: SlotAdjacency,
    private readonly ctx: EvalContext,
  ) {}

  start(from: number, limit: number, excluded: readonly number[] = NONE): this {
    this.path.length = 0;
    this.nodes.length = 0;
    this.next.length = 0;
    this.limit = limit;
    this.excluded = excluded;
    if (limit >= 1) {
      this.nodes.push(from);
      this.next.push(first(this.adj, from));
    }
    return this;
  }

  /** The end slot of the next path, or -1 when the walk is done. */
  step(): number {
    const adj = this.adj;
    const { rel, far } = adj;
    const { path, nodes, next } = this;
    while (next.length > 0) {
      const d = next.length - 1;
      const i = next[d]!;
      if (i < 0 || i >= stop(adj, nodes[d]!)) {
        next.pop();
        nodes.pop();
        path.pop();
        continue;
      }
      next[d] = i + 1;
      this.ctx.budget.tick();
      const r = rel[i]!;
      if (has(path, r) || has(this.excluded, r)) continue;
      const b = far[i]!;
      path.push(r);
      nodes.push(b);
      next.push(path.length < this.limit ? first(adj, b) : -1);
      return b;
    }
    return -1;
  }

  /**
   * How many relationships at `at` extend the current path by one (those of the adjacency not on the path and
   * not excluded): the paths one longer, counted without walking them.
   */
  extensions(at: number): number {
    const { start, end, direction, member } = this.adj;
    let k = stop(this.adj, at) - first(this.adj, at);
    const incident = (r: number) => {
      const s = start[r] === at;
      const e = end[r] === at;
      return direction === 'out' ? s : direction === 'in' ? e : s || e;
    };
    for (let j = 0; j < this.path.length; j++) if (incident(this.path[j]!)) k--;
    for (let j = 0; j < this.excluded.length; j++) {
      const r = this.excluded[j]!;
      if ((!member || member[r] === 1) && incident(r)) k--;
    }
    return k;
  }
}

function has(xs: readonly number[], r: number): boolean {
  for (let j = 0; j < xs.length; j++) if (xs[j] === r) return true;
  return false;
}

/**
 * How many paths of length min…max start at `from` (relationships unique on a path and apart from `excluded`):
 * the paths up to max-1 are walked, and each of length max-1 adds its end's extensions.
 */
export function countPaths(walk: SlotWalk, from: number, range: Range, excluded: readonly number[] = NONE): number {
  const { min, max } = range;
  if (min > max) return 0;
  let total = min === 0 ? 1 : 0;
  if (max === 0) return total;
  const last = Number.isFinite(max) ? max - 1 : max;
  walk.start(from, last, excluded);
  if (last === 0) return total + walk.extensions(from);
  for (let b = walk.step(); b >= 0; b = walk.step()) {
    if (walk.path.length >= min) total++;
    if (walk.path.length === last) total += walk.extensions(b);
  }
  return total;
}

/** The relationship slots the row binds to `vars` (earlier slot walks of the same space), or undefined if any is not. */
export function excludedSlots(row: Row, vars: readonly string[]): readonly number[] | undefined {
  if (vars.length === 0) return NONE;
  const out: number[] = [];
  for (const v of vars) {
    const b = lookup(row, v) as unknown;
    if (!(b instanceof RelSlots)) return undefined;
    out.push(...b.rels);
  }
  return out;
}

type SlotOp = {
  from: string;
  rel: string;
  to: string;
  types: string[];
  direction: Direction;
  min: number;
  max: number;
  distinctFrom: string[];
  space?: string[];
  bindRels?: boolean;
  toLabels?: string[];
};

/**
 * Per operator, for the query running it: its walk (rows are drawn from one input row at a time, so one walk
 * serves them all; a new row restarts it) and its ends' label slots.
 */
const walks = new WeakMap<object, { ctx: EvalContext; walk: SlotWalk | undefined; labelled: Uint8Array | undefined }>();

/**
 * The rows of a VarLengthExpand whose relationship list nothing reads but later expansions of its MATCH (kept
 * apart from it): the end node of each path, over slots, with the path's relationship slots when `bindRels`;
 * undefined when the graph gives no slots (the walk over relationships runs instead).
 */
export function slotRows(ctx: EvalContext, op: SlotOp, row: Row): Iterable<Row> | undefined {
  const from = lookup(row, op.from);
  if (!(from instanceof GraphNode)) return [];
  let w = walks.get(op);
  if (w?.ctx !== ctx) {
    const adj = slotAdjacency(ctx, op.types, op.direction, op.space);
    w = { ctx, walk: adj && new SlotWalk(adj, ctx), labelled: op.toLabels ? labelSlots(ctx, op.toLabels) : undefined };
    walks.set(op, w);
  }
  const { walk, labelled } = w;
  const slot = walk && slotIn(ctx, from);
  const excluded = excludedSlots(row, op.distinctFrom);
  if (!walk || slot === undefined || !excluded) return undefined;
  return ends(walk, slot, excluded);
  function* ends(walk: SlotWalk, slot: number, excluded: readonly number[]): Generator<Row> {
    const g = ctx.graph;
    const bind = (b: number) => {
      if (labelled && labelled[b] !== 1) return undefined;
      const r = { ...row };
      setOwn(r, op.to, g.nodeAt!(b));
      if (op.bindRels) setOwn(r, op.rel, new RelSlots([...walk.path]) as unknown as Value);
      return r;
    };
    if (op.min === 0) {
      const r = bind(slot);
      if (r) yield r;
    }
    walk.start(slot, op.max, excluded);
    for (let b = walk.step(); b >= 0; b = walk.step()) {
      if (walk.path.length < op.min) continue;
      const r = bind(b);
      if (r) yield r;
    }
  }
}

/** Per query: the node slots carrying every one of some labels (undefined: the graph cannot say; the Filter tests). */
const labelled = new WeakMap<EvalContext, Map<string, Uint8Array | undefined>>();

function labelSlots(ctx: EvalContext, labels: string[]): Uint8Array | undefined {
  let byKey = labelled.get(ctx);
  if (!byKey) {
    byKey = new Map();
    labelled.set(ctx, byKey);
  }
  const key = labels.join('\u0000');
  if (!byKey.has(key)) {
    const nodes = ctx.graph.scanColumns?.(undefined, []);
    byKey.set(key, (nodes && members(labels, nodes, ctx)) ?? undefined);
  }
  return byKey.get(key);
}

/**
 * The ends of the paths from `from` (length min…max, relationships unique on a path and apart from `excluded`)
 * with how many paths reach each: `slots` in first-reached order, `paths[s]` the count for slot s. Each call
 * clears the previous call's counts first.
 */
const sparePaths = new WeakMap<SlotAdjacency, Float64Array>();

export class EndCounts {
  slots: number[] = [];
  paths: Float64Array;
  private readonly walk: SlotWalk;
  constructor(
    private readonly adj: SlotAdjacency,
    ctx: EvalContext,
  ) {
    // The zeroed array a released count left for its adjacency: a count per query allocates no array per node.
    const spare = sparePaths.get(adj);
    sparePaths.delete(adj);
    this.paths = spare ?? new Float64Array(adj.offsets.length);
    this.walk = new SlotWalk(adj, ctx);
  }

  /** Done: the path counts are zeroed and kept for the next count over the same adjacency. */
  release(): void {
    for (const s of this.slots) this.paths[s] = 0;
    this.slots.length = 0;
    sparePaths.set(this.adj, this.paths);
  }

  private add(s: number) {
    // A start past the adjacency's slots (a node with no relationships) still ends its zero-length path.
    if (s >= this.paths.length) {
      const grown = new Float64Array(s + 1);
      grown.set(this.paths);
      this.paths = grown;
    }
    if (this.paths[s] === 0) this.slots.push(s);
    this.paths[s]!++;
  }

  count(from: number, range: Range, excluded: readonly number[] = NONE): this {
    for (const s of this.slots) this.paths[s] = 0;
    this.slots.length = 0;
    const { min, max } = range;
    if (min > max) return this;
    if (min === 0) this.add(from);
    const walk = this.walk.start(from, max, excluded);
    for (let b = walk.step(); b >= 0; b = walk.step()) if (walk.path.length >= min) this.add(b);
    return this;
  }
}
