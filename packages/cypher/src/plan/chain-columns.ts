// A chain of fixed hops from a scan, read over slots and node columns (ChainProjection; chain-walk.ts runs it):
// the rewrite. Expands and label tests down to a scan with nothing before it, whose relationships nothing reads but
// the MATCH's uniqueness, under a Projection (not extending its input), an aggregation or a count of the last hop.
import { findAggregates } from '../aggregate.js';
import type { Expr } from '../ast.js';
import { isAggregate } from '../interpret/project.js';
import { expandItem } from './expand-rewrite.js';
import { isHopCount } from './optional-hop.js';
import { mapExpr, varsOf } from './exprs.js';
import {
  type EndsCount,
  type ExpandItem,
  inputsOf,
  type Item,
  mapInputs,
  type Op,
  type Predicate,
} from './operators.js';
import { columnFilter, propOf, splitAnd } from './rewrite.js';
import { prefixFilters } from './seeks.js';
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
  // Outermost first: a chain taken whole, not cut at a WITH that a smaller chain below would end at.
  return chainAt(op) ?? mapInputs(op, chainColumns);
}

function chainAt(o: Op): Op | undefined {
  if (o.op === 'Top' && o.ties && o.reads) return topTiesChain(o, o.reads);
  if (o.op === 'ExpandCount' && o.expand.op === 'Expand') {
    // Counted per end (`ends`): only label tests of the ends, as a Filter over the hop.
    const ends = o.ends ? endLabels(o.ends) : [];
    if (!ends) return undefined;
    const hop: Op = { ...o.expand, input: o.input };
    const c = chainOf(ends.length > 0 ? { op: 'Filter', input: hop, predicates: ends, est: o.est } : hop);
    return c ? { op: 'ChainProjection', ...c.shape, items: [], count: o.names, fallback: o, est: o.est } : undefined;
  }
  if ((o.op !== 'Projection' && o.op !== 'Aggregate') || o.keep) return undefined;
  const c = chainOf(o.input);
  if (!c) return undefined;
  const direct = o.op === 'Projection' ? directItems(o.items, c.nodes) : undefined;
  if (direct) return { op: 'ChainProjection', ...c.shape, items: direct, fallback: o, est: o.est };
  const lifted = liftReads(o, c);
  // An aggregation over columns; where a value cannot be answered exactly over them (min/max of FLOATs), the
  // aggregation over the chain's rows, else row by row.
  const optional = c.shape.hops.some((h) => h.optional);
  const agg = o.op === 'Aggregate' && !optional ? columnItems(o, c) : undefined;
  if (agg) return { op: 'ChainProjection', ...c.shape, items: [], aggregate: agg, fallback: lifted ?? o, est: o.est };
  return lifted;
}

/**
 * A Top `ties` below an OPTIONAL MATCH (top-ties.ts) over a chain whose nodes are all the plan above reads: the
 * chain's rows carry those nodes and the order's keys (node properties, under planner names) as columns, and
 * chain-top.ts picks the rows to keep off the walk.
 */
function topTiesChain(o: Extract<Op, { op: 'Top' }>, reads: string[]): Op | undefined {
  const c = chainOf(o.input);
  if (!c) return undefined;
  const items: Item[] = reads.map((name) => ({ name, expr: { kind: 'var', name, pos: 0 } }));
  const order = [];
  for (const s of o.order) {
    const v = c.nodes.find((n) => propOf(s.expr, n) !== undefined);
    if (v === undefined) return undefined;
    const name = ` ${v}.${propOf(s.expr, v)}`;
    if (!items.some((i) => i.name === name)) items.push({ name, expr: s.expr });
    order.push({ ...s, expr: { kind: 'var' as const, name, pos: s.expr.pos } });
  }
  const direct = directItems(items, c.nodes);
  if (!direct) return undefined;
  const fallback: Op = { op: 'Projection', input: o.input, items, keep: false, est: o.input.est };
  return { ...o, order, input: { op: 'ChainProjection', ...c.shape, items: direct, fallback, est: o.input.est } };
}

