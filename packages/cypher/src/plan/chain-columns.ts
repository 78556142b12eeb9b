// A chain of fixed hops from a scan, projected to its nodes' properties (`MATCH (a:Drug)<-[r]-(b:Disease)-[s]->(c)
// RETURN c.name, a.claim_count`): walked over integers (the kept slot adjacency of each hop's types, narrowed to
// the far end's labels), relationship uniqueness a test on relationship slots, and each row read from the node
// columns at the chain's slots. No node (unless returned), relationship or intermediate row is built. The walk is
// depth first, as the row-by-row plan's nested expansions, and resumable: rows come a chunk at a time, so a LIMIT
// above stops it and one node with a huge fan-out is never held whole.
import type { Column } from '../columns.js';
import type { Row } from '../eval.js';
import { ownValue, setOwn, type Value } from '../values.js';
import { chunked } from './chunked.js';
import { existsTests, reader, selectSlots } from './columnar.js';
import { members } from './exists.js';
import { narrowed } from './labelled-adjacency.js';
import type { Runner } from './physical.js';
import { findAggregates } from '../aggregate.js';
import type { Expr } from '../ast.js';
import { isAggregate } from '../interpret/project.js';
import { mapExpr } from './exprs.js';
import { type EndsCount, type Item, mapInputs, type Op, type Predicate } from './operators.js';
import { propOf } from './rewrite.js';
import { slotAdjacency, typeMask } from './var-paths.js';

type Chain = Extract<Op, { op: 'ChainProjection' }>;
type Hop = Chain['hops'][number];
type ColumnScan = Extract<Op, { op: 'NodeColumnScan' }>;

/**
 * A whole-plan pass over Expands and label Filters down to a scan with nothing before it, every relationship read
 * by nothing but the chain's uniqueness: a Projection (not extending its input) or an aggregation over it reads
 * the chain's nodes and their properties from a ChainProjection (the properties as columns, under planner names);
 * a count of the chain's last hop counts the walk.
 */
export function chainColumns(op: Op): Op {
  const o = mapInputs(op, chainColumns);
  if (o.op === 'ExpandCount' && o.expand.op === 'Expand') {
    // Counted per end (`ends`): only label tests of the ends, as a Filter over the hop.
    const ends = o.ends ? endLabels(o.ends) : [];
    if (!ends) return o;
    const hop: Op = { ...o.expand, input: o.input };
    const c = chainOf(ends.length > 0 ? { op: 'Filter', input: hop, predicates: ends, est: o.est } : hop);
    return c ? { op: 'ChainProjection', ...c.shape, items: [], count: o.names, fallback: o, est: o.est } : o;
  }
  if ((o.op !== 'Projection' && o.op !== 'Aggregate') || o.keep || (o.op === 'Aggregate' && o.hop)) return o;
  const c = chainOf(o.input);
  if (!c) return o;
  const direct = o.op === 'Projection' ? directItems(o.items, c.nodes) : undefined;
  if (direct) return { op: 'ChainProjection', ...c.shape, items: direct, fallback: o, est: o.est };
  const reads = new Map<string, Chain['items'][number]>();
  const lift = (e: Expr): Expr | undefined => {
    let ok = true;
    const out = mapExpr(e, (x) => {
      if (!LIFTED.has(x.kind)) ok = false;
      const v = x.kind === 'prop' && x.target.kind === 'var' ? x.target.name : undefined;
      if (v !== undefined && c.nodes.includes(v)) {
        const name = ` ${v}.${(x as { key: string }).key}`;
        reads.set(name, { name, variable: v, key: (x as { key: string }).key });
        return { kind: 'var', name, pos: x.pos };
      }
      if (x.kind === 'var') {
        if (c.nodes.includes(x.name)) reads.set(x.name, { name: x.name, variable: x.name, key: null });
        else ok = false;
      }
      return undefined;
    });
    return ok ? out : undefined;
  };
  const items: Item[] = [];
  for (const it of o.items) {
    const expr = lift(it.expr);
    if (!expr) return o;
    items.push({ name: it.name, expr });
  }
  // Row by row, the chain's reads are projected from the expansions' rows under the same names.
  const read = [...reads.values()];
  const fallback: Op = {
    op: 'Projection',
    input: o.input,
    keep: false,
    items: read.map((r) => {
      const v: Expr = { kind: 'var', name: r.variable, pos: 0 };
      return { name: r.name, expr: r.key === null ? v : { kind: 'prop', target: v, key: r.key, pos: 0 } };
    }),
    est: o.input.est,
  };
  const input: Op = { op: 'ChainProjection', ...c.shape, items: read, fallback, est: o.input.est };
  if (o.op === 'Projection') return { ...o, items, input };
  const keys = o.keys.map((k) => items[o.items.indexOf(k)]!);
  const aggregates: Extract<Expr, { kind: 'call' }>[] = [];
  for (const it of items) findAggregates(it.expr, aggregates, isAggregate);
  return { ...o, input, items, keys, aggregates };
}

