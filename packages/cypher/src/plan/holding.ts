// The operators that hold rows (Aggregate, Distinct, Sort, Top, Union): what they hold is counted against the
// memory budget, and a Sort or an Aggregate whose rows all go to the result stops as soon as it holds more
// than max_rows.
import { type Accumulator, accumulator } from '../aggregate.js';
import type { SortItem } from '../ast.js';
import { type Budget, firstOfEach, Held, measure, rowBytes } from '../budget.js';
import { equivalenceKey, orderCompare } from '../compare.js';
import { CypherLimitError } from '../errors.js';
import { type EvalContext, evaluate, lookup, type Row } from '../eval.js';
import { count } from '../interpret/project.js';
import { setOwn, type Value } from '../values.js';
import type { Op } from './operators.js';
import { hopDegree } from './optional-expand.js';
import { isHopCount } from './optional-hop.js';
import type { Runner } from './physical.js';
import { topChainRows } from './chain-top.js';
import { topGroupRows } from './top-groups.js';
import { topWithTies } from './top-ties.js';

type OpOf<K extends Op['op']> = Extract<Op, { op: K }>;

export const tooMany = (budget: Budget, what: string) =>
  new CypherLimitError(
    'cypher_too_many_rows',
    'max_rows',
    budget.maxRows,
    `the query returns more than max_rows ${budget.maxRows} rows: ${what}`,
  );

/** One group per distinct key, each aggregate folded row by row (rows are not kept). */
export function* aggregate(r: Runner, op: OpOf<'Aggregate'>, arg: Row): Generator<Row> {
  const ctx = r.ctx;
  const held = new Held(ctx.budget, 'aggregation');
  const keyIndex = new Map(op.keys.map((k, i) => [k, i]));
  // A folded OPTIONAL MATCH (optional-expand.ts): each row counts max(k, 1) times; count(o) adds k.
  const degree = op.hop ? hopDegree(r, op.hop) : undefined;
  const hopCounts = op.aggregates.map((a) => isHopCount(a, op.hop));
  try {
    const groups = new Map<string, { keyRow: Row; keys: Value[]; accs: (Accumulator | undefined)[]; k: number }>();
    const group = (keyRow: Row, keys: Value[]) => ({
      keyRow,
      keys,
      accs: op.aggregates.map((a, i) => (hopCounts[i] ? undefined : accumulator(a, ctx, held))),
      k: 0,
    });
    for (const row of r.rows(op.input, arg)) {
      ctx.budget.tick();
      const keys = op.keys.map((k) => evaluate(k.expr, row, ctx));
      const k = equivalenceKey(keys);
      let g = groups.get(k);
      if (!g) {
        g = group(row, keys);
        groups.set(k, g);
        held.add(rowBytes(row) + 2 * k.length + 64 * (1 + op.aggregates.length));
        if (op.bounded && groups.size > ctx.budget.maxRows) {
          throw tooMany(ctx.budget, `the aggregation stopped at group ${groups.size}, before reading all of its input`);
        }
      }
      const d = degree ? degree(row) : 0;
      g.k += d;
      for (let m = Math.max(d, 1); m > 0; m--) for (const acc of g.accs) acc?.add(row);
    }
    if (groups.size === 0 && op.keys.length === 0) groups.set('', group({}, []));
    for (const g of groups.values()) {
      ctx.budget.tick();
      const values = new Map(
        op.aggregates.map((a, i) => [a, hopCounts[i] ? BigInt(g.k) : g.accs[i]!.result()] as const),
      );
      const actx: EvalContext = { ...ctx, aggregates: values };
      const o: Row = {};
      for (const it of op.items) {
        const ki = keyIndex.get(it);
        setOwn(o, it.name, ki !== undefined ? g.keys[ki]! : evaluate(it.expr, g.keyRow, actx));
      }
      yield op.keep ? { ...g.keyRow, ...o } : o;
    }
  } finally {
    held.release();
  }
}

/** The first row of each distinct value of `columns` (DISTINCT, UNION): the keys seen are held. */
function firstOfColumns(rows: Iterable<Row>, columns: string[], budget: Budget, what: string): Iterable<Row> {
  return firstOfEach(rows, (r) => columns.map((c) => lookup(r, c) ?? null), budget, what);
}

export function distinct(r: Runner, op: OpOf<'Distinct'>, arg: Row): Iterable<Row> {
  return firstOfColumns(r.rows(op.input, arg), op.columns, r.ctx.budget, 'DISTINCT');
}

export function union(r: Runner, op: OpOf<'Union'>, arg: Row): Iterable<Row> {
  const all = (function* () {
    for (const part of op.inputs) yield* r.rows(part, arg);
  })();
  return op.all ? all : firstOfColumns(all, op.columns, r.ctx.budget, 'UNION');
}

