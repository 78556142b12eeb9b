// ColumnarExpandAggregate: an aggregation over one relationship pattern `(from)-[rel]->(to)`, run over the
// graph's relationship columns (start, end, type, properties) and node columns (properties, label membership)
// instead of a node, a relationship and a row per match. Each relationship gives the rows its direction gives
// (one; two both ways, a self-loop once), kept when the labels and column filters of its ends and itself hold;
// grouping keys are dictionary codes (or node slots) combined into one group id per row; each aggregate is a
// loop into per-group accumulators. When the graph has no such columns, or a key or value is one the columns
// cannot answer exactly, this returns undefined and the row-by-row fallback runs (test/plan.test.ts runs both).
import type { Column, NodeColumns, RelationshipColumns } from '../columns.js';
import type { EvalContext, Row } from '../eval.js';
import { evaluate } from '../eval.js';
import { ownValue, setOwn, type Value } from '../values.js';
import { columnTest } from './column-filters.js';
import { accumulate, countRows } from './columnar.js';
import type { ExistsTest, ExpandItem, Op, Side } from './operators.js';
import { fromIndex, fromLabel } from './index-start.js';
import { type GroupKey, groupIds } from './group-ids.js';
import { borrowFloat64, borrowInt32, giveBack, lendingScope, zeroedFloat64 } from './lent-arrays.js';
import { degreesOver, hopDegrees, keptDegrees, weigh, type Weights } from './optional-hop.js';

export type ExpandAgg = Extract<Op, { op: 'ColumnarExpandAggregate' }>;

/** The kept rows: per row, the slot of each side (node slots for the ends, relationship slots for `rel`). */
export interface Rows {
  n: number;
  from: Int32Array;
  to: Int32Array;
  rel: Int32Array;
  /** The arrays are borrowed (lent-arrays.ts): given back once the aggregation has read them. */
  lent?: boolean;
}

export function columnarExpandAggregate(op: ExpandAgg, ctx: EvalContext): Row[] | undefined {
  // The per-group accumulators lent until the rows are made (lendingScope).
  return lendingScope(() => {
    const grouped = columnarExpandGroups(op, ctx);
    if (!grouped) return undefined;
    const result: Row[] = [];
    for (let g = 0; g < grouped.groups; g++) result.push(grouped.row(g));
    return result;
  });
}

/** The aggregation's groups before any row is built: each item's value per group, a group's row on demand. */
export interface Groups {
  groups: number;
  /** Per item of the operator, in order: its value for a group. */
  outputs: ((g: number) => Value)[];
  row: (g: number) => Row;
}

export function columnarExpandGroups(op: ExpandAgg, ctx: EvalContext): Groups | undefined {
  const g = ctx.graph;
  if (!g.scanRelationshipColumns || !g.scanColumns) return undefined;
  const relKeys = new Set<string>();
  const nodeKeys = new Set<string>();
  for (const x of [...op.items, ...op.filters]) {
    if ('key' in x) (x.side === 'rel' ? relKeys : nodeKeys).add(x.key);
  }
  const rels = g.scanRelationshipColumns(op.types, [...relKeys]);
  if (!rels) return undefined;
  // Node columns read on one labelled end only: scanned over that label (a dictionary of its nodes' values, not
  // of every node's), its rows that end's first label test.
  const sides = new Set([...op.items, ...op.filters].flatMap((x) => ('key' in x && x.side !== 'rel' ? [x.side] : [])));
  const only = sides.size === 1 ? [...sides][0]! : undefined;
  const label = only === 'from' ? op.fromLabels[0] : only === 'to' ? op.toLabels[0] : undefined;
  const nodes = g.scanColumns(label, [...nodeKeys]);
  if (!nodes || (label !== undefined && !nodes.rows)) return undefined;
  const scanned = label === undefined ? undefined : { label, rows: nodes.rows! };
  const rows = select(op, rels, nodes, ctx, scanned);
  if (!rows) return undefined;
  // Every per-row array is read by the time aggregate returns (its outputs read per-group arrays): the borrowed
  // ones go back then. Fresh, the rows, group ids and weights over every relationship were megabytes of new pages
  // on every run.
  const lent: Weights | undefined = op.optional && { w: borrowFloat64(rows.n), k: borrowFloat64(rows.n) };
  try {
    let weights: Weights | undefined;
    if (op.optional) {
      const degree = hopDegrees(op.optional, nodes, ctx);
      if (!degree) return undefined;
      weights = weigh(rows[op.optional.side], rows.n, degree, ctx, lent);
    }
    return aggregate(op, rows, rels, nodes, ctx, weights);
  } finally {
    if (lent) for (const a of [lent.w, lent.k]) giveBack(a);
    if (rows.lent) for (const a of [rows.from, rows.to, rows.rel]) giveBack(a);
  }
}

