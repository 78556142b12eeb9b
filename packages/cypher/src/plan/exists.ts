// Expansions by adjacency: the graph's far ends of a node's relationships as node slots (GraphReader.adjacent),
// no relationship object per neighbour, and the slots of the labels' nodes (GraphReader.scanColumns(label, [])
// rows, read once per query). ExpandExists answers `WHERE [NOT] EXISTS { (n)-[:T]->(:L) }` from them; an Expand
// whose anonymous relationship nothing reads builds only the far nodes its labels keep (GraphReader.nodeAt).
// Without them, the SemiApply's inner plan or the Expand runs as before. ExpandExists asks once per distinct
// node in a query (its answer depends on the node only), and past a few hundred nodes reads every slot's answer
// from one pass over the relationship columns, kept across queries.
import { lookup, type Row } from '../eval.js';
import { GraphNode, setOwn } from '../values.js';
import { existsTest, members as slotMembers } from './columnar-expand.js';
import { keptDegrees } from './optional-hop.js';
import type { Op } from './operators.js';
import type { Runner } from './physical.js';
import { slotAdjacency } from './var-paths.js';
import { type NarrowAdjacency, narrowed } from './labelled-adjacency.js';

type ExistsOp = Extract<Op, { op: 'ExpandExists' }>;

/** Per runner (one query): the node slots carrying every one of some labels, or null when the graph cannot say. */
const memberships = new WeakMap<Runner, Map<string, Uint8Array | null>>();

export function members(runner: Runner, labels: string[]): Uint8Array | null {
  let cache = memberships.get(runner);
  if (!cache) {
    cache = new Map();
    memberships.set(runner, cache);
  }
  const key = labels.join('\u0000');
  let m = cache.get(key);
  if (m !== undefined) return m;
  const g = runner.ctx.graph;
  // The slots of the first label's scan; the membership itself is kept across queries (columnar-expand.ts).
  const first = labels.length > 0 ? g.scanColumns?.(labels[0], []) : undefined;
  m = first?.rows ? (slotMembers(labels, { size: first.size, columns: {} }, runner.ctx) ?? null) : null;
  cache.set(key, m);
  return m;
}

/**
 * Per runner and ExpandExists: the answers asked so far, per node slot when the graph gives slots (per node
 * object otherwise), and after ASK_SLOTS distinct nodes the pattern as a test of the slot kept across queries
 * (columnar-expand.ts existsTest: every slot's degree in one pass over the relationship columns of the types).
 */
interface Answers {
  byNode: Map<GraphNode | number, boolean>;
  slotTest?: ((slot: number) => boolean) | null;
  size: number;
}

/** A few nodes are asked by adjacency; past this many, one pass gives every slot's answer (kept by the graph). */
const ASK_SLOTS = 256;

const answers = new WeakMap<Runner, Map<ExistsOp, Answers>>();

function answersOf(runner: Runner, op: ExistsOp): Answers {
  let byOp = answers.get(runner);
  if (!byOp) {
    byOp = new Map();
    answers.set(runner, byOp);
  }
  let m = byOp.get(op);
  if (!m) {
    m = { byNode: new Map(), size: 0 };
    byOp.set(op, m);
  }
  return m;
}

/** Every slot's answer; with `build` 'again', only once an earlier query asked for it too (else undefined). */
function slotTestOf(
  runner: Runner,
  op: ExistsOp,
  a: Answers,
  build: true | 'again',
): ((slot: number) => boolean) | undefined {
  const ctx = runner.ctx;
  const nodes = ctx.graph.scanColumns?.(undefined, []);
  const { direction, types, toLabels: labels } = op;
  const x = { side: 'from' as const, direction, types, labels, anti: false };
  let test: ((slot: number) => boolean) | undefined;
  if (nodes && build === true) test = existsTest(x, nodes, ctx);
  else if (nodes) {
    const k = keptDegrees(x, nodes, ctx, build);
    test = k && ((slot) => k[slot]! > 0);
  }
  a.size = nodes?.size ?? 0;
  return test;
}

