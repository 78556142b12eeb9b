// The rewrite rule for aggregations over one relationship pattern with nothing before it
// (`MATCH (a:L)-[r:T]->(b) WHERE … RETURN r.predicate, count(*)`, an in-degree top-k grouped by the far end,
// an average of a relationship property by the far end's type): the Aggregate over [Filter over] Expand over
// the top scan becomes a ColumnarExpandAggregate, run over the graph's relationship and node columns
// (columnar-expand.ts). The Aggregate stays as its fallback, so a graph without the columns, or a value the
// columns cannot answer exactly, runs the same plan row by row.
import type { Expr } from '../ast.js';
import {
  type ColumnFilter,
  type ExistsTest,
  type ExpandItem,
  type Item,
  inputsOf,
  mapInputs,
  type Op,
  type Predicate,
  type Side,
} from './operators.js';
import { isHopCount, optionalHopOf } from './optional-hop.js';
import { AGG_FNS, columnFilter, isCountOf, propOf, readsOnlyItems, splitAnd } from './rewrite.js';
import { prefixFilters } from './seeks.js';
import { asSlotWalk, slotGroups } from './slot-groups.js';

type ExpandOp = Extract<Op, { op: 'Expand' }>;
type SideFilter = ColumnFilter & { side: Side };

export function columnarExpand(op: Op): Op | undefined {
  if (op.op !== 'Aggregate' || !readsOnlyItems(op)) return undefined;
  // Filters and pattern predicates on the ends between the aggregation and the expansion.
  const predicates: Predicate[] = [];
  const semis: Extract<Op, { op: 'ExpandExists' }>[] = [];
  // An OPTIONAL MATCH of one relationship from an end, read only by count(o): a multiplicity per row.
  const opt = optionalHopOf(op.input);
  let e = opt ? opt.input : op.input;
  while (e.op === 'Filter' || e.op === 'ExpandExists') {
    if (e.op === 'Filter') predicates.push(...e.predicates);
    else semis.push(e);
    e = e.input;
  }
  // The pattern: an Expand from the top scan, or a RelationshipScan at the top (a pattern started at its type).
  if (e.op !== 'Expand' && e.op !== 'RelationshipScan') return undefined;
  if (e.distinctFrom.length > 0 || e.from === e.to) return undefined;
  if (e.op === 'Expand' && (e.into || e.relBound)) return undefined;
  if (opt && opt.hop.variable !== e.from && opt.hop.variable !== e.to) return undefined;
  const start =
    e.op === 'Expand'
      ? startOf(e)
      : e.input.op === 'Argument'
        ? { fromLabels: [], filters: [], predicates: [] }
        : undefined;
  if (!start) return undefined;
  const { fromLabels, filters } = start;
  predicates.push(...start.predicates);
  const toLabels: string[] = [];
  const exists: ExistsTest[] = [];
  for (const x of semis) {
    if (x.from !== e.from && x.from !== e.to) return undefined;
    const { direction, types, toLabels: labels, anti } = x;
    exists.push({ side: x.from === e.from ? 'from' : 'to', direction, types, labels, anti });
  }
  for (const p of predicates) {
    if (p.kind === 'labels' && (p.variable === e.to || p.variable === e.from)) {
      (p.variable === e.to ? toLabels : fromLabels).push(...p.labels);
      continue;
    }
    if (p.kind !== 'expr') return undefined;
    for (const x of splitAnd(p.expr)) {
      const f = sideFilters(x, e);
      if (!f) return undefined;
      filters.push(...f);
    }
  }
  const items: ExpandItem[] = [];
  for (const it of op.items) {
    const x = isHopCount(it.expr, opt?.hop) ? { kind: 'hopCount' as const, name: it.name } : expandItem(it, e);
    if (!x) return undefined;
    items.push(x);
  }
  if (items.every((i) => i.kind === 'key' || i.kind === 'node' || i.kind === 'type')) return undefined;
  return {
    op: 'ColumnarExpandAggregate',
    from: e.from,
    rel: e.rel,
    to: e.to,
    direction: e.direction,
    types: e.types,
    fromLabels,
    toLabels,
    filters,
    exists,
    ...(opt
      ? { optional: { ...opt.hop, side: opt.hop.variable === e.from ? ('from' as const) : ('to' as const) } }
      : {}),
    items,
    fallback: op,
    est: op.est,
  };
}