/** Node slots carrying every one of `labels` (undefined: no test; null: the graph cannot say). */
export function members(
  labels: string[],
  nodes: NodeColumns,
  ctx: EvalContext,
  scanned?: Scanned,
): Uint8Array | undefined | null {
  if (labels.length === 0) return undefined;
  const sources: ArrayLike<number>[] = [];
  for (const label of labels) {
    const c = scanned?.label === label ? { rows: scanned.rows, size: nodes.size } : ctx.graph.scanColumns!(label, []);
    if (!c?.rows || c.size !== nodes.size) return null;
    sources.push(c.rows);
  }
  return keptMembers(sources, nodes.size);
}

/**
 * Per label rows array (the first label's): the slots carrying every label, kept while the graph gives the same
 * rows arrays (as it keeps them across queries until a write), so a query asks no pass over every slot for them.
 */
const kept = new WeakMap<object, { sources: ArrayLike<number>[]; m: Uint8Array }[]>();

function keptMembers(sources: ArrayLike<number>[], size: number): Uint8Array {
  let list = kept.get(sources[0]!);
  if (!list) {
    list = [];
    kept.set(sources[0]!, list);
  }
  const same = (k: { sources: ArrayLike<number>[]; m: Uint8Array }) =>
    k.m.length === size && k.sources.length === sources.length && k.sources.every((x, i) => x === sources[i]);
  const hit = list.find(same);
  if (hit) return hit.m;
  const m = new Uint8Array(size);
  sources.forEach((rows, i) => {
    for (let k = 0; k < rows.length; k++) if (m[rows[k]!] === i) m[rows[k]!] = i + 1;
  });
  const all = sources.length;
  for (let s = 0; s < m.length; s++) m[s] = m[s] === all ? 1 : 0;
  list.push({ sources, m });
  if (list.length > 8) list.shift();
  return m;
}

export type Test = (slot: number) => boolean;

/** The label the node columns were scanned over, and its rows. */
type Scanned = { label: string; rows: ArrayLike<number> };

function tests(op: ExpandAgg, side: Side, rels: RelationshipColumns, nodes: NodeColumns, ctx: EvalContext) {
  const out: Test[] = [];
  for (const f of op.filters) {
    if (f.side !== side) continue;
    const c = ownValue(side === 'rel' ? rels.columns : nodes.columns, f.key) as Column | undefined;
    if (!c) return undefined;
    const t = columnTest(c, f.op, evaluate(f.value, {}, ctx), ctx);
    if (!t) return undefined;
    out.push(t);
  }
  return out;
}

export const all = (ts: Test[], s: number) => {
  for (const t of ts) if (!t(s)) return false;
  return true;
};

/**
 * An end's labels and tests, each node slot's answer kept (an end's node recurs across its relationships):
 * `known[s]` 0 not asked yet, 1 kept, 2 not; labels alone are filled in at once. Undefined: nothing to test.
 */
export interface EndMask {
  known: Uint8Array;
  test: Test;
}

function endMask(labels: Uint8Array | undefined, ts: Test[], size: number): EndMask | undefined {
  if (!labels && ts.length === 0) return undefined;
  const known = new Uint8Array(size);
  if (labels) for (let s = 0; s < size; s++) known[s] = labels[s] === 1 ? 0 : 2;
  if (ts.length === 0) for (let s = 0; s < size; s++) if (known[s] === 0) known[s] = 1;
  return { known, test: (s) => all(ts, s) };
}

// One small function for every end test, so the loop over relationships stays monomorphic.
export function passes(m: EndMask | undefined, s: number): boolean {
  if (m === undefined) return true;
  let k = m.known[s]!;
  if (k === 0) {
    k = m.test(s) ? 1 : 2;
    m.known[s] = k;
  }
  return k === 1;
}

