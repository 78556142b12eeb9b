// The interpreter's projections (WITH, RETURN): items, aggregation, DISTINCT, ORDER BY, SKIP and LIMIT, and
// WITH … WHERE over the projected names.
import { type Accumulator, accumulator, findAggregates } from '../aggregate.js';
import type { Expr, Projection } from '../ast.js';
import { firstOfEach, Held, measure, rowBytes } from '../budget.js';
import { equivalenceKey, orderCompare } from '../compare.js';
import { CypherSyntaxError } from '../errors.js';
import { type EvalContext, evaluate, lookup, type Row, truthy } from '../eval.js';
import { AGGREGATES } from '../functions.js';
import { setOwn, type Value, typeName } from '../values.js';

type Call = Extract<Expr, { kind: 'call' }>;
export const isAggregate = (c: Call): boolean => AGGREGATES.has(c.name.toLowerCase());

/** A projected row, with the context ORDER BY and WITH … WHERE may read: the input row under the new names. */
interface Projected {
  row: Row;
  sortCtx: Row;
  aggValues?: Map<Expr, Value>;
}

export function project(
  p: Projection,
  rows: Iterable<Row>,
  scope: string[],
  ctx: EvalContext,
  where: Expr | null = null,
): { rows: Iterable<Row>; columns: string[] } {
  const items = [
    ...(p.star
      ? [...scope].sort().map((v) => ({ expr: { kind: 'var', name: v, pos: 0 } as Expr, alias: v, text: v }))
      : []),
    ...p.items,
  ];
  const columns = items.map((i) => i.alias ?? i.text);
  return { columns, rows: projectRows(p, items, columns, rows, ctx, where) };
}

function* projectRows(
  p: Projection,
  items: Projection['items'],
  columns: string[],
  rows: Iterable<Row>,
  ctx: EvalContext,
  where: Expr | null,
): Generator<Row> {
  const aggs: Call[] = [];
  for (const i of items) findAggregates(i.expr, aggs, isAggregate);
  const orderAggs: Call[] = [];
  for (const o of p.order) findAggregates(o.expr, orderAggs, isAggregate);
  let out =
    aggs.length === 0 && orderAggs.length === 0
      ? mapRows(items, columns, rows, ctx)
      : groupRows(items, columns, [...aggs, ...orderAggs], rows, ctx);
  if (p.distinct) out = distinctRows(out, columns, ctx);
  const skip = p.skip ? count(p.skip, 'SKIP', ctx) : 0;
  const limit = p.limit ? count(p.limit, 'LIMIT', ctx) : Number.POSITIVE_INFINITY;
  if (p.order.length > 0) out = sortedRows(out, p, ctx, skip + limit);
  // SKIP and LIMIT count rows before WITH … WHERE, which sees the projected names and the variables before.
  const it = out[Symbol.iterator]();
  try {
    let seen = 0;
    let taken = 0;
    for (let next = taken < limit ? it.next() : undefined; next && !next.done; next = it.next()) {
      if (seen++ < skip) continue;
      const r = next.value;
      if (!where || truthy(evaluate(where, r.sortCtx, ctx)) === true) yield r.row;
      if (++taken >= limit) break;
    }
    // Past the LIMIT a reading query stops here; a writing one reads on, so that its writes happen for all rows.
    if (ctx.writes) for (let next = it.next(); !next.done; next = it.next());
  } finally {
    it.return?.(undefined);
  }
}

function* mapRows(items: Projection['items'], columns: string[], rows: Iterable<Row>, ctx: EvalContext) {
  for (const row of rows) {
    ctx.budget.tick();
    const o: Row = {};
    items.forEach((it, k) => {
      setOwn(o, columns[k]!, evaluate(it.expr, row, ctx));
    });
    yield { row: o, sortCtx: { ...row, ...o } } as Projected;
  }
}