/** `o` over a ChainProjection of the chain nodes and properties it reads (under planner names ` n.key`). */
function liftReads(o: Extract<Op, { op: 'Projection' | 'Aggregate' }>, c: ChainShape): Op | undefined {
  const reads = new Map<string, Chain['items'][number]>();
  // A folded OPTIONAL MATCH (`hop`) reads its node from each row: the chain gives it.
  const hop = o.op === 'Aggregate' ? o.hop?.variable : undefined;
  const binds = (o.op === 'Aggregate' && o.hop?.binds) || [];
  if (hop !== undefined) {
    if (!c.nodes.includes(hop)) return undefined;
    reads.set(hop, { name: hop, variable: hop, key: null });
  }
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
        // count(o) of the folded OPTIONAL MATCH: the aggregation counts it from the hop.
        else if (!binds.includes(x.name)) ok = false;
      }
      return undefined;
    });
    return ok ? out : undefined;
  };
  const items: Item[] = [];
  for (const it of o.items) {
    const expr = lift(it.expr);
    if (!expr) return undefined;
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

/**
 * An aggregation whose items read at most two of the chain's nodes, each item a grouping key or an aggregate
 * ColumnarExpandAggregate computes (with those two nodes as its ends), with at least one aggregate.
 */
function columnItems(o: Extract<Op, { op: 'Aggregate' }>, c: ChainShape): Chain['aggregate'] {
  // A folded OPTIONAL MATCH (`hop`): a multiplicity per match from its node's slot, count(o) its matches.
  const hop = o.hop;
  const read = new Set<string>(hop ? [hop.variable] : []);
  for (const it of o.items) {
    const vars = varsOf(it.expr);
    if (vars === 'late') return undefined;
    for (const v of vars) if (!hop?.binds.includes(v)) read.add(v);
  }
  // At most two chain nodes and one relationship of a (not optional) hop: `type(r)` and `r.key` read its columns.
  const rels = c.shape.hops.filter((h) => !h.optional).map((h) => h.rel);
  const relRead = [...read].filter((v) => rels.includes(v));
  const nodeRead = new Set([...read].filter((v) => !rels.includes(v)));
  if (![...nodeRead].every((v) => c.nodes.includes(v)) || nodeRead.size > 2 || relRead.length > 1) return undefined;
  const [from, to] = [...nodeRead, ...c.nodes.filter((v) => !nodeRead.has(v))] as [string, string];
  const rel = relRead[0];
  const items: ExpandItem[] = [];
  for (const it of o.items) {
    const x = isHopCount(it.expr, hop)
      ? { kind: 'hopCount' as const, name: it.name }
      : expandItem(it, { from, rel: rel ?? ' ', to }, CHAIN_FNS);
    if (!x || (rel === undefined && (x.kind === 'type' || ('side' in x && x.side === 'rel')))) return undefined;
    items.push(x);
  }
  if (items.every((i) => i.kind === 'key' || i.kind === 'node' || i.kind === 'type')) return undefined;
  const optional = hop && { ...hop, side: hop.variable === from ? ('from' as const) : ('to' as const) };
  const more = { ...(rel ? { rel } : {}), ...(o.bounded ? { bounded: true } : {}), ...(optional ? { optional } : {}) };
  return { from, to, items, ...more };
}

// AGG_FNS and collect: the walk gives the matches in the row-by-row plan's order, so each list is in its order.
const CHAIN_FNS: ReadonlySet<string> = new Set(['count', 'sum', 'avg', 'min', 'max', 'collect']);

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

type ChainShape = {
  shape: Pick<Chain, 'anchor' | 'anchorLabels' | 'hops' | 'relAnchor' | 'filters' | 'exists' | 'rows'>;
  nodes: string[];
};

/** The chain of hops and label tests down from `top` to its scan, or undefined when it is not one. */
function chainOf(top: Op): ChainShape | undefined {
  const labels = new Map<string, string[]>();
  const tested = (v: string, ls: readonly string[]) => labels.set(v, [...(labels.get(v) ?? []), ...ls]);
  const hops: Hop[] = [];
  const conjuncts: Expr[] = [];
  const exists: NonNullable<Chain['exists']> = [];
  let relAnchor = false;
  let x = top;
  for (;;) {
    if (x.op === 'Filter') {
      for (const p of x.predicates) {
        const e = p.kind === 'expr' ? p.expr : undefined;
        if (p.kind === 'labels') tested(p.variable, p.labels);
        // A chain node bound before its MATCH (`WITH a, b MATCH (b)-->(c)`) is a node.
        else if (p.kind === 'isNode') tested(p.variable, []);
        else if (e?.kind === 'hasLabels' && e.target.kind === 'var') tested(e.target.name, e.labels);
        else if (e) conjuncts.push(...splitAnd(e));
        else return undefined;
      }
    } else if (x.op === 'ExpandExists') {
      const { from, direction, types, toLabels, anti } = x;
      exists.push({ variable: from, side: 'from', direction, types, labels: toLabels, anti });
    } else if (
      x.op === 'Projection' &&
      !x.keep &&
      x.items.every((i) => i.expr.kind === 'var' && i.expr.name === i.name)
    ) {
      // `WITH a, b, r` passing the chain's variables on: nothing above reads what it drops.
    } else if (x.op === 'OptionalExpand' && hops.length === 0) {
      // An OPTIONAL MATCH of one hop as the chain's last: its far end null where the hop finds nothing.
      const e = x.expand;
      if (e.into || e.relBound || e.adjacency?.relFilters || e.distinctFrom.length > 0) return undefined;
      const own = x.predicates.flatMap((p) => (p.kind === 'labels' && p.variable === e.to ? p.labels : [null]));
      if (own.includes(null) || labels.has(e.to) || conjuncts.length > 0 || exists.length > 0) return undefined;
      const { from, to, rel, direction, types } = e;
      const toLabels = [...new Set([...(own as string[]), ...(e.adjacency?.toLabels ?? [])])];
      hops.unshift({ from, to, rel, direction, types, distinctFrom: [], toLabels, optional: true });
    } else if (x.op === 'VarLengthExpand' && x.slots && x.min === 1 && x.max === 1 && !x.into) {
      // A fixed hop of a slot group (slot-groups.ts: a walk of length 1..1), its relationship read by nothing.
      const { from, to, rel, direction, types, distinctFrom } = x;
      hops.unshift({ from, to, rel, direction, types, distinctFrom, toLabels: [] });
      tested(to, x.toLabels ?? []);
    } else if (x.op === 'Expand') {
      if (x.into || x.relBound) return undefined;
      const { from, to, rel, direction, types, distinctFrom } = x;
      const relFilters = x.adjacency?.relFilters?.map((f) => f.filter);
      hops.unshift({
        from,
        to,
        rel,
        direction,
        types,
        distinctFrom,
        toLabels: [],
        ...(relFilters ? { relFilters } : {}),
      });
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
  const rows = hops.length > 0 && !relAnchor ? rowsOf(x, hops) : undefined;
  const anchor = rows ? rows.anchor : anchorOf(x);
  if (hops.length === 0 || !anchor) return undefined;
  if (x.op !== 'NodeColumnScan' && !rows)
    tested(anchor.variable, (x as { where?: { labels: string[] } }).where?.labels ?? []);
  const apart = rows?.rows.apart ?? [];
  const nodes = [anchor.variable];
  for (const h of hops) {
    if (!nodes.includes(h.from) || nodes.includes(h.to)) return undefined;
    if (!h.distinctFrom.every((r) => apart.includes(r) || hops.some((k) => k.rel === r && k !== h))) return undefined;
    nodes.push(h.to);
  }
  if (![...labels.keys(), ...exists.map((e) => e.variable)].every((v) => nodes.includes(v))) return undefined;
  // Every other conjunct compares a chain node's property with a known value (a prefix test as its two ends).
  const filters: NonNullable<Chain['filters']> = [];
  for (const e of conjuncts) {
    const v = nodes.find((n) => columnFilter(e, n) ?? prefixFilters(e, n));
    // Or a relationship's (not the OPTIONAL MATCH's: a WHERE above it would drop its null rows).
    const h =
      v === undefined
        ? hops.find((k) => !k.optional && (columnFilter(e, k.rel) ?? prefixFilters(e, k.rel)))
        : undefined;
    if (h) {
      const f = columnFilter(e, h.rel);
      h.relFilters = [...(h.relFilters ?? []), ...(f ? [f] : prefixFilters(e, h.rel)!)];
      continue;
    }
    if (v === undefined) return undefined;
    const f = columnFilter(e, v);
    filters.push(...(f ? [f] : prefixFilters(e, v)!).map((c) => ({ ...c, variable: v })));
  }
  for (const h of hops) if (!h.optional) h.toLabels = [...new Set(labels.get(h.to) ?? [])];
  const anchorLabels = [...new Set(labels.get(anchor.variable) ?? [])].filter((l) => l !== anchor.label);
  const tests = { ...(filters.length > 0 ? { filters } : {}), ...(exists.length > 0 ? { exists } : {}) };
  const from = rows ? { rows: rows.rows } : {};
  return { shape: { anchor, anchorLabels, hops, ...tests, ...(relAnchor ? { relAnchor } : {}), ...from }, nodes };
}

/**
 * A variable-length expansion as the chain's start (`MATCH (a {id: $id})-[*1..3]-(b)-->(c)-->(d)`), walked over
 * slots: each of its rows' end node an anchor, the relationship slots its rows bind (its path's, and those of
 * slot walks below it) kept apart from the hops' in one space (every hop's types within it). An expansion not yet
 * over slots becomes one when nothing but the chain's uniqueness reads its relationships (the chain's items and
 * tests read chain nodes and hops only).
 */
function rowsOf(x: Op, hops: Hop[]): { anchor: ColumnScan; rows: NonNullable<Chain['rows']> } | undefined {
  if (x.op !== 'VarLengthExpand' || x.into || x.relBound || x.relProps) return undefined;
  if (!x.slots && x.distinctFrom.length > 0) return undefined;
  const untyped = x.types.length === 0 || hops.some((h) => h.types.length === 0);
  const space = x.space ?? (untyped ? [] : [...new Set([...x.types, ...hops.flatMap((h) => h.types)])]);
  if (space.length > 0 && (untyped || !hops.every((h) => h.types.every((t) => space.includes(t))))) return undefined;
  const named = new Set(hops.flatMap((h) => h.distinctFrom).filter((r) => !hops.some((h) => h.rel === r)));
  // Each bound as slots by the rows: this walk once it binds them, or a slot walk below it that does.
  const input: Op = x.slots ? x : { ...x, slots: true, space, bindRels: named.has(x.rel) };
  const bound = slotBinders(input);
  if (![...named].every((r) => bound.has(r))) return undefined;
  const anchor: ColumnScan = {
    op: 'NodeColumnScan',
    variable: x.to,
    label: undefined,
    filters: [],
    fallback: x,
    est: x.est,
  };
  return { anchor, rows: { input, apart: [...named], space } };
}

/** The relationship variables that slot walks in `op`'s inputs bind as slots (var-paths.ts RelSlots). */
function slotBinders(op: Op, out = new Set<string>()): Set<string> {
  if ((op.op === 'VarLengthExpand' || op.op === 'RelationshipScan') && op.slots && op.bindRels) out.add(op.rel);
  for (const x of inputsOf(op)) slotBinders(x, out);
  return out;
}

/** The chain's start as a column scan: a label or full scan over the Argument, or a column scan as it is. */
function anchorOf(x: Op): ColumnScan | undefined {
  if (x.op === 'NodeColumnScan') return x.columns || x.order || x.distinct || x.limit || x.skip ? undefined : x;
  // A range seek (on a label or on every node): its bounds as column comparisons (the Filter above repeats them).
  if (x.op === 'NodeIndexRangeSeek' && x.input.op === 'Argument' && !x.where?.props) {
    const filters: ColumnScan['filters'] = [];
    if (x.lower) filters.push({ key: x.key, op: x.lower.inclusive ? '>=' : '>', value: x.lower.value });
    if (x.upper) filters.push({ key: x.key, op: x.upper.inclusive ? '<=' : '<', value: x.upper.value });
    return { op: 'NodeColumnScan', variable: x.variable, label: x.label, filters, fallback: x, est: x.est };
  }
  if ((x.op !== 'NodeScan' && x.op !== 'NodeByLabelScan') || x.input.op !== 'Argument' || x.where?.props) return;
  const label = x.op === 'NodeByLabelScan' ? x.label : undefined;
  return { op: 'NodeColumnScan', variable: x.variable, label, filters: [], fallback: x, est: x.est };
}
