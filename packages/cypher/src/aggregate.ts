// Aggregating functions over a group of rows: count, sum, avg, min, max, collect, stDev, stDevP,
// percentileCont, percentileDisc. Nulls are skipped; DISTINCT keeps the first of equivalent values.
import type { Expr } from './ast.js';
import { equivalenceKey, orderCompare } from './compare.js';
import { CypherArgumentError, CypherTypeError } from './errors.js';
import { type Held, ListBuilder, measure } from './budget.js';
import { type EvalContext, evaluate, type Row } from './eval.js';
import { checkedInt } from './functions.js';
import { type Value, typeName } from './values.js';

type Call = Extract<Expr, { kind: 'call' }>;

/** The aggregate calls inside an expression (not inside another aggregate). */
export function findAggregates(e: Expr, out: Call[], isAgg: (c: Call) => boolean): Call[] {
  const visit = (x: Expr | null | undefined): void => {
    if (!x) return;
    if (x.kind === 'call' && isAgg(x)) {
      out.push(x);
      return;
    }
    for (const child of children(x)) visit(child);
  };
  visit(e);
  return out;
}

export function children(e: Expr): Expr[] {
  switch (e.kind) {
    case 'list':
      return e.items;
    // Deliberate likeness: one case per expression kind, as every walk over the expression tree (plan/exprs.ts) has.
    case 'map':
      return e.entries.map((x) => x[1]);
    case 'prop':
    case 'hasLabels':
      return [e.target];
    case 'index':
      return [e.target, e.index];
    case 'slice':
      return [e.target, ...(e.from ? [e.from] : []), ...(e.to ? [e.to] : [])];
    case 'unary':
    case 'isNull':
      return [e.arg];
    case 'binary':
      return [e.left, e.right];
    case 'compare':
      return e.args;
    case 'call':
      return e.args;
    case 'case':
      return [...(e.subject ? [e.subject] : []), ...e.whens.flat(), ...(e.otherwise ? [e.otherwise] : [])];
    case 'listComp':
      return [e.source, ...(e.where ? [e.where] : []), ...(e.map ? [e.map] : [])];
    case 'quantifier':
      return [e.source, ...(e.where ? [e.where] : [])];
    case 'patternComp':
      return [...(e.where ? [e.where] : []), e.map];
    case 'mapProjection':
      return e.items.flatMap((i) => (i.kind === 'entry' ? [i.value] : []));
    case 'existsSubquery':
      return e.where ? [e.where] : [];
    default:
      return [];
  }
}

function numeric(name: string, v: Value): number | bigint {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  throw new CypherTypeError('InvalidArgumentType', `${name}() cannot take ${typeName(v)}`);
}

/** One aggregate over one group, fed row by row: the rows themselves are not kept. */
export interface Accumulator {
  add(row: Row): void;
  result(): Value;
}

/**
 * The accumulator of an aggregate call. What it keeps (collect's list, DISTINCT's seen values, the values of
 * stDev and the percentiles) is counted against the query's memory budget through `held`.
 */
export function accumulator(call: Call, ctx: EvalContext, held: Held): Accumulator {
  const name = call.name.toLowerCase();
  let rows = 0;
  let first: Row | undefined;
  if (call.star) {
    return {
      add: () => {
        rows++;
      },
      result: () => BigInt(rows),
    };
  }
  const seen = call.distinct ? new Set<string>() : undefined;
  const state = fold(name, call, ctx, held);
  return {
    add(row) {
      first ??= row;
      const v = evaluate(call.args[0]!, row, ctx);
      if (v === null) return;
      if (seen) {
        const k = equivalenceKey(v);
        if (seen.has(k)) return;
        seen.add(k);
        held.add(48 + 2 * k.length);
      }
      state.add(v);
    },
    result: () => state.result(first),
  };
}

interface Fold {
  add(v: Value): void;
  /** `first`: the group's first row, where percentiles read their second argument. */
  result(first: Row | undefined): Value;
}

function fold(name: string, call: Call, ctx: EvalContext, held: Held): Fold {
  switch (name) {
    case 'count': {
      let n = 0;
      return { add: () => void n++, result: () => BigInt(n) };
    }
    case 'collect': {
      const list = new ListBuilder(ctx.budget, 'collect()');
      return {
        add: (v) => {
          const before = list.size;
          list.push(v);
          held.add(list.size - before);
        },
        result: () => list.done(),
      };
    }
    case 'sum': {
      let acc: number | bigint = 0n;
      return {
        add: (v) => {
          const x = numeric('sum', v);
          acc = typeof acc === 'bigint' && typeof x === 'bigint' ? checkedInt(acc + x) : Number(acc) + Number(x);
        },
        result: () => acc,
      };
    }
    case 'avg': {
      let s = 0;
      let n = 0;
      return {
        add: (v) => {
          s += Number(numeric('avg', v));
          n++;
        },
        result: () => (n === 0 ? null : s / n),
      };
    }
    case 'min':
    case 'max': {
      let best: Value | undefined;
      return {
        add: (v) => {
          if (best === undefined) best = v;
          else {
            const c = orderCompare(v, best);
            if (name === 'min' ? c < 0 : c > 0) best = v;
          }
        },
        result: () => best ?? null,
      };
    }
    default: {
      // stDev, stDevP and the percentiles need every value: kept, and counted as held.
      const values: Value[] = [];
      return {
        add: (v) => {
          values.push(v);
          held.add(measure(v).bytes);
        },
        result: (first) =>
          name === 'stdev' || name === 'stdevp' ? stdev(name, values) : percentile(name, call, values, first, ctx),
      };
    }
  }
}

function stdev(name: string, values: Value[]): Value {
  const xs = values.map((v) => Number(numeric(name, v)));
  const n = xs.length;
  if (n === 0 || (name === 'stdev' && n === 1)) return 0;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const ss = xs.reduce((a, b) => a + (b - mean) ** 2, 0);
  return Math.sqrt(ss / (name === 'stdev' ? n - 1 : n));
}

function percentile(name: string, call: Call, values: Value[], first: Row | undefined, ctx: EvalContext): Value {
  const pv = evaluate(call.args[1]!, first ?? {}, ctx);
  const p = Number(numeric(name, pv));
  if (!(p >= 0 && p <= 1)) throw new CypherArgumentError('NumberOutOfRange', `percentile ${p} is not in [0, 1]`);
  const xs = values.map((v) => numeric(name, v)).sort((a, b) => Number(a) - Number(b));
  if (xs.length === 0) return null;
  if (name === 'percentiledisc') {
    const idx = p === 0 ? 0 : Math.ceil(p * xs.length) - 1;
    return xs[Math.max(0, idx)]!;
  }
  const pos = p * (xs.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = Number(xs[lo]!);
  const b = Number(xs[hi]!);
  return a + (b - a) * (pos - lo);
}
