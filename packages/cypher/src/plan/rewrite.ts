// Rewrite rules over a logical plan, applied bottom-up (each operator after its inputs):
// - Sort + [Skip] + Limit → Top: keep only SKIP + LIMIT rows while sorting;
// - a projection feeding an aggregation is inlined into it (WITH n.type AS t RETURN t, count(*) groups on
//   n.type directly), so the shapes below see the scan;
// - count-only aggregation: count(*) over a node scan → NodeCount (the graph's counts), over the last
//   expansion of a pattern → ExpandCount (relationships or paths counted as they are walked, no rows);
// - an aggregation over one node scan whose filters compare `n.key` with known values → ColumnarAggregate
//   (projection pruning: only the columns it reads are scanned); over one relationship pattern with nothing
//   before it → ColumnarExpandAggregate (expand-rewrite.ts: relationship and node columns, no row per match);
// - a pattern predicate over one relationship to a node with only labels → ExpandExists (adjacency by type);
// - last, over the whole plan: an Expand whose anonymous relationship nothing reads goes by adjacency; then an
//   OPTIONAL MATCH of one relationship is folded into the aggregation over it or run as OptionalExpand;
// - a projection that only renames a row to the names it already has is dropped, and so is a WITH that only
//   passes variables on to a projection that reads nothing else (pass-through.ts);
// - last, labels filtered right above a RelationshipScan are tested by it on the ends before a row is built;
// - a Sort whose every row goes to the result is marked bounded (it stops at max_rows before sorting).
// Predicate push-down (conjuncts placed where their variables are bound, equality on an indexed property as
// an index seek) and the anchor choice by estimated rows happen in the planner.
import { children, findAggregates } from '../aggregate.js';
import type { Expr } from '../ast.js';
import { isAggregate } from '../interpret/project.js';
import {
  type ColumnFilter,
  type ColumnItem,
  type ExistsTest,
  type Item,
  mapInputs,
  type Op,
  type Predicate,
} from './operators.js';
import { isHopCount, optionalHopOf } from './optional-hop.js';
import { adjacencyExpand, columnarExpand, expandExists } from './expand-rewrite.js';
import { mapExpr, readsOnly, varsOf } from './exprs.js';
import { optionalColumns } from './optional-columns.js';
import { chainColumns } from './chain-columns.js';
import { optionalPass } from './optional-expand.js';
import { foldIntoColumnScan } from './column-select.js';
import { topThroughOptional } from './top-ties.js';
import { dropPassThrough } from './pass-through.js';

type Call = Extract<Expr, { kind: 'call' }>;

export function rewrite(op: Op): Op {
  // Twice: a rule can open the way for one below it (a projection narrowed for a sort can then read columns).
  const out = chainColumns(
    optionalColumns(topThroughOptional(relScanLabels(optionalPass(adjacencyExpand(bottomUp(bottomUp(op))))))),
  );
  return out.op === 'ProduceResults' ? { ...out, input: markBounded(out.input) } : out;
}

function bottomUp(op: Op): Op {
  let o = mapInputs(op, bottomUp);
  for (const rule of RULES) o = rule(o) ?? o;
  return o;
}

const RULES: ((op: Op) => Op | undefined)[] = [
  dropPassThrough,
  pushIntoScan,
  columnScan,
  columnProjection,
  topK,
  foldIntoColumnScan,
  distinctTop,
  inlineProjection,
  nodeCount,
  columnar,
  columnarExpand,
  expandExists,
  existsIntoColumnScan,
  expandCount,
  prune,
];

/**
 * Labels and a pattern's property map filtered right after a scan or seek are checked by it, on the node, before
 * a row is built (the map's values evaluated once per input row, not once per node).
 */