/** Aggregation: one group per distinct key, each aggregate folded row by row (rows are not kept). */
function* groupRows(
  items: Projection['items'],
  columns: string[],
  aggs: Call[],
  rows: Iterable<Row>,
  ctx: EvalContext,
): Generator<Projected> {
  const keyItems = items
    .map((it, k) => ({ it, k }))
    .filter(({ it }) => findAggregates(it.expr, [], isAggregate).length === 0);
  const held = new Held(ctx.budget, 'aggregation');
  try {
    const groups = new Map<string, { keyRow: Row; keys: Value[]; accs: Accumulator[] }>();
    const group = (keyRow: Row, keys: Value[]) => ({
      keyRow,
      keys,
      accs: aggs.map((a) => accumulator(a, ctx, held)),
    });
    for (const row of rows) {
      ctx.budget.tick();
      const keys = keyItems.map(({ it }) => evaluate(it.expr, row, ctx));
      const k = equivalenceKey(keys);
      let g = groups.get(k);
      if (!g) {
        g = group(row, keys);
        groups.set(k, g);
        held.add(rowBytes(row) + 2 * k.length + 64 * (1 + aggs.length));
      }
      for (const acc of g.accs) acc.add(row);
    }
    if (groups.size === 0 && keyItems.length === 0) groups.set('', group({}, []));
    for (const g of groups.values()) {
      ctx.budget.tick();
      const values = new Map<Expr, Value>();
      aggs.forEach((a, i) => {
        values.set(a, g.accs[i]!.result());
      });
      const actx = { ...ctx, aggregates: values };
      const o: Row = {};
      items.forEach((it, k) => {
        const ki = keyItems.findIndex((x) => x.k === k);
        setOwn(o, columns[k]!, ki >= 0 ? g.keys[ki]! : evaluate(it.expr, g.keyRow, actx));
      });
      yield { row: o, sortCtx: { ...g.keyRow, ...o }, aggValues: values };
    }
  } finally {
    held.release();
  }
}

function distinctRows(out: Iterable<Projected>, columns: string[], ctx: EvalContext): Generator<Projected> {
  return firstOfEach(out, (r) => columns.map((c) => lookup(r.row, c) ?? null), ctx.budget, 'DISTINCT');
}

/**
 * ORDER BY: every row is held, or with a LIMIT only the `keep` (SKIP + LIMIT) first: the buffer is sorted
 * and cut back whenever it doubles. The sort is stable, so ties keep their input order either way.
 */
function* sortedRows(out: Iterable<Projected>, p: Projection, ctx: EvalContext, keep: number): Generator<Projected> {
  const held = new Held(ctx.budget, 'ORDER BY');
  type Keyed = { r: Projected; keys: Value[]; bytes: number };
  const cmp = (a: Keyed, b: Keyed) => {
    ctx.budget.tick();
    for (let i = 0; i < p.order.length; i++) {
      const c = orderCompare(a.keys[i]!, b.keys[i]!);
      if (c !== 0) return p.order[i]!.descending ? -c : c;
    }
    return 0;
  };
  const cut = (buf: Keyed[]) => {
    buf.sort(cmp);
    if (buf.length <= keep) return;
    for (const k of buf.slice(keep)) held.add(-k.bytes);
    buf.length = keep;
  };
  try {
    const buf: Keyed[] = [];
    for (const r of out) {
      const octx = r.aggValues ? { ...ctx, aggregates: r.aggValues } : ctx;
      const keys = p.order.map((o) => evaluate(o.expr, r.sortCtx, octx));
      let bytes = rowBytes(r.sortCtx) + rowBytes(r.row);
      for (const k of keys) bytes += measure(k).bytes;
      held.add(bytes);
      buf.push({ r, keys, bytes });
      if (buf.length >= 2 * keep + 1024) cut(buf);
    }
    cut(buf);
    for (const k of buf) yield k.r;
  } finally {
    held.release();
  }
}

/** The value of a SKIP or LIMIT: a non-negative INTEGER, read once before any row. */
export function count(e: Expr, what: string, ctx: EvalContext): number {
  const v = evaluate(e, {}, ctx);
  if (typeof v === 'number' && Number.isInteger(v))
    return count({ kind: 'literal', value: BigInt(v), pos: 0 }, what, ctx);
  if (typeof v !== 'bigint') {
    throw new CypherSyntaxError(
      'InvalidArgumentType',
      `${what} needs an INTEGER, got ${typeName(v)}`,
      undefined,
      'runtime',
    );
  }
  if (v < 0n)
    throw new CypherSyntaxError('NegativeIntegerArgument', `${what} cannot be negative`, undefined, 'runtime');
  return Number(v);
}