/** The label predicates of a count's per-end operators, when they are nothing else. */
function endLabels(ends: EndsCount): Predicate[] | undefined {
  if (ends.hop || ends.hopNames.length > 0) return undefined;
  const out: Predicate[] = [];
  let x = ends.inner;
  while (x.op === 'Filter' && x.predicates.every((p) => p.kind === 'labels')) {
    out.push(...x.predicates);
    x = x.input;
  }
  return x.op === 'Argument' ? out : undefined;
}

// Kinds whose every variable is an outer one (no scoping expression, pattern or map projection).
const LIFTED = new Set<Expr['kind']>([
  'literal',
  'param',
  'var',
  'list',
  'map',
  'prop',
  'index',
  'slice',
  'hasLabels',
  'unary',
  'binary',
  'compare',
  'isNull',
  'call',
  'case',
]);

/** Items that are each a chain node or one of its properties, as the chain's reads; else undefined. */
function directItems(its: Item[], nodes: string[]): Chain['items'] | undefined {
  const items: Chain['items'] = [];
  for (const it of its) {
    const e = it.expr;
    const variable = e.kind === 'var' ? e.name : nodes.find((v) => propOf(e, v) !== undefined);
    if (variable === undefined || !nodes.includes(variable)) return undefined;
    items.push({ name: it.name, variable, key: e.kind === 'var' ? null : propOf(e, variable)! });
  }
  return items;
}

type ChainShape = { shape: Pick<Chain, 'anchor' | 'anchorLabels' | 'hops' | 'relAnchor'>; nodes: string[] };

/** The chain of hops and label tests down from `top` to its scan, or undefined when it is not one. */
function chainOf(top: Op): ChainShape | undefined {
  const labels = new Map<string, string[]>();
  const tested = (v: string, ls: readonly string[]) => labels.set(v, [...(labels.get(v) ?? []), ...ls]);
  const hops: Hop[] = [];
  let relAnchor = false;
  let x = top;
  for (;;) {
    if (x.op === 'Filter') {
      for (const p of x.predicates) {
        const e = p.kind === 'expr' ? p.expr : undefined;
        if (p.kind === 'labels') tested(p.variable, p.labels);
        else if (e?.kind === 'hasLabels' && e.target.kind === 'var') tested(e.target.name, e.labels);
        else return undefined;
      }
    } else if (x.op === 'Expand') {
      if (x.into || x.relBound || x.adjacency?.relFilters) return undefined;
      const { from, to, rel, direction, types, distinctFrom } = x;
      hops.unshift({ from, to, rel, direction, types, distinctFrom, toLabels: [] });
      if (x.adjacency) tested(to, x.adjacency.toLabels);
    } else break;
    x = x.input;
  }
  // A pattern started at a relationship type: its start node scanned, the relationship its first hop.
  if (x.op === 'RelationshipScan' && x.input.op === 'Argument' && !x.slots) {
    const { from, to, rel, direction, types, distinctFrom } = x;
    hops.unshift({ from, to, rel, direction, types, distinctFrom, toLabels: [] });
    tested(from, x.labels?.from ?? []);
    tested(to, x.labels?.to ?? []);
    const label = labels.get(from)?.[0];
    x = { op: 'NodeByLabelScan', input: x.input, variable: from, label: label!, est: x.est };
    if (label === undefined) x = { op: 'NodeScan', input: x.input, variable: from, est: x.est };
    relAnchor = true;
  }
  const anchor = anchorOf(x);
  if (hops.length === 0 || !anchor) return undefined;
  if (x.op !== 'NodeColumnScan') tested(anchor.variable, (x as { where?: { labels: string[] } }).where?.labels ?? []);
  const nodes = [anchor.variable];
  for (const h of hops) {
    if (!nodes.includes(h.from) || nodes.includes(h.to)) return undefined;
    if (!h.distinctFrom.every((r) => hops.some((k) => k.rel === r && k !== h))) return undefined;
    nodes.push(h.to);
  }
  if (![...labels.keys()].every((v) => nodes.includes(v))) return undefined;
  for (const h of hops) h.toLabels = [...new Set(labels.get(h.to) ?? [])];
  const anchorLabels = [...new Set(labels.get(anchor.variable) ?? [])].filter((l) => l !== anchor.label);
  return { shape: { anchor, anchorLabels, hops, ...(relAnchor ? { relAnchor } : {}) }, nodes };
}