function select(
  op: ExpandAgg,
  rels: RelationshipColumns,
  nodes: NodeColumns,
  ctx: EvalContext,
  scanned?: Scanned,
): Rows | undefined {
  const fromIn = members(op.fromLabels, nodes, ctx, scanned);
  const toIn = members(op.toLabels, nodes, ctx, scanned);
  const fromT = tests(op, 'from', rels, nodes, ctx);
  const toT = tests(op, 'to', rels, nodes, ctx);
  const relT = tests(op, 'rel', rels, nodes, ctx);
  if (fromIn === null || toIn === null || !fromT || !toT || !relT) return undefined;
  for (const x of op.exists) {
    const t = existsTest(x, nodes, ctx);
    if (!t) return undefined;
    (x.side === 'from' ? fromT : toT).push(t);
  }
  const fm = endMask(fromIn, fromT, nodes.size);
  const tm = endMask(toIn, toT, nodes.size);
  const seeded = fromIndex(op, rels, ctx, fm, tm) ?? fromLabel(op, rels, ctx, fm, tm);
  if (seeded) return seeded;
  const cap = op.direction === 'both' ? 2 * rels.size : rels.size;
  const rows: Rows = { n: 0, from: borrowInt32(cap), to: borrowInt32(cap), rel: borrowInt32(cap), lent: true };
  const { start, end } = rels;
  const fwd = op.direction !== 'in';
  const back = op.direction !== 'out';
  const { from, to, rel } = rows;
  let n = 0;
  for (let i = 0; i < rels.size; i++) {
    if ((i & 63) === 0) ctx.budget.tick();
    if (relT.length > 0 && !all(relT, i)) continue;
    const a = start[i]!;
    const b = end[i]!;
    if (fwd && passes(fm, a) && passes(tm, b)) {
      from[n] = a;
      to[n] = b;
      rel[n++] = i;
    }
    if (back && !(fwd && a === b) && passes(fm, b) && passes(tm, a)) {
      from[n] = b;
      to[n] = a;
      rel[n++] = i;
    }
  }
  rows.n = n;
  return rows;
}

/** A pattern predicate on an end as a test of its node slot: from relationship columns, else once per slot from adjacency. */
export function existsTest(x: ExistsTest, nodes: NodeColumns, ctx: EvalContext): Test | undefined {
  const g = ctx.graph;
  // Kept across queries while the graph keeps the columns (optional-hop.ts).
  const kept = keptDegrees(x, nodes, ctx);
  if (kept) return (slot) => kept[slot]! > 0 !== x.anti;
  const m = members(x.labels, nodes, ctx);
  if (m === null) return undefined;
  // Every slot at once from the relationship columns of the types, when the graph has them.
  const rels = g.scanRelationshipColumns?.(x.types, []);
  if (rels) {
    const k = degreesOver(rels, x.direction, m, nodes.size, ctx);
    return (slot) => k[slot]! > 0 !== x.anti;
  }
  if (!g.adjacent) return undefined;
  const memo = new Int8Array(nodes.size).fill(-1);
  const adjacent = g.adjacent.bind(g);
  let unknown = false;
  const test = (slot: number) => {
    let v = memo[slot]!;
    if (v < 0) {
      const far = adjacent(slot, x.direction, x.types);
      if (!far) unknown = true;
      let found = false;
      for (let i = 0; far && i < far.length && !found; i++) found = !m || m[far[i]!] === 1;
      v = memo[slot] = found !== x.anti ? 1 : 0;
    }
    return v === 1;
  };
  // A graph that has adjacency for one node has it for all: checked on the first slot asked.
  return (slot) => {
    const r = test(slot);
    if (unknown) throw new Error('GraphReader.adjacent answered undefined for a node');
    return r;
  };
}

/** A grouping key: its code per row (-1: null), how many codes, and the value of a code. */
interface Key extends GroupKey {
  item: ExpandItem;
  size: number;
  value: (code: number) => Value;
}