function pushIntoScan(op: Op): Op | undefined {
  if (op.op !== 'Filter') return undefined;
  const scan = op.input;
  if (
    scan.op !== 'NodeScan' &&
    scan.op !== 'NodeByLabelScan' &&
    scan.op !== 'NodeIndexSeek' &&
    scan.op !== 'NodeIndexRangeSeek'
  )
    return undefined;
  if (scan.where) return undefined;
  const v = scan.variable;
  const labels: string[] = [];
  let props: Expr | null = null;
  const rest = op.predicates.filter((p) => {
    if (p.kind === 'labels' && p.variable === v) {
      labels.push(...p.labels);
      return false;
    }
    if (p.kind === 'props' && p.variable === v && props === null) {
      const vars = varsOf(p.map);
      if (vars !== 'late' && !vars.has(v)) {
        props = p.map;
        return false;
      }
    }
    return true;
  });
  if (labels.length === 0 && props === null) return undefined;
  const pushed = { ...scan, where: { labels, props } } as Op;
  return rest.length === 0 ? pushed : { ...op, input: pushed, predicates: rest };
}

function topK(op: Op): Op | undefined {
  if (op.op !== 'Limit') return undefined;
  const skip = op.input.op === 'Skip' ? op.input : undefined;
  const sort = skip ? skip.input : op.input;
  if (sort.op !== 'Sort') return undefined;
  return { op: 'Top', input: sort.input, order: sort.order, skip: skip?.count ?? null, limit: op.count, est: op.est };
}

/**
 * Top over Distinct whose order reads only the distinct columns → Top testing DISTINCT on the rows it keeps: rows
 * equal on the columns sort equal, so a later duplicate never beats the first, and a row worse than the k kept is
 * dropped without its key being built.
 */
function distinctTop(op: Op): Op | undefined {
  if (op.op !== 'Top' || op.ties || op.distinct || op.input.op !== 'Distinct') return undefined;
  const d = op.input;
  if (!op.order.every((o) => readsOnly(o.expr, d.columns))) return undefined;
  return { ...op, input: d.input, distinct: d.columns };
}

/** Names an aggregation's output rows can be read by after it: its items (its input's when it keeps them). */
export const readsOnlyItems = (a: Extract<Op, { op: 'Aggregate' }>) =>
  !a.keep || a.reads.every((v) => a.items.some((it) => it.name === v));

const SCOPING = new Set<Expr['kind']>([
  'listComp',
  'quantifier',
  'patternComp',
  'patternExpr',
  'existsSubquery',
  'mapProjection',
]);
const NONDETERMINISTIC = new Set(['rand', 'randomuuid', 'timestamp']);

function pure(e: Expr): boolean {
  if (SCOPING.has(e.kind)) return false;
  if (e.kind === 'call' && NONDETERMINISTIC.has(e.name.toLowerCase())) return false;
  return children(e).every(pure);
}

function inlineProjection(op: Op): Op | undefined {
  if (op.op !== 'Aggregate' || op.input.op !== 'Projection' || op.input.keep) return undefined;
  const proj = op.input;
  if (!readsOnlyItems(op) || !proj.items.every((it) => pure(it.expr))) return undefined;
  if (!op.items.every((it) => pure(it.expr))) return undefined;
  const names = new Map(proj.items.map((it) => [it.name, it.expr]));
  const items = op.items.map((it) => ({
    name: it.name,
    expr: mapExpr(it.expr, (x) => (x.kind === 'var' ? names.get(x.name) : undefined)),
  }));
  const keys = op.keys.map((k) => items[op.items.indexOf(k)]!);
  const aggregates: Call[] = [];
  for (const it of items) findAggregates(it.expr, aggregates, isAggregate);
  return { ...op, input: proj.input, items, keys, aggregates };
}

/** `v.key` of the scanned variable. */
export const propOf = (e: Expr, v: string): string | undefined =>
  e.kind === 'prop' && e.target.kind === 'var' && e.target.name === v ? e.key : undefined;

export const isCountOf = (e: Expr, vars: (string | undefined)[]): boolean =>
  e.kind === 'call' &&
  e.name.toLowerCase() === 'count' &&
  !e.distinct &&
  (e.star || (e.args[0]?.kind === 'var' && vars.includes(e.args[0].name)));

/** A scan over the top of the plan (its input is the Argument). */
function topScan(op: Op): Extract<Op, { op: 'NodeScan' | 'NodeByLabelScan' }> | undefined {
  return (op.op === 'NodeScan' || op.op === 'NodeByLabelScan') && op.input.op === 'Argument' && !op.where
    ? op
    : undefined;
}

