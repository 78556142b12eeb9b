// Aggregating functions over a group of rows: count, sum, avg, min, max, collect, stDev, stDevP,
// percentileCont, percentileDisc. Nulls are skipped; DISTINCT keeps the first of equivalent values.
import type { Expr } from './ast.js';
import { equivalenceKey, orderCompare } from './compare.js';
import { CypherArgumentError, CypherTypeError } from './errors.js';
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

export function aggregate(call: Call, rows: Row[], ctx: EvalContext): Value {
  const name = call.name.toLowerCase();
  if (call.star) return BigInt(rows.length);
  let values: Value[] = [];
  for (const r of rows) {
    const v = evaluate(call.args[0]!, r, ctx);
    if (v !== null) values.push(v);
  }
  if (call.distinct) {
    const seen = new Set<string>();
    values = values.filter((v) => {
      const k = equivalenceKey(v);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  }
  switch (name) {
    case 'count':
      return BigInt(values.length);
    case 'collect':
      return values;
    case 'sum': {
      let acc: number | bigint = 0n;
      for (const v of values) {
        const x = numeric('sum', v);
        acc = typeof acc === 'bigint' && typeof x === 'bigint' ? checkedInt(acc + x) : Number(acc) + Number(x);
      }
      return acc;
    }
    case 'avg': {
      if (values.length === 0) return null;
      let s = 0;
      for (const v of values) s += Number(numeric('avg', v));
      return s / values.length;
    }
    case 'min':
    case 'max': {
      if (values.length === 0) return null;
      let best: Value = values[0] ?? null;
      for (const v of values.slice(1)) {
        const c = orderCompare(v, best);
        if (name === 'min' ? c < 0 : c > 0) best = v;
      }
      return best;
    }
    case 'stdev':
    case 'stdevp': {
      const xs = values.map((v) => Number(numeric(name, v)));
      const n = xs.length;
      if (n === 0 || (name === 'stdev' && n === 1)) return 0;
      const mean = xs.reduce((a, b) => a + b, 0) / n;
      const ss = xs.reduce((a, b) => a + (b - mean) ** 2, 0);
      return Math.sqrt(ss / (name === 'stdev' ? n - 1 : n));
    }
    default: {
      const pv = evaluate(call.args[1]!, rows[0] ?? {}, ctx);
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
  }
}