function keyOf(it: ExpandItem, rows: Rows, rels: RelationshipColumns, nodes: NodeColumns): Key | undefined {
  const sel = (side: Side) => rows[side];
  if (it.kind === 'node') {
    if (!nodes.node) return undefined;
    const s = sel(it.side);
    const node = nodes.node;
    return { item: it, slots: s, codes: undefined, size: nodes.size, value: (c) => node(c), stride: 0 };
  }
  const c =
    it.kind === 'type'
      ? rels.type
      : it.kind === 'key'
        ? (ownValue(it.side === 'rel' ? rels.columns : nodes.columns, it.key) as Column | undefined)
        : undefined;
  if (c?.kind !== 'dict') return undefined;
  const s = sel(it.kind === 'key' ? it.side : 'rel');
  const { codes, dict } = c;
  return { item: it, slots: s, codes, size: dict.length, value: (k) => dict[k]!, stride: 0 };
}

/** Group ids and per-group outputs of the kept rows (also a chain's matches, chain-columns.ts). */
export function aggregate(
  op: Pick<ExpandAgg, 'items' | 'bounded'>,
  rows: Rows,
  rels: RelationshipColumns,
  nodes: NodeColumns,
  ctx: EvalContext,
  weights: Weights | undefined,
): Groups | undefined {
  const items = op.items;
  const keys: Key[] = [];
  let space = 1;
  for (const it of items) {
    if (it.kind !== 'key' && it.kind !== 'node' && it.kind !== 'type') continue;
    const k = keyOf(it, rows, rels, nodes);
    if (!k) return undefined;
    k.stride = space;
    space *= k.size + 1;
    if (space > Number.MAX_SAFE_INTEGER) return undefined;
    keys.push(k);
  }
  // The group ids borrowed (lent-arrays.ts): read only until the outputs are made.
  const n = rows.n;
  const lentGid = borrowInt32(n);
  try {
    return groupAndAggregate(op, rows, rels, nodes, ctx, weights, keys, space, lentGid.subarray(0, n));
  } finally {
    giveBack(lentGid);
  }
}

function groupAndAggregate(
  op: Pick<ExpandAgg, 'items' | 'bounded'>,
  rows: Rows,
  rels: RelationshipColumns,
  nodes: NodeColumns,
  ctx: EvalContext,
  weights: Weights | undefined,
  keys: Key[],
  /** The combined keys' range (each key's size + 1, multiplied). */
  space: number,
  gid: Int32Array,
): Groups | undefined {
  const items = op.items;
  const firsts = groupIds(keys, rows.n, space, gid, ctx, op.bounded === true);
  // No grouping key: one group, even over no rows (count 0, avg null).
  if (keys.length === 0 && firsts.length === 0) {
    firsts.keys[0] = 0;
    firsts.length = 1;
  }
  const groups = firsts.length;
  const outputs: ((g: number) => Value)[] = [];
  for (const it of items) {
    const k = keys.find((x) => x.item === it);
    if (k) {
      outputs.push((g) => {
        const code = Math.floor(firsts.keys[g]! / k.stride) % (k.size + 1);
        return code === 0 ? null : k.value(code - 1);
      });
      continue;
    }
    const out = aggregateOf(it, rows, gid, groups, rels, nodes, weights, ctx);
    if (!out) return undefined;
    outputs.push(out);
  }
  const row = (g: number): Row => {
    const r: Row = {};
    for (let i = 0; i < items.length; i++) setOwn(r, items[i]!.name, outputs[i]!(g));
    return r;
  };
  return { groups, outputs, row };
}

function aggregateOf(
  it: ExpandItem,
  rows: Rows,
  gid: Int32Array,
  groups: number,
  rels: RelationshipColumns,
  nodes: NodeColumns,
  weights: Weights | undefined,
  ctx: EvalContext,
): ((g: number) => Value) | undefined {
  if (it.kind === 'count') return countRows(gid, groups, weights?.w);
  if (it.kind === 'hopCount') return weights && countRows(gid, groups, weights.k);
  if (it.kind === 'distinct') {
    const seen = new Set<number>();
    const counts = zeroedFloat64(groups);
    const s = rows[it.side];
    for (let r = 0; r < gid.length; r++) {
      const k = gid[r]! * nodes.size + s[r]!;
      if (!seen.has(k)) {
        seen.add(k);
        counts[gid[r]!]!++;
      }
    }
    return (g) => BigInt(counts[g]!);
  }
  if (it.kind !== 'agg') return undefined;
  const c = ownValue(it.side === 'rel' ? rels.columns : nodes.columns, it.key) as Column | undefined;
  return accumulate(it, c, gid, groups, rows[it.side].subarray(0, gid.length), weights?.w, ctx.budget);
}