/**
 * The scan the expansion starts from, when it is the top of the plan: its labels, column filters and the
 * predicates of a Filter right on it (comparisons the column scan did not take, a prefix test). An index seek
 * counts as its label's scan: its comparisons are in the Filter above it, and ColumnarExpandAggregate starts at
 * the index again when they are a range or equality on an indexed key (columnar-expand.ts).
 */
function startOf(e: ExpandOp): { fromLabels: string[]; filters: SideFilter[]; predicates: Predicate[] } | undefined {
  const below = e.input.op === 'Filter' ? e.input : undefined;
  const predicates = below?.predicates ?? [];
  const s = below ? below.input : e.input;
  if (s.op === 'NodeColumnScan' && !s.columns && !s.exists && s.variable === e.from) {
    const filters = s.filters.map((f) => ({ ...f, side: 'from' as const }));
    return { fromLabels: s.label === undefined ? [] : [s.label], filters, predicates };
  }
  const scan =
    s.op === 'NodeScan' || s.op === 'NodeByLabelScan' || s.op === 'NodeIndexSeek' || s.op === 'NodeIndexRangeSeek';
  if (!scan || s.input.op !== 'Argument' || s.variable !== e.from || s.where?.props) return undefined;
  const label = s.op === 'NodeScan' ? undefined : s.label;
  return { fromLabels: [...(label === undefined ? [] : [label]), ...(s.where?.labels ?? [])], filters: [], predicates };
}

/** The variables of a one-relationship pattern. */
type Pattern = Pick<ExpandOp, 'from' | 'rel' | 'to'>;

const sides = (e: Pattern): [Side, string][] => [
  ['from', e.from],
  ['rel', e.rel],
  ['to', e.to],
];

/** A conjunct as column comparisons on one side: `v.key op value`, or a prefix test as its two ends. */
function sideFilters(x: Expr, e: Pattern): SideFilter[] | undefined {
  for (const [side, v] of sides(e)) {
    const f = columnFilter(x, v);
    if (f) return [{ ...f, side }];
    const ends = prefixFilters(x, v);
    if (ends) return ends.map((f) => ({ ...f, side }));
  }
  return undefined;
}

/** `fns`: the aggregates taken (a chain adds collect: its matches come in the row-by-row order). */
export function expandItem(it: Item, e: Pattern, fns: ReadonlySet<string> = AGG_FNS): ExpandItem | undefined {
  const x = it.expr;
  const name = it.name;
  for (const [side, v] of sides(e)) {
    const key = propOf(x, v);
    if (key !== undefined) return { kind: 'key', name, side, key };
  }
  if (x.kind === 'var' && (x.name === e.from || x.name === e.to)) {
    return { kind: 'node', name, side: x.name === e.from ? 'from' : 'to' };
  }
  if (x.kind !== 'call') return undefined;
  const fn = x.name.toLowerCase();
  const arg = x.args.length === 1 ? x.args[0]! : undefined;
  if (fn === 'type' && !x.distinct && arg?.kind === 'var' && arg.name === e.rel) return { kind: 'type', name };
  if (isCountOf(x, [e.from, e.rel, e.to])) return { kind: 'count', name };
  if (fn === 'count' && x.distinct && arg?.kind === 'var' && (arg.name === e.from || arg.name === e.to)) {
    return { kind: 'distinct', name, side: arg.name === e.from ? 'from' : 'to' };
  }
  if (x.distinct || !fns.has(fn) || !arg) return undefined;
  for (const [side, v] of sides(e)) {
    const key = propOf(arg, v);
    if (key !== undefined) return { kind: 'agg', name, fn: fn as 'count', side, key };
  }
  return undefined;
}