/**
 * A range seek over the top of the plan: its comparisons are filtered again above it, so a column scan with those
 * filters gives its rows (the scan starts from the same index: column-filters.ts indexStart).
 */
function rangeSeek(op: Op): Extract<Op, { op: 'NodeIndexRangeSeek' }> | undefined {
  return op.op === 'NodeIndexRangeSeek' && op.input.op === 'Argument' && !op.where ? op : undefined;
}

function nodeCount(op: Op): Op | undefined {
  if (op.op !== 'Aggregate' || op.keys.length > 0 || op.items.length !== 1 || !readsOnlyItems(op)) return undefined;
  const scan = topScan(op.input);
  const item = op.items[0]!;
  if (!scan || !isCountOf(item.expr, [scan.variable])) return undefined;
  const label = scan.op === 'NodeByLabelScan' ? scan.label : undefined;
  return { op: 'NodeCount', name: item.name, label, fallback: op, est: 1 };
}

/**
 * Comparisons of `n.key` with known values right after the top scan are answered over the graph's columns
 * (NodeColumnScan); what they cannot answer stays in a Filter above.
 */
function columnScan(op: Op): Op | undefined {
  if (op.op !== 'Filter') return undefined;
  const scan = topScan(op.input) ?? rangeSeek(op.input);
  if (!scan) return undefined;
  const filters: ColumnFilter[] = [];
  const rest: Predicate[] = [];
  for (const p of op.predicates) {
    const fs = p.kind === 'expr' ? splitAnd(p.expr).map((e) => columnFilter(e, scan.variable)) : [undefined];
    if (fs.every((f) => f !== undefined)) filters.push(...(fs as ColumnFilter[]));
    else rest.push(p);
  }
  if (filters.length === 0) return undefined;
  const label = scan.op === 'NodeScan' ? undefined : scan.label;
  const est = op.est;
  const fallback: Op = { op: 'Filter', input: scan, predicates: op.predicates, est };
  const seek = scan.op === 'NodeIndexRangeSeek' ? { seek: true } : {};
  const cols: Op = { op: 'NodeColumnScan', variable: scan.variable, label, filters, ...seek, fallback, est };
  return rest.length === 0 ? cols : { op: 'Filter', input: cols, predicates: rest, est };
}

/**
 * A pattern predicate on a column scan's node (ExpandExists right over it) is answered per slot by the scan
 * (columnar-expand.ts existsTest), so the node is not built for it and the rules above still see a column scan.
 */
function existsIntoColumnScan(op: Op): Op | undefined {
  if (op.op !== 'ExpandExists' || op.input.op !== 'NodeColumnScan') return undefined;
  const scan = op.input;
  if (scan.columns || scan.variable !== op.from) return undefined;
  const { direction, types, toLabels: labels, anti } = op;
  const x: ExistsTest = { side: 'from', direction, types, labels, anti };
  return { ...scan, exists: [...(scan.exists ?? []), x], fallback: { ...op, input: scan.fallback }, est: op.est };
}

/** A projection of `n.key`s over a column scan reads the columns: no node is built (late materialisation). */
function columnProjection(op: Op): Op | undefined {
  if (op.op !== 'Projection' || op.keep || op.input.op !== 'NodeColumnScan' || op.input.columns) return undefined;
  const scan = op.input;
  const columns: { name: string; key: string }[] = [];
  for (const it of op.items) {
    const key = propOf(it.expr, scan.variable);
    if (key === undefined) return undefined;
    columns.push({ name: it.name, key });
  }
  return { ...scan, columns, fallback: { ...op, input: scan.fallback }, est: op.est };
}

/**
 * An aggregation over one node scan (its filters comparing `n.key` with known values, pattern predicates on the
 * node, an OPTIONAL MATCH of one relationship from it read only by count(o)) → ColumnarAggregate.
 */
