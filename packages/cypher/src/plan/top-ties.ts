// ORDER BY … LIMIT k over an OPTIONAL MATCH whose rows the order does not read (`MATCH (a)-->(b) OPTIONAL
// MATCH (b)<--(o) RETURN b.name AS name, o.name ORDER BY name LIMIT 4`): each input row gives at least one row
// with its own keys, so only the input rows among the k best, and those tied with the k-th, can give a row of
// the result. A Top `ties` below the OPTIONAL MATCH keeps just those (in input order, so the Top above breaks
// ties as before) and the OPTIONAL MATCH runs for them alone.
import type { Expr, SortItem } from '../ast.js';
import { Held } from '../budget.js';
import { orderCompare } from '../compare.js';
import type { Row } from '../eval.js';
import { count } from '../interpret/project.js';
import { topChainTies } from './chain-top.js';
import { type Keyed, keyed, weigh } from './holding.js';
import { type Item, mapInputs, type Op } from './operators.js';
import type { Runner } from './physical.js';
import { mapExpr, varsOf } from './exprs.js';

type TopOp = Extract<Op, { op: 'Top' }>;

/** The order's keys over the rows of `op`'s input when `op` keeps each row's keys and gives one row or more. */
function keysBelow(order: SortItem[], op: Op): SortItem[] | undefined {
  if (op.op !== 'OptionalExpand' && op.op !== 'Optional') return undefined;
  return order.every((o) => {
    const vars = varsOf(o.expr);
    return vars !== 'late' && ![...vars].some((v) => op.nullable.includes(v));
  })
    ? order
    : undefined;
}

/** The order's keys written over a projection's input (its items replaced by what they project). */
function throughProjection(order: SortItem[], items: Item[], keep: boolean): SortItem[] | undefined {
  const out: SortItem[] = [];
  for (const o of order) {
    const vars = varsOf(o.expr);
    if (vars === 'late' || (!keep && [...vars].some((v) => !items.some((it) => it.name === v)))) return undefined;
    const expr: Expr = mapExpr(o.expr, (x) =>
      x.kind === 'var' ? items.find((it) => it.name === x.name)?.expr : undefined,
    );
    out.push({ ...o, expr });
  }
  return out;
}

/**
 * The variables of the OPTIONAL MATCH's input rows that it and a Projection (not extending its rows) over it read;
 * undefined when that is not known.
 */
function readsAbove(proj: Extract<Op, { op: 'Projection' }>, optional: Extract<Op, { op: 'OptionalExpand' }>) {
  if (proj.keep || optional.expand.into || optional.expand.relBound) return undefined;
  const out = new Set<string>([optional.expand.from, ...optional.expand.distinctFrom]);
  const exprs: Expr[] = proj.items.map((it) => it.expr);
  for (const p of optional.predicates) {
    if (p.kind === 'expr') exprs.push(p.expr);
    else if (p.kind === 'props') exprs.push(p.map);
    else out.add(p.variable);
  }
  for (const e of exprs) {
    const vars = varsOf(e);
    if (vars === 'late') return undefined;
    for (const v of vars) out.add(v);
  }
  const made = new Set([...optional.nullable, optional.expand.to, optional.expand.rel]);
  return [...out].filter((v) => !made.has(v));
}

/** Whole plan, last: a Top over [a Projection over] an OPTIONAL MATCH gets a Top `ties` below the OPTIONAL MATCH. */
export function topThroughOptional(plan: Op): Op {
  const o = mapInputs(plan, topThroughOptional);
  if (o.op !== 'Top' || o.ties || o.distinct) return o;
  const proj = o.input.op === 'Projection' ? o.input : undefined;
  const optional = proj ? proj.input : o.input;
  if (optional.op !== 'OptionalExpand' && optional.op !== 'Optional') return o;
  const mapped = proj ? throughProjection(o.order, proj.items, proj.keep) : o.order;
  const order = mapped && keysBelow(mapped, optional);
  if (!order || optional.input.op === 'Top') return o;
  const below: TopOp = {
    op: 'Top',
    input: optional.input,
    order,
    skip: o.skip,
    limit: o.limit,
    ties: true,
    est: o.est,
  };
  const reads = proj && optional.op === 'OptionalExpand' ? readsAbove(proj, optional) : undefined;
  if (reads) below.reads = reads;
  const opt: Op = { ...optional, input: below };
  return { ...o, input: proj ? { ...proj, input: opt } : opt };
}

// Keys only, no input order: rows tied on every key compare 0.
function keysOrder(order: SortItem[]): (a: Keyed, b: Keyed) => number {
  return (a, b) => {
    for (let i = 0; i < order.length; i++) {
      const c = orderCompare(a.keys[i]!, b.keys[i]!);
      if (c !== 0) return order[i]!.descending ? -c : c;
    }
    return 0;
  };
}

/**
 * The SKIP + LIMIT best rows and every row tied with the last of them, in input order. Rows are held and, each
 * time they pass twice the number kept, cut to those at least as good as the kept-th best.
 */
export function* topWithTies(r: Runner, op: TopOp, arg: Row): Generator<Row> {
  const ctx = r.ctx;
  const keep = (op.skip ? count(op.skip, 'SKIP', ctx) : 0) + count(op.limit, 'LIMIT', ctx);
  if (keep === 0) return;
  const cmp = keysOrder(op.order);
  const held = new Held(ctx.budget, 'ORDER BY');
  // Over a chain, the rows to keep are picked off its walk (chain-top.ts).
  const picked = topChainTies(r, op, held);
  if (picked) {
    try {
      return yield* r.wrap(op.input, picked);
    } finally {
      held.release();
    }
  }
  let rows: Keyed[] = [];
  // Many ties can keep more than `keep` rows: the next cut waits until the rows held have doubled again.
  let next = 2 * keep + 64;
  const cut = () => {
    if (rows.length <= keep) return;
    const worst = [...rows].sort(cmp)[keep - 1]!;
    const kept: Keyed[] = [];
    for (const k of rows) {
      if (cmp(k, worst) <= 0) kept.push(k);
      else held.add(-k.bytes);
    }
    rows = kept;
    next = Math.max(next, 2 * rows.length + 64);
  };
  try {
    let seq = 0;
    for (const row of r.rows(op.input, arg)) {
      ctx.budget.tick();
      const k = keyed(row, op.order, ctx, seq++);
      held.add(weigh(k));
      rows.push(k);
      if (rows.length >= next) cut();
    }
    cut();
    for (const k of rows) yield k.r;
  } finally {
    held.release();
  }
}
