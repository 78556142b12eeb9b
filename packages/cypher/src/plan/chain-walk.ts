// A chain of fixed hops from a scan (chain-columns.ts), run: walked over integers (the kept slot adjacency of each
// hop's types, narrowed to the far end's labels), relationship uniqueness a test on relationship slots, each row
// read from the node columns at the chain's slots. No node (unless returned), relationship or intermediate row is
// built. The walk is depth first (each node's relationships in slot order) and resumable: rows come a chunk at a
// time, so a LIMIT above stops it and one node with a huge fan-out is never held whole. An aggregation collects
// two slots per match and groups them over the columns as ColumnarExpandAggregate does.
import { Held } from '../budget.js';
import type { Column } from '../columns.js';
import { evaluate, lookup, type Row } from '../eval.js';
import { GraphNode, ownValue, setOwn, type Value } from '../values.js';
import { chunked } from './chunked.js';
import { aggregate, existsTest, type Test } from './columnar-expand.js';
import { columnTest, selectSlots } from './column-filters.js';
import { existsTests, reader } from './columnar.js';
import { members } from './exists.js';
import { narrowed } from './labelled-adjacency.js';
import type { Op } from './operators.js';
import { hopDegrees, weigh } from './optional-hop.js';
import type { Runner } from './physical.js';
import { excludedSlots, slotAdjacency, typeMask } from './var-paths.js';
import { lendingScope } from './lent-arrays.js';

type Chain = Extract<Op, { op: 'ChainProjection' }>;

/** The rows, or undefined when the graph cannot give the columns, slots or adjacency (the fallback runs). */
export function chainRows(op: Chain, runner: Runner, arg: Row = {}): Iterable<Row> | undefined {
  if (op.aggregate) return chainAggregate(op, op.aggregate, runner, arg);
  if (op.count) {
    const walk = walkChain(op, runner, arg);
    if (!walk) return undefined;
    let total = 0;
    while (walk.step()) total++;
    const r: Row = {};
    for (const name of op.count) setOwn(r, name, BigInt(total));
    return [r];
  }
  return matches(op, runner, arg, (read) => (slots) => {
    const r: Row = {};
    for (const c of read) setOwn(r, c.name, c.value(slots[c.at]!));
    return r;
  });
}

/** The aggregation's rows: every match's two slots collected, then grouped and accumulated over the columns. */
function chainAggregate(op: Chain, agg: NonNullable<Chain['aggregate']>, runner: Runner, arg: Row): Row[] | undefined {
  const g = runner.ctx.graph;
  const keysOf = (rel: boolean) => agg.items.flatMap((i) => ('key' in i && (i.side === 'rel') === rel ? [i.key] : []));
  const nodes = g.scanColumns?.(undefined, [...new Set(keysOf(false))]);
  const walk = nodes && walkChain(op, runner, arg);
  if (!walk || !nodes) return undefined;
  const none = new Int32Array(0);
  // The relationship's columns in the walk's space, where its slots are numbered.
  const relAt = agg.rel === undefined ? -1 : op.hops.findIndex((h) => h.rel === agg.rel);
  const rels =
    relAt < 0
      ? { size: 0, start: none, end: none, type: { kind: 'dict' as const, codes: none, dict: [] }, columns: {} }
      : g.scanRelationshipColumns!(walk.space, [...new Set(keysOf(true))]);
  if (!rels) return undefined;
  const fromAt = walk.nodes.indexOf(agg.from);
  const toAt = walk.nodes.indexOf(agg.to);
  let from: Int32Array = new Int32Array(1024);
  let to: Int32Array = new Int32Array(1024);
  let rel: Int32Array = relAt < 0 ? none : new Int32Array(1024);
  let n = 0;
  // The slot columns are held against the memory budget while they grow.
  const held = new Held(runner.ctx.budget, 'aggregation');
  try {
    while (walk.step()) {
      if (n === from.length) {
        held.add((relAt < 0 ? 8 : 12) * n);
        from = grow(from);
        to = grow(to);
        if (relAt >= 0) rel = grow(rel);
      }
      if (relAt >= 0) rel[n] = walk.rels[relAt]!;
      from[n] = walk.slots[fromAt]!;
      to[n++] = walk.slots[toAt]!;
    }
  } finally {
    held.release();
  }
  // A node grouped on is built from its slot (walkChain checked the graph has nodeAt).
  const cols = nodes.node ? nodes : { ...nodes, node: (s: number) => g.nodeAt!(s) };
  const rows = { n, from, to, rel };
  const degree = agg.optional && hopDegrees(agg.optional, cols, runner.ctx);
  if (agg.optional && !degree) return undefined;
  const weights = degree ? weigh(rows[agg.optional!.side], n, degree, runner.ctx) : undefined;
  // The per-group accumulators lent until the rows are made (lendingScope).
  return lendingScope(() => {
    const groups = aggregate(agg, rows, rels, cols, runner.ctx, weights);
    if (!groups) return undefined;
    const out: Row[] = [];
    for (let i = 0; i < groups.groups; i++) out.push(groups.row(i));
    return out;
  });
}