function columnar(op: Op): Op | undefined {
  if (op.op !== 'Aggregate' || !readsOnlyItems(op)) return undefined;
  const opt = optionalHopOf(op.input);
  let below = opt ? opt.input : op.input;
  const exists: (ExistsTest & { from: string })[] = [];
  while (below.op === 'ExpandExists') {
    const { from, direction, types, toLabels: labels, anti } = below;
    exists.push({ from, side: 'from', direction, types, labels, anti });
    below = below.input;
  }
  const scanned = scanOf(below);
  if (!scanned) return undefined;
  const { exists: folded, ...s } = scanned;
  exists.push(...folded.map((x) => ({ ...x, from: s.variable })));
  if ((opt && opt.hop.variable !== s.variable) || exists.some((x) => x.from !== s.variable)) return undefined;
  const items: ColumnItem[] = [];
  for (const it of op.items) {
    const c = isHopCount(it.expr, opt?.hop) ? { kind: 'hopCount' as const, name: it.name } : columnItem(it, s.variable);
    if (!c) return undefined;
    items.push(c);
  }
  if (items.every((i) => i.kind === 'key')) return undefined;
  return {
    op: 'ColumnarAggregate',
    ...s,
    ...(exists.length > 0 ? { exists: exists.map(({ from: _, ...x }) => x) } : {}),
    ...(opt ? { optional: opt.hop } : {}),
    items,
    fallback: op,
    est: op.est,
  };
}

/** The top scan under an aggregation and the column filters on it (a NodeColumnScan's, or a Filter's). */
function scanOf(
  op: Op,
): { variable: string; label: string | undefined; filters: ColumnFilter[]; exists: ExistsTest[] } | undefined {
  if (op.op === 'NodeColumnScan') {
    if (op.columns) return undefined;
    return { variable: op.variable, label: op.label, filters: op.filters, exists: op.exists ?? [] };
  }
  const filter = op.op === 'Filter' ? op : undefined;
  const scan = topScan(filter ? filter.input : op);
  if (!scan) return undefined;
  const v = scan.variable;
  const filters: ColumnFilter[] = [];
  for (const p of filter?.predicates ?? []) {
    if (p.kind !== 'expr') return undefined;
    for (const e of splitAnd(p.expr)) {
      const f = columnFilter(e, v);
      if (!f) return undefined;
      filters.push(f);
    }
  }
  return { variable: v, label: scan.op === 'NodeByLabelScan' ? scan.label : undefined, filters, exists: [] };
}

export function splitAnd(e: Expr): Expr[] {
  return e.kind === 'binary' && e.op === 'and' ? [...splitAnd(e.left), ...splitAnd(e.right)] : [e];
}

export const AGG_FNS = new Set(['count', 'sum', 'avg', 'min', 'max']);

function columnItem(it: Item, v: string): ColumnItem | undefined {
  const key = propOf(it.expr, v);
  if (key !== undefined) return { kind: 'key', name: it.name, key };
  const e = it.expr;
  if (e.kind !== 'call' || e.distinct) return undefined;
  if (isCountOf(e, [v])) return { kind: 'count', name: it.name };
  const fn = e.name.toLowerCase();
  const arg = e.args.length === 1 ? propOf(e.args[0]!, v) : undefined;
  if (arg === undefined || !AGG_FNS.has(fn)) return undefined;
  return { kind: 'agg', name: it.name, fn: fn as Extract<ColumnItem, { kind: 'agg' }>['fn'], key: arg };
}

const FLIPPED = { '=': '=', '<>': '<>', '<': '>', '>': '<', '<=': '>=', '>=': '<=' } as const;

export function columnFilter(e: Expr, v: string): ColumnFilter | undefined {
  if (e.kind !== 'compare' || e.ops.length !== 1) return undefined;
  const [a, b] = e.args as [Expr, Expr];
  const known = (x: Expr) => x.kind === 'literal' || x.kind === 'param';
  const ka = propOf(a, v);
  if (ka !== undefined && known(b)) return { key: ka, op: e.ops[0]!, value: b };
  const kb = propOf(b, v);
  if (kb !== undefined && known(a)) return { key: kb, op: FLIPPED[e.ops[0]!], value: a };
  return undefined;
}