export function existsRow(runner: Runner, op: ExistsOp, row: Row): Row | undefined {
  const from = lookup(row, op.from);
  // Not a node (null): the pattern matches nothing.
  if (!(from instanceof GraphNode)) return op.anti ? row : undefined;
  const known = answersOf(runner, op);
  const slot = runner.ctx.graph.slotOf?.(from);
  // Every slot's answer at once when an earlier query kept it, else after ASK_SLOTS nodes asked one by one.
  if (slot !== undefined && known.slotTest === undefined && (known.byNode.size === 0 || known.byNode.size >= ASK_SLOTS))
    known.slotTest =
      slotTestOf(runner, op, known, known.byNode.size >= ASK_SLOTS || 'again') ??
      (known.byNode.size === 0 ? undefined : null);
  let found: boolean | undefined;
  if (slot !== undefined && known.slotTest && slot < known.size) found = known.slotTest(slot);
  else {
    const key = slot ?? from;
    found = known.byNode.get(key);
    if (found === undefined) {
      found = exists(runner, op, row, from);
      known.byNode.set(key, found);
    }
  }
  return found !== op.anti ? row : undefined;
}

function exists(runner: Runner, op: ExistsOp, row: Row, from: GraphNode): boolean {
  const slots = runner.ctx.graph.adjacent?.(from, op.direction, op.types);
  const m = slots && op.toLabels.length > 0 ? members(runner, op.toLabels) : undefined;
  let found = false;
  if (!slots || m === null) {
    for (const _ of runner.rows(op.inner, row)) {
      found = true;
      break;
    }
  } else if (!m) found = slots.length > 0;
  else {
    for (let i = 0; i < slots.length; i++) {
      if (m[slots[i]!] === 1) {
        found = true;
        break;
      }
    }
  }
  return found;
}

/**
 * The rows of an adjacency Expand on one input row, or undefined when the graph has no adjacency (the caller
 * expands relationships instead).
 */
export function adjacentRows(runner: Runner, op: Extract<Op, { op: 'Expand' }>, row: Row): Row[] | undefined {
  const g = runner.ctx.graph;
  const from = lookup(row, op.from);
  if (!(from instanceof GraphNode)) return [];
  if (!g.nodeAt || !g.adjacent) return undefined;
  const slots = farSlots(runner, op, from);
  if (!slots) return undefined;
  const labels = op.adjacency?.toLabels ?? [];
  const m = labels.length > 0 ? members(runner, labels) : undefined;
  const out: Row[] = [];
  for (let i = 0; i < slots.length; i++) {
    runner.ctx.budget.tick();
    if (m && m[slots[i]!] !== 1) continue;
    const n = g.nodeAt(slots[i]!);
    if (m === null && !labels.every((l) => n.labels.includes(l))) continue;
    const r = { ...row };
    setOwn(r, op.to, n);
    out.push(r);
  }
  return out;
}

// Per runner and hop: its kept adjacency (null: the graph gives none), asked once per query, not per row.
const hopAdjacencies = new WeakMap<Runner, Map<Op, NarrowAdjacency | null>>();

/** The hop's kept adjacency, narrowed to the far end's labels when it has some (labelled-adjacency.ts). */
function hopAdjacency(runner: Runner, op: Extract<Op, { op: 'Expand' }>): NarrowAdjacency | undefined {
  let byOp = hopAdjacencies.get(runner);
  if (!byOp) {
    byOp = new Map();
    hopAdjacencies.set(runner, byOp);
  }
  let adj = byOp.get(op);
  if (adj === undefined) {
    const full = slotAdjacency(runner.ctx, op.types, op.direction);
    const labels = op.adjacency?.toLabels ?? [];
    const m = full && labels.length > 0 ? members(runner, labels) : undefined;
    adj = (full && m ? narrowed(full, labels, m) : full) ?? null;
    byOp.set(op, adj);
  }
  return adj ?? undefined;
}

/**
 * The far slots of `from`'s relationships of the hop: from the kept slot adjacency of the types when the graph
 * gives relationship columns (a range of one array, not a walk of every relationship the node has), else copied
 * from the graph's own adjacency (which may reuse its buffer).
 */
function farSlots(runner: Runner, op: Extract<Op, { op: 'Expand' }>, from: GraphNode): ArrayLike<number> | undefined {
  const g = runner.ctx.graph;
  const slot = g.slotOf?.(from);
  const adj = slot === undefined ? undefined : hopAdjacency(runner, op);
  if (adj && slot !== undefined) {
    if (slot + 1 >= adj.offsets.length) return [];
    return adj.far.subarray(adj.offsets[slot]!, adj.offsets[slot + 1]!);
  }
  const found = g.adjacent!(from, op.direction, op.types);
  return found ? Int32Array.from(found) : undefined;
}