/**
 * `[NOT] EXISTS { (n)-[:T]->(:L) }` with n bound: the SemiApply's inner is an Expand from the argument row to a
 * new node, filtered by its labels only → ExpandExists (adjacency and label slots, no row per neighbour).
 */
export function expandExists(op: Op): Op | undefined {
  if (op.op !== 'SemiApply') return undefined;
  const filter = op.inner.op === 'Filter' ? op.inner : undefined;
  const e = filter ? filter.input : op.inner;
  if (e.op !== 'Expand' || e.into || e.relBound || e.distinctFrom.length > 0) return undefined;
  // The bound start is checked to be a node (ExpandExists does the same), on the argument row.
  const start = e.input.op === 'Filter' ? e.input : undefined;
  const onArgument = (start ? start.input : e.input).op === 'Argument';
  const isNode = !start || start.predicates.every((p) => p.kind === 'isNode' && p.variable === e.from);
  if (!onArgument || !isNode) return undefined;
  const toLabels: string[] = [];
  for (const p of filter?.predicates ?? []) {
    if (p.kind !== 'labels' || p.variable !== e.to) return undefined;
    toLabels.push(...p.labels);
  }
  const { from, direction, types } = e;
  return {
    op: 'ExpandExists',
    input: op.input,
    from,
    direction,
    types,
    toLabels,
    anti: op.anti,
    inner: op.inner,
    est: op.est,
  };
}

/** The relationship variables some operator reads besides the Expand binding them (uniqueness checks, paths). */
function readRels(op: Op, out: Set<string>): Set<string> {
  if (op.op === 'Expand' || op.op === 'VarLengthExpand') for (const r of op.distinctFrom) out.add(r);
  if (op.op === 'NamedPath') for (const r of op.rels) out.add(r);
  if (op.op === 'ExpandCount') readRels(op.expand, out);
  if (op.op === 'ExpandExists') readRels(op.inner, out);
  for (const x of inputsOf(op)) readRels(x, out);
  return out;
}

/**
 * Every string of the plan but the relationship variables Expands bind: a relationship variable not among them
 * is read by nothing (no expression, uniqueness check, path, projection or result names it). Conservative: a
 * property key or literal spelled like it counts as a read.
 */
function namesRead(op: unknown, out: Set<string>, skip?: ReadonlySet<object>): Set<string> {
  if (typeof op === 'string') out.add(op);
  else if (Array.isArray(op)) for (const x of op) namesRead(x, out, skip);
  else if (op !== null && typeof op === 'object' && !skip?.has(op)) {
    const expand = (op as { op?: unknown }).op === 'Expand';
    for (const [k, v] of Object.entries(op)) if (!(expand && k === 'rel')) namesRead(v, out, skip);
  }
  return out;
}

type RelFilter = { filter: ColumnFilter; expr: Expr };

/** A Filter's conjuncts that compare a property of the relationship of the Expand right below with a known value. */
function relConjuncts(o: Op): { pred: Predicate; rf: RelFilter }[] {
  if (o.op !== 'Filter' || o.input.op !== 'Expand' || o.input.rel.startsWith(' ')) return [];
  const rel = o.input.rel;
  return o.predicates.flatMap((pred) => {
    const filter = pred.kind === 'expr' ? columnFilter(pred.expr, rel) : undefined;
    return filter && pred.kind === 'expr' ? [{ pred, rf: { filter, expr: pred.expr } }] : [];
  });
}

/**
 * An Expand whose relationship is anonymous (or named and read by nothing) goes by adjacency (far-end slots, no
 * relationship object); labels filtered right after it are tested on the slots. A VarLengthExpand of that kind
 * walks its paths over slots, and so do expansions kept apart from one (slot-groups.ts). Whole-plan: run last.
 */