function expandCount(op: Op): Op | undefined {
  if (op.op !== 'Aggregate' || op.keys.length > 0 || !readsOnlyItems(op)) return undefined;
  const e = op.input;
  if (e.op !== 'Expand' && e.op !== 'VarLengthExpand') return undefined;
  if (e.into || (e.op === 'VarLengthExpand' && e.relProps) || e.relBound) return undefined;
  // Every item counts the expansions (the variables it binds are never null).
  if (!op.items.every((it) => isCountOf(it.expr, [e.from, e.to, e.rel]))) return undefined;
  return { op: 'ExpandCount', input: e.input, names: op.items.map((i) => i.name), expand: e, est: 1 };
}

/** The exact names of the rows `op` gives, when known. */
function shapeOf(op: Op): string[] | undefined {
  switch (op.op) {
    case 'Aggregate':
      return op.keep ? undefined : op.items.map((i) => i.name);
    case 'Projection':
      return op.keep ? undefined : op.items.map((i) => i.name);
    case 'ColumnarAggregate':
      return op.items.map((i) => i.name);
    case 'NodeColumnScan':
      // Without columns, rows of the scanned node alone (a column scan never extends an outer row).
      return op.columns ? op.columns.map((c) => c.name) : [op.variable];
    case 'NodeCount':
      return [op.name];
    case 'ExpandCount':
      return op.names;
    case 'Sort':
    case 'Top':
    case 'Skip':
    case 'Limit':
    case 'Filter':
    case 'Distinct':
      return shapeOf(op.input);
    default:
      return undefined;
  }
}

function prune(op: Op): Op | undefined {
  if (op.op !== 'Projection' || op.keep) return undefined;
  if (!op.items.every((it) => it.expr.kind === 'var' && it.expr.name === it.name)) return undefined;
  const names = op.items.map((it) => it.name);
  const shape = shapeOf(op.input);
  if (shape && shape.length === names.length && names.every((n) => shape.includes(n))) return op.input;
  // The rows were kept extended for ORDER BY or WHERE; when those read only the projected names, they need not be.
  return narrowed(op.input, names);
}

function narrowed(op: Op, names: string[]): Op | undefined {
  const under = (x: Op) => {
    const n = narrowed(x, names);
    return n && ({ ...op, input: n } as Op);
  };
  switch (op.op) {
    case 'Sort':
    case 'Top':
      return op.order.every((o) => readsOnly(o.expr, names)) ? under(op.input) : undefined;
    case 'Filter':
      return op.predicates.every((p) => p.kind === 'expr' && readsOnly(p.expr, names)) ? under(op.input) : undefined;
    case 'Skip':
    case 'Limit':
    case 'Distinct':
      return under(op.input);
    case 'Projection':
    case 'Aggregate': {
      const same = op.items.length === names.length && op.items.every((it) => names.includes(it.name));
      return op.keep && same ? { ...op, keep: false } : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Labels filtered right above a RelationshipScan are tested by it on the ends, before a row is built. Last,
 * over the whole plan: the relationship aggregations read the Filter's labels themselves.
 */
function relScanLabels(op: Op): Op {
  const o = mapInputs(op, relScanLabels);
  if (o.op !== 'Filter' || o.input.op !== 'RelationshipScan') return o;
  const scan = o.input;
  const on = (v: string) => o.predicates.flatMap((p) => (p.kind === 'labels' && p.variable === v ? p.labels : []));
  const from = on(scan.from);
  const to = on(scan.to);
  if (from.length + to.length === 0) return o;
  const rest = o.predicates.filter((p) => p.kind !== 'labels' || (p.variable !== scan.from && p.variable !== scan.to));
  const labels = { from: [...(scan.labels?.from ?? []), ...from], to: [...(scan.labels?.to ?? []), ...to] };
  const folded: Op = { ...scan, labels, est: o.est };
  return rest.length === 0 ? folded : { ...o, predicates: rest, input: folded };
}

function markBounded(op: Op): Op {
  if (op.op === 'Projection') return { ...op, input: markBounded(op.input) };
  if (op.op === 'Sort') return { ...op, bounded: true, input: markBounded(op.input) };
  if (op.op === 'Aggregate') return { ...op, bounded: true };
  if (op.op === 'ColumnarExpandAggregate') return { ...op, bounded: true, fallback: markBounded(op.fallback) };
  return op;
}