/** The chain's start as a column scan: a label or full scan over the Argument, or a column scan as it is. */
function anchorOf(x: Op): ColumnScan | undefined {
  if (x.op === 'NodeColumnScan') return x.columns || x.order || x.distinct || x.limit || x.skip ? undefined : x;
  if ((x.op !== 'NodeScan' && x.op !== 'NodeByLabelScan') || x.input.op !== 'Argument' || x.where?.props) return;
  const label = x.op === 'NodeByLabelScan' ? x.label : undefined;
  return { op: 'NodeColumnScan', variable: x.variable, label, filters: [], fallback: x, est: x.est };
}

/** The rows, or undefined when the graph cannot give the columns, slots or adjacency (the fallback runs). */
export function chainRows(op: Chain, runner: Runner): Iterable<Row> | undefined {
  if (op.count) {
    const walk = walkChain(op, runner);
    if (!walk) return undefined;
    let total = 0;
    while (walk.step()) total++;
    const r: Row = {};
    for (const name of op.count) setOwn(r, name, BigInt(total));
    return [r];
  }
  return matches(op, runner, (read) => (slots) => {
    const r: Row = {};
    for (const c of read) setOwn(r, c.name, c.value(slots[c.at]!));
    return r;
  });
}

/** The result's tuples (`names` in order, each one of the items), lazily. */
export function chainTuples(op: Chain, runner: Runner, names: string[]): Iterable<Value[]> | undefined {
  if (op.count) return undefined;
  return matches(op, runner, (read) => {
    const ordered = names.map((n) => read.find((c) => c.name === n)!);
    return (slots) => ordered.map((c) => c.value(slots[c.at]!));
  });
}

type Read = { name: string; at: number; value: (slot: number) => Value }[];

function matches<T>(
  op: Chain,
  runner: Runner,
  maker: (read: Read) => (slots: Int32Array) => T,
): Iterable<T> | undefined {
  const g = runner.ctx.graph;
  const keys = [...new Set(op.items.flatMap((i) => (i.key === null ? [] : [i.key])))];
  const cols = g.scanColumns?.(undefined, keys);
  const walk = cols && walkChain(op, runner);
  if (!walk || !cols) return undefined;
  const read: Read = [];
  for (const i of op.items) {
    const at = walk.nodes.indexOf(i.variable);
    if (i.key === null) {
      read.push({ name: i.name, at, value: (s) => g.nodeAt!(s) });
      continue;
    }
    const c = ownValue(cols.columns, i.key) as Column | undefined;
    if (!c) return undefined;
    read.push({ name: i.name, at, value: reader(c) });
  }
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
function walkChain(op: Chain, runner: Runner): { nodes: string[]; slots: Int32Array; step: () => boolean } | undefined {
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
  const sel = op.relAnchor ? undefined : selectSlots(scan, a.filters, ctx, tests);
  if (!sel && !op.relAnchor) return undefined;
  // One relationship space for every hop, so that relationship slots compare across hops.
  const { hops } = op;
  const space = hops.some((h) => h.types.length === 0) ? [] : [...new Set(hops.flatMap((h) => h.types))];
  const adjs: { offsets: Int32Array; rel: Int32Array; far: Int32Array }[] = [];
  for (const h of hops) {
    const full = slotAdjacency(ctx, h.types, h.direction, space);
    const hm = h.toLabels.length > 0 ? members(runner, h.toLabels) : undefined;
    if (!full || hm === null) return undefined;
    adjs.push(hm ? narrowed(full, h.toLabels, hm) : full);
  }
  const nodes = [a.variable, ...hops.map((h) => h.to)];
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
  };
  // A RelationshipScan's chain: its first hop's matches from the relationship columns, ends tested on slots.
  const first = op.relAnchor ? firstHops(op, runner, space, [a.label!, ...op.anchorLabels].filter(Boolean)) : undefined;
  if (op.relAnchor && !first) return undefined;
  const n = first ? first.rel.length : sel!.length;
  let i = 0;
  let level = -1;
  const step = (): boolean => {
    for (;;) {
      ctx.budget.tick();
      if (level < 0) {
        if (i >= n) return false;
        if (first) {
          slots[0] = first.from[i]!;
          slots[1] = first.to[i]!;
          rels[0] = first.rel[i++]!;
          if (H === 1) return true;
          level = 1;
        } else {
          slots[0] = sel![i++]!;
          level = 0;
        }
        open(level);
      }
      if (pos[level]! >= stop[level]!) {
        level--;
        continue;
      }
      const adj = adjs[level]!;
      const j = pos[level]!++;
      const r = adj.rel[j]!;
      let clash = false;
      for (const k of apart[level]!) if (rels[k] === r) clash = true;
      if (clash) continue;
      rels[level] = r;
      slots[level + 1] = adj.far[j]!;
      if (level + 1 === H) return true;
      open(++level);
    }
  };
  return { nodes, slots, step };
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