export function adjacencyExpand(plan: Op): Op {
  const groups = slotGroups(plan);
  const inGroup = (o: Op) =>
    o.op === 'Expand' || o.op === 'VarLengthExpand' || o.op === 'RelationshipScan' ? groups.get(o.rel) : undefined;
  const read = readRels(plan, new Set());
  // Comparisons of a named relationship's properties right above its Expand are tested on its columns: they
  // are not reads that keep it from going by adjacency.
  const relTests = new Set<object>();
  const collect = (op: Op) => {
    for (const { pred } of relConjuncts(op)) relTests.add(pred);
    inputsOf(op).forEach(collect);
  };
  collect(plan);
  // Walked only when a named relationship could go by adjacency.
  let names: Set<string> | undefined;
  const isRead = (v: string) => {
    names ??= namesRead(plan, new Set(), relTests);
    return names.has(v);
  };
  const unread = (e: Extract<Op, { op: 'Expand' | 'VarLengthExpand' }>) =>
    e.rel.startsWith(' ') && !read.has(e.rel) && !e.into && !e.relBound && e.distinctFrom.length === 0;
  // A named relationship nothing reads (a WITH that carried it was inlined into the aggregation after it).
  const eligible = (e: Op): e is ExpandOp =>
    e.op === 'Expand' && (unread(e) || (unread({ ...e, rel: ' ' }) && !isRead(e.rel))) && !e.adjacency;
  const visit = (op: Op): Op => {
    // Before the Expand below is visited: it goes by adjacency only with these tests.
    const rfs = relConjuncts(op);
    if (op.op === 'Filter' && rfs.length > 0 && op.input.op === 'Expand' && eligible(op.input)) {
      const relFilters = rfs.map((x) => x.rf);
      const rest = op.predicates.filter((p) => !rfs.some((x) => x.pred === p));
      const e = op.input;
      const merged: Op = { ...e, input: visit(e.input), adjacency: { toLabels: [], relFilters }, est: op.est };
      return rest.length === 0 ? merged : visit({ ...op, predicates: rest, input: merged });
    }
    const o = mapInputs(op, visit);
    const member = inGroup(o);
    if (member) return asSlotWalk(o as Extract<Op, { op: 'Expand' | 'VarLengthExpand' | 'RelationshipScan' }>, member);
    if (o.op === 'ExpandCount' && inGroup(o.expand)) {
      return { ...o, expand: asSlotWalk(o.expand as Extract<Op, { op: 'Expand' }>, inGroup(o.expand)!) };
    }
    // Labels filtered right after a slot walk are tested on the end's slot before its row is built; the Filter
    // stays (it holds wherever the walk falls back to relationships, and for counts over ends).
    if (o.op === 'Filter' && o.input.op === 'VarLengthExpand' && o.input.slots) {
      const to = o.input.to;
      const toLabels = o.predicates.flatMap((p) => (p.kind === 'labels' && p.variable === to ? p.labels : []));
      if (toLabels.length > 0) return { ...o, input: { ...o.input, toLabels } };
    }
    if (o.op === 'Filter' && o.input.op === 'Expand' && o.input.adjacency) {
      const e = o.input;
      const labels = o.predicates.filter((p) => p.kind === 'labels' && p.variable === e.to);
      if (labels.length === 0) return o;
      const rest = o.predicates.filter((p) => !labels.includes(p));
      const toLabels = [...e.adjacency!.toLabels, ...labels.flatMap((p) => (p.kind === 'labels' ? p.labels : []))];
      const merged: Op = { ...e, adjacency: { ...e.adjacency!, toLabels }, est: o.est };
      return rest.length === 0 ? merged : { ...o, input: merged };
    }
    if (o.op === 'VarLengthExpand' && unread(o) && !o.relProps) return { ...o, slots: true };
    return eligible(o) ? { ...o, adjacency: { toLabels: [] } } : o;
  };
  return visit(plan);
}