/** A row with its ORDER BY keys, its place in the input and what holding it costs. */
export type Keyed = { r: Row; keys: Value[]; seq: number; bytes: number };

/** The order of ORDER BY over keyed rows, ties in input order (so both Sort and Top are stable). */
export function keyOrder(order: SortItem[], ctx: EvalContext): (a: Keyed, b: Keyed) => number {
  return (a, b) => {
    ctx.budget.tick();
    for (let i = 0; i < order.length; i++) {
      const c = orderCompare(a.keys[i]!, b.keys[i]!);
      if (c !== 0) return order[i]!.descending ? -c : c;
    }
    return a.seq - b.seq;
  };
}

export function keyed(row: Row, order: SortItem[], ctx: EvalContext, seq: number): Keyed {
  return { r: row, keys: order.map((o) => evaluate(o.expr, row, ctx)), seq, bytes: 0 };
}

export function weigh(k: Keyed): number {
  k.bytes = rowBytes(k.r);
  for (const v of k.keys) k.bytes += measure(v).bytes;
  return k.bytes;
}

/**
 * ORDER BY: every row is held and sorted. `bounded`: every row held would be a row of the result, so holding
 * more than max_rows stops the query before it sorts.
 */
export function* sort(r: Runner, op: OpOf<'Sort'>, arg: Row): Generator<Row> {
  const ctx = r.ctx;
  const held = new Held(ctx.budget, 'ORDER BY');
  try {
    const buf: Keyed[] = [];
    for (const row of r.rows(op.input, arg)) {
      const k = keyed(row, op.order, ctx, buf.length);
      held.add(weigh(k));
      buf.push(k);
      if (op.bounded && buf.length > ctx.budget.maxRows) {
        throw tooMany(ctx.budget, `ORDER BY stopped at row ${buf.length}, before sorting`);
      }
    }
    buf.sort(keyOrder(op.order, ctx));
    for (const k of buf) yield k.r;
  } finally {
    held.release();
  }
}

/**
 * Top-k: a heap of the SKIP + LIMIT best rows so far (its root the worst of them); a row that does not beat
 * the root is dropped at once, without being measured or held. Ties keep their input order, as a stable sort.
 */
export function* top(r: Runner, op: OpOf<'Top'>, arg: Row): Generator<Row> {
  if (op.ties) return yield* topWithTies(r, op, arg);
  const ctx = r.ctx;
  const skip = op.skip ? count(op.skip, 'SKIP', ctx) : 0;
  const limit = count(op.limit, 'LIMIT', ctx);
  if (limit === 0) return;
  const keep = skip + limit;
  // > 0: a comes after b in the result.
  const cmp = keyOrder(op.order, ctx);
  const heap: Keyed[] = [];
  const swap = (i: number, j: number) => {
    [heap[i], heap[j]] = [heap[j]!, heap[i]!];
  };
  const up = (i: number) => {
    for (let p = (i - 1) >> 1; i > 0 && cmp(heap[i]!, heap[p]!) > 0; i = p, p = (i - 1) >> 1) swap(i, p);
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      let m = i;
      if (l < heap.length && cmp(heap[l]!, heap[m]!) > 0) m = l;
      if (l + 1 < heap.length && cmp(heap[l + 1]!, heap[m]!) > 0) m = l + 1;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  const held = new Held(ctx.budget, 'ORDER BY');
  try {
    let seq = 0;
    // DISTINCT folded in: the keys of the rows kept (a duplicate of a row dropped sorts after the k kept).
    const kept = op.distinct ? new Map<Keyed, string>() : undefined;
    const keys = kept && new Set<string>();
    // Over a columnar aggregation, only the groups that can be among the best become rows (top-groups.ts); over a
    // chain, only the best matches (chain-top.ts).
    const pre = topGroupRows(r, op) ?? topChainRows(r, op);
    for (const row of pre ? r.wrap(op.input, pre) : r.rows(op.input, arg)) {
      const k = keyed(row, op.order, ctx, seq++);
      if (heap.length >= keep && cmp(k, heap[0]!) >= 0) continue;
      if (kept) {
        const e = equivalenceKey(op.distinct!.map((c) => lookup(row, c) ?? null));
        if (keys!.has(e)) continue;
        keys!.add(e);
        kept.set(k, e);
      }
      held.add(weigh(k));
      if (heap.length < keep) {
        heap.push(k);
        up(heap.length - 1);
      } else {
        held.add(-heap[0]!.bytes);
        if (kept) {
          keys!.delete(kept.get(heap[0]!)!);
          kept.delete(heap[0]!);
        }
        heap[0] = k;
        down(0);
      }
    }
    heap.sort(cmp);
    for (let i = skip; i < heap.length; i++) yield heap[i]!.r;
  } finally {
    held.release();
  }
}