function grow(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** The result's tuples (`names` in order, each one of the items), lazily. */
export function chainTuples(op: Chain, runner: Runner, names: string[]): Iterable<Value[]> | undefined {
  if (op.count) return undefined;
  return matches(op, runner, {}, (read) => {
    const ordered = names.map((n) => read.find((c) => c.name === n)!);
    return (slots) => ordered.map((c) => c.value(slots[c.at]!));
  });
}

type Read = { name: string; at: number; value: (slot: number) => Value }[];

/** Per item of the chain, its name, its node's place in the walk's slots and how its value is read from a slot. */
export function chainReads(op: Chain, runner: Runner, nodes: string[]): Read | undefined {
  const g = runner.ctx.graph;
  const keys = [...new Set(op.items.flatMap((i) => (i.key === null ? [] : [i.key])))];
  const cols = g.scanColumns?.(undefined, keys);
  if (!cols || !g.nodeAt) return undefined;
  const read: Read = [];
  for (const i of op.items) {
    const at = nodes.indexOf(i.variable);
    // An OPTIONAL MATCH's end found nothing: slot -1, its node and properties null.
    if (i.key === null) {
      read.push({ name: i.name, at, value: (s) => (s < 0 ? null : g.nodeAt!(s)) });
      continue;
    }
    const c = ownValue(cols.columns, i.key) as Column | undefined;
    if (!c) return undefined;
    const value = reader(c);
    read.push({ name: i.name, at, value: (s) => (s < 0 ? null : value(s)) });
  }
  return read;
}

function matches<T>(
  op: Chain,
  runner: Runner,
  arg: Row,
  maker: (read: Read) => (slots: Int32Array) => T,
): Iterable<T> | undefined {
  const walk = walkChain(op, runner, arg);
  const read = walk && chainReads(op, runner, walk.nodes);
  if (!walk || !read) return undefined;
  const row = maker(read);
  return chunked((into) => {
    while (into.length < CHUNK) {
      if (!walk.step()) return false;
      into.push(row(walk.slots));
    }
    return true;
  });
}

/**
 * The chain's matches, stepped: each `step()` finds the next and fills `slots` (`slots[0]` the anchor's,
 * `slots[h + 1]` hop h's far end), false when there are no more. Undefined when the graph cannot give the
 * columns, slots or adjacency.
 */
export function walkChain(
  op: Chain,
  runner: Runner,
  arg: Row = {},
): { nodes: string[]; slots: Int32Array; rels: Int32Array; space: string[]; step: () => boolean } | undefined {
  const ctx = runner.ctx;
  const g = ctx.graph;
  if (!g.scanColumns || !g.nodeAt || !g.slotOf || !g.scanRelationshipColumns) return undefined;
  const a = op.anchor;
  const scan = g.scanColumns(a.label, [...new Set(a.filters.map((f) => f.key))]);
  if (!scan) return undefined;
  const tests = existsTests(a.exists, scan, ctx);
  const m = op.anchorLabels.length > 0 ? members(runner, op.anchorLabels) : undefined;
  if (!tests || m === null) return undefined;
  if (m) tests.push((s) => m[s] === 1);
  const nodes = [a.variable, ...op.hops.map((h) => h.to)];
  const test = nodeTests(op, nodes, ctx);
  const space =
    op.rows?.space ?? (op.hops.some((h) => h.types.length === 0) ? [] : [...new Set(op.hops.flatMap((h) => h.types))]);
  const relTest = relTests(op, space, ctx);
  if (!test || !relTest) return undefined;
  if (test[0]) tests.push(test[0]);
  const from = op.rows && anchorRows(op, runner, arg, tests);
  if (op.rows && !from) return undefined;
  const sel =
    op.relAnchor || from ? undefined : selectSlots(scan, a.filters, ctx, tests, undefined, { label: a.label });
  if (!sel && !op.relAnchor && !from) return undefined;
  // One relationship space for every hop (`space`), so that relationship slots compare across hops.
  const { hops } = op;
  const adjs: { offsets: Int32Array; rel: Int32Array; far: Int32Array }[] = [];
  for (const h of hops) {
    const full = slotAdjacency(ctx, h.types, h.direction, space);
    const hm = h.toLabels.length > 0 ? members(runner, h.toLabels) : undefined;
    if (!full || hm === null) return undefined;
    adjs.push(hm ? narrowed(full, h.toLabels, hm) : full);
  }
  const H = hops.length;
  const fromAt = hops.map((h) => nodes.indexOf(h.from));
  const apart = hops.map((h) => h.distinctFrom.map((r) => hops.findIndex((k) => k.rel === r)));
  const slots = new Int32Array(H + 1);
  const rels = new Int32Array(H);
  const pos = new Int32Array(H);
  const stop = new Int32Array(H);
  const open = (h: number) => {
    const s = slots[fromAt[h]!]!;
    const off = adjs[h]!.offsets;
    pos[h] = s + 1 < off.length ? off[s]! : 0;
    stop[h] = s + 1 < off.length ? off[s + 1]! : 0;
    if (h === H - 1) found = false;
  };
  // A RelationshipScan's chain: its first hop's matches from the relationship columns, ends tested on slots.
  const first = op.relAnchor ? firstHops(op, runner, space, [a.label!, ...op.anchorLabels].filter(Boolean)) : undefined;
  if (op.relAnchor && !first) return undefined;
  const n = first ? first.rel.length : sel ? sel.length : 0;
  // The last hop an OPTIONAL MATCH's: a prefix it finds nothing for gives one match with its end at slot -1.
  const optional = hops[H - 1]!.optional === true;
  let found = false;
  let i = 0;
  let level = -1;
  const step = (): boolean => {
    for (;;) {
      ctx.budget.tick();
      if (level < 0) {
        if (from) {
          const s = from.next();
          if (s < 0) return false;
          slots[0] = s;
          level = 0;
          open(0);
          continue;
        }
        if (i >= n) return false;
        if (first) {
          slots[0] = first.from[i]!;
          slots[1] = first.to[i]!;
          rels[0] = first.rel[i++]!;
          if ((test[0] && !test[0](slots[0]!)) || (test[1] && !test[1](slots[1]!))) continue;
          if (relTest[0] && !relTest[0](rels[0]!)) continue;
          if (H === 1) return true;
          level = 1;
        } else {
          slots[0] = sel![i++]!;
          level = 0;
        }
        open(level);
      }
      if (pos[level]! >= stop[level]!) {
        if (optional && level === H - 1 && !found) {
          found = true;
          slots[H] = -1;
          return true;
        }
        level--;
        continue;
      }
      const adj = adjs[level]!;
      const j = pos[level]!++;
      const r = adj.rel[j]!;
      const rt = relTest[level];
      if (rt && !rt(r)) continue;
      let clash = false;
      for (const k of apart[level]!) if (rels[k] === r) clash = true;
      if (from) for (const k of from.apart) if (k === r) clash = true;
      if (clash) continue;
      const t = test[level + 1];
      if (t && !t(adj.far[j]!)) continue;
      rels[level] = r;
      slots[level + 1] = adj.far[j]!;
      if (level + 1 === H) {
        found = true;
        return true;
      }
      open(++level);
    }
  };
  return { nodes, slots, rels, space, step };
}

/**
 * A rows anchor's slots (ChainProjection.rows): each row of the input's anchor node, tested, its relationship
 * slots (`apart`) set as it is taken; -1 when the rows are done. Undefined when the first row's relationships are
 * not slots (the expansion ran over relationships): the fallback runs.
 */
function anchorRows(
  op: Chain,
  runner: Runner,
  arg: Row,
  tests: Test[],
): { next: () => number; apart: readonly number[] } | undefined {
  const g = runner.ctx.graph;
  const { input, apart: vars } = op.rows!;
  const it = runner.rows(input, arg)[Symbol.iterator]();
  let row = it.next();
  if (!row.done && !excludedSlots(row.value, vars)) return undefined;
  const out = {
    apart: [] as readonly number[],
    next(): number {
      for (; !row.done; row = it.next()) {
        const node = lookup(row.value, op.anchor.variable);
        const s = node instanceof GraphNode ? g.slotOf!(node) : undefined;
        if (s === undefined || !tests.every((t) => t(s))) continue;
        out.apart = excludedSlots(row.value, vars)!;
        row = it.next();
        return s;
      }
      return -1;
    },
  };
  return out;
}

/**
 * Per chain node, the test of its slot (its column filters and pattern predicates), or undefined where it has
 * none; undefined as a whole when the columns cannot answer one exactly.
 */
function nodeTests(op: Chain, nodes: string[], ctx: Runner['ctx']): (Test | undefined)[] | undefined {
  const filters = op.filters ?? [];
  const cols =
    filters.length > 0 ? ctx.graph.scanColumns!(undefined, [...new Set(filters.map((f) => f.key))]) : undefined;
  const all = ctx.graph.scanColumns!(undefined, []);
  if ((filters.length > 0 && !cols) || !all) return undefined;
  const out: (Test | undefined)[] = [];
  for (const v of nodes) {
    const tests: Test[] = [];
    for (const f of filters.filter((x) => x.variable === v)) {
      const c = ownValue(cols!.columns, f.key) as Column | undefined;
      const t = c && columnTest(c, f.op, evaluate(f.value, {}, ctx), ctx);
      if (!t) return undefined;
      tests.push(t);
    }
    for (const x of (op.exists ?? []).filter((e) => e.variable === v)) {
      const t = existsTest(x, all, ctx);
      if (!t) return undefined;
      tests.push(t);
    }
    out.push(tests.length === 0 ? undefined : tests.length === 1 ? tests[0] : (s) => tests.every((t) => t(s)));
  }
  return out;
}

/** Per hop, the test of its relationship's slot in `space` (its column comparisons), or undefined where none. */
function relTests(op: Chain, space: string[], ctx: Runner['ctx']): (Test | undefined)[] | undefined {
  const keys = [...new Set(op.hops.flatMap((h) => (h.relFilters ?? []).map((f) => f.key)))];
  if (keys.length === 0) return op.hops.map(() => undefined);
  const cols = ctx.graph.scanRelationshipColumns!(space, keys);
  if (!cols) return undefined;
  const out: (Test | undefined)[] = [];
  for (const h of op.hops) {
    const tests: Test[] = [];
    for (const f of h.relFilters ?? []) {
      const c = ownValue(cols.columns, f.key) as Column | undefined;
      const t = c && columnTest(c, f.op, evaluate(f.value, {}, ctx), ctx);
      if (!t) return undefined;
      tests.push(t);
    }
    out.push(tests.length === 0 ? undefined : tests.length === 1 ? tests[0] : (s) => tests.every((t) => t(s)));
  }
  return out;
}

/** The first hop's matches from the relationship columns of `space`, in relationship order, ends tested. */
function firstHops(
  op: Chain,
  runner: Runner,
  space: string[],
  fromLabels: string[],
): { from: Int32Array; to: Int32Array; rel: Int32Array } | undefined {
  const h = op.hops[0]!;
  const cols = runner.ctx.graph.scanRelationshipColumns!(space, []);
  const mask = cols && typeMask(cols, h.types, space);
  const fm = fromLabels.length > 0 ? members(runner, fromLabels) : undefined;
  const tm = h.toLabels.length > 0 ? members(runner, h.toLabels) : undefined;
  if (!cols || mask === null || fm === null || tm === null) return undefined;
  const from: number[] = [];
  const to: number[] = [];
  const rel: number[] = [];
  const add = (a: number, b: number, r: number) => {
    if ((fm && fm[a] !== 1) || (tm && tm[b] !== 1)) return;
    from.push(a);
    to.push(b);
    rel.push(r);
  };
  for (let r = 0; r < cols.size; r++) {
    if ((r & 1023) === 0) runner.ctx.budget.tick(1024);
    if (mask && mask[r] !== 1) continue;
    const a = cols.start[r]!;
    const b = cols.end[r]!;
    if (h.direction !== 'in') add(a, b, r);
    if (h.direction === 'in' || (h.direction === 'both' && a !== b)) add(b, a, r);
  }
  return { from: Int32Array.from(from), to: Int32Array.from(to), rel: Int32Array.from(rel) };
}

/** Rows made per chunk: a LIMIT above stops within one chunk's walk. */
const CHUNK = 256;
