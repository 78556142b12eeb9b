// OPTIONAL MATCH of one relationship from a bound node, row by row, without running an inner plan per row:
// - under an aggregation that reads its variables only through count(o), folded into the Aggregate as a
//   multiplicity (each input row added max(k, 1) times, count(o) adding k; k from adjacency, or by expanding);
// - otherwise an OptionalExpand: the Expand's rows kept by the OPTIONAL MATCH's predicates, or the row with
//   the new variables null.
// - counts over row-wise operators above an unread variable-length path: once per end (var-count.ts).
// A whole-plan pass run last, top-down (so an aggregation sees its Optional before the Optional is rewritten).
import { type Row, lookup } from '../eval.js';
import { GraphNode, setOwn } from '../values.js';
import { holds } from './checks.js';
import { adjacentRows, members } from './exists.js';
import { varsOf } from './exprs.js';
import { mapInputs, type Op, type OptionalHop } from './operators.js';
import { isHopCount, keptDegrees, optionalHopOf } from './optional-hop.js';
import type { Runner } from './physical.js';
import { endsCount } from './var-count.js';

export function optionalPass(op: Op): Op {
  if (op.op === 'Aggregate' && !op.hop) {
    const folded = foldHop(op);
    if (folded) return optionalPass(folded);
  }
  if (op.op === 'Aggregate') {
    const counted = endsCount(op, optionalPass);
    if (counted) return mapInputs(counted, optionalPass);
  }
  if (op.op === 'Optional') {
    const x = optionalExpand(op);
    if (x) return mapInputs(x, optionalPass);
  }
  return mapInputs(op, optionalPass);
}

const disjoint = (vars: Set<string> | 'late', binds: string[]) => vars !== 'late' && binds.every((b) => !vars.has(b));

function foldHop(op: Extract<Op, { op: 'Aggregate' }>): Op | undefined {
  const opt = optionalHopOf(op.input);
  if (!opt) return undefined;
  const { binds } = opt.hop;
  if (op.keep && !op.reads.every((v) => v !== ' pattern' && !binds.includes(v))) return undefined;
  if (!op.keys.every((k) => disjoint(varsOf(k.expr), binds))) return undefined;
  if (!op.items.every((it) => isHopCount(it.expr, opt.hop) || disjoint(varsOf(it.expr), binds))) return undefined;
  return { ...op, input: opt.input, hop: opt.hop };
}

function optionalExpand(op: Extract<Op, { op: 'Optional' }>): Op | undefined {
  const filter = op.inner.op === 'Filter' ? op.inner : undefined;
  const e = filter ? filter.input : op.inner;
  if (e.op !== 'Expand' || e.relBound || e.distinctFrom.length > 0) return undefined;
  const s = e.input;
  if (s.op !== 'Filter' || s.input.op !== 'Argument') return undefined;
  if (!s.predicates.every((p) => p.kind === 'isNode' && p.variable === e.from)) return undefined;
  const { nullable, input, est } = op;
  return { op: 'OptionalExpand', input, expand: e, predicates: filter?.predicates ?? [], nullable, est };
}

/** Rows asked by adjacency before every slot's k is read at once. */
const ASK_ROWS = 64;

function everySlot(runner: Runner, hop: OptionalHop, build: true | 'again' = true): Int32Array | null {
  const g = runner.ctx.graph;
  const nodes = g.slotOf && g.scanColumns?.(undefined, []);
  return (nodes && keptDegrees(hop, nodes, runner.ctx, build)) ?? null;
}

/** The rows of an OptionalExpand on one input row. */
export function* optionalExpandRows(
  runner: Runner,
  op: Extract<Op, { op: 'OptionalExpand' }>,
  row: Row,
): Generator<Row> {
  const ctx = runner.ctx;
  let found = false;
  if (lookup(row, op.expand.from) instanceof GraphNode) {
    const rows = (op.expand.adjacency && adjacentRows(runner, op.expand, row)) || runner.expandRow(op.expand, row);
    for (const r of rows) {
      if (op.predicates.length > 0 && !op.predicates.every((p) => holds(p, r, ctx))) continue;
      found = true;
      yield r;
    }
  }
  if (!found) yield nulledRow(row, op.nullable);
}

/** OPTIONAL MATCH's row when nothing matched: the input row with the optional part's variables null. */
export function nulledRow(row: Row, nullable: readonly string[]): Row {
  const r = { ...row };
  for (const v of nullable) setOwn(r, v, null);
  return r;
}

/** k of a folded hop for one row: from adjacency and the labels' slots when the graph has them, else by expanding. */
export function hopDegree(runner: Runner, hop: OptionalHop): (row: Row) => number {
  const g = runner.ctx.graph;
  const m = g.adjacent && hop.labels.length > 0 ? members(runner, hop.labels) : undefined;
  // Past a few rows, every slot's k at once, kept across queries (optional-hop.ts keptDegrees): a row then
  // reads one number instead of walking its node's relationships.
  let asked = 0;
  // Read at once when an earlier query kept them or asked for them too.
  let kept: Int32Array | null | undefined = everySlot(runner, hop, 'again') ?? undefined;
  return (row) => {
    const from = lookup(row, hop.variable);
    if (!(from instanceof GraphNode)) return 0;
    if (kept === undefined && ++asked > ASK_ROWS) kept = everySlot(runner, hop);
    const slot = kept ? g.slotOf!(from) : undefined;
    if (kept && slot !== undefined && slot < kept.length) return kept[slot]!;
    const far = m !== null ? g.adjacent?.(from, hop.direction, hop.types) : undefined;
    let k = 0;
    if (far) {
      if (!m) return far.length;
      for (let i = 0; i < far.length; i++) if (m[far[i]!] === 1) k++;
      return k;
    }
    for (const r of g.expand(from, hop.direction, hop.types)) {
      runner.ctx.budget.tick();
      if (r.deleted) continue;
      const other = r.start === from ? r.end : r.start;
      if (hop.labels.every((l) => other.labels.includes(l))) k++;
    }
    return k;
  };
}
