// Expression evaluation over one row, with openCypher's null propagation and ternary logic.
import type { Expr } from './ast.js';
import { type Budget, ListBuilder, MAX_VALUE_DEPTH, measure, remember } from './budget.js';
import { compare, equals } from './compare.js';
import {
  CypherEntityNotFoundError,
  CypherParameterMissingError,
  CypherSyntaxError,
  CypherTypeError,
} from './errors.js';
import { checkedInt, lookupFunction, rangeValues } from './functions.js';
import { temporalProperty } from './temporal/operators.js';
import type { GraphReader } from './graph.js';
import type { Procedures } from './procedures.js';
import { matchPart, matchPattern } from './match.js';
import { subqueryHasRows } from './execute.js';
import { arithmetic } from './eval/arithmetic.js';
import { regexMatches } from './regex.js';
import {
  type CypherMap,
  GraphNode,
  GraphRelationship,
  isMap,
  ownValue,
  PathValue,
  setOwn,
  type Value,
  typeName,
} from './values.js';

export type Row = Record<string, Value>;

/** A variable of a row: its own binding only (a variable named `constructor` is not Object's). */
export const lookup = (row: Row, name: string): Value | undefined => ownValue(row, name);

export interface EvalContext {
  graph: GraphReader;
  params: Record<string, Value>;
  /** Procedures CALL may name. */
  procedures?: Procedures;
  /** Values of aggregate calls, computed per group by the projection. */
  aggregates?: Map<Expr, Value>;
  /** The query's budgets: its deadline (ticked in every loop that can run long) and size limits. */
  budget: Budget;
  /** The query writes: a LIMIT still reads all of its input, so the writes before it happen for every row. */
  writes?: boolean;
  /**
   * The caller takes a result cell that is a safe INTEGER as that JS number (runPrepared's `safeIntegers`):
   * result rows made from columns write an integer column's cells as read, with no BigInt made and converted.
   */
  integersAsNumbers?: boolean;
}

/** A map the engine built, measured and checked against the budgets like a list. */
function builtMap(m: CypherMap, budget: Budget, what: string): CypherMap {
  let bytes = 32;
  let depth = 0;
  for (const [k, x] of Object.entries(m)) {
    const v = measure(x);
    bytes += 24 + 2 * k.length + v.bytes;
    if (v.depth > depth) depth = v.depth;
  }
  if (bytes > budget.maxMemoryBytes || depth + 1 > MAX_VALUE_DEPTH) budget.value(bytes, depth + 1, what);
  return remember(m, bytes, depth + 1);
}

const typeErr = (msg: string, detail = 'InvalidArgumentType') => new CypherTypeError(detail, msg);

/**
 * The list an UNWIND, comprehension or quantifier walks: a `range(…)` call is read lazily (rangeValues),
 * anything else is evaluated. null stays null; a value that is not a list is returned as it is.
 */
export function listSource(e: Expr, row: Row, ctx: EvalContext): Iterable<Value> | Value {
  if (
    e.kind === 'call' &&
    e.name.toLowerCase() === 'range' &&
    !e.distinct &&
    e.args.length >= 2 &&
    e.args.length <= 3
  ) {
    return rangeValues(
      e.args.map((a) => evaluate(a, row, ctx)),
      ctx.budget,
    );
  }
  return evaluate(e, row, ctx);
}

/** A list, or range()'s lazy values. */
export const isList = (v: Iterable<Value> | Value): v is Iterable<Value> =>
  Array.isArray(v) || (typeof v === 'object' && v !== null && typeof (v as Partial<Generator>).next === 'function');

export function truthy(v: Value): boolean | null {
  if (v === null || typeof v === 'boolean') return v;
  throw typeErr(`expected a BOOLEAN, got ${typeName(v)}`);
}

function property(target: Value, key: string): Value {
  if (target === null) return null;
  if (target instanceof GraphNode || target instanceof GraphRelationship) {
    if (target.deleted) throw new CypherEntityNotFoundError('DeletedEntityAccess', 'the entity was deleted');
    return target.property(key) ?? null;
  }
  if (isMap(target)) return ownValue(target, key) ?? null;
  const component = temporalProperty(target, key);
  if (component !== undefined) return component;
  throw typeErr(`cannot read property '${key}' of ${typeName(target)}`);
}

// Deliberate likeness (plan/physical.ts raw): a dispatch over a union's kinds, one case a line; alike in shape only.
export function evaluate(e: Expr, row: Row, ctx: EvalContext): Value {
  switch (e.kind) {
    case 'literal':
      return e.value;
    case 'param': {
      const v = ownValue(ctx.params, e.name);
      if (v === undefined) throw new CypherParameterMissingError(e.name);
      return v;
    }
    case 'var':
      return lookup(row, e.name) ?? null;
    case 'list': {
      const out = new ListBuilder(ctx.budget, 'a list');
      for (const x of e.items) out.push(evaluate(x, row, ctx));
      return out.done();
    }
    case 'map': {
      const out: CypherMap = {};
      for (const [k, x] of e.entries) setOwn(out, k, evaluate(x, row, ctx));
      return builtMap(out, ctx.budget, 'a map');
    }
    case 'prop':
      return property(evaluate(e.target, row, ctx), e.key);
    case 'index':
      return indexValue(evaluate(e.target, row, ctx), evaluate(e.index, row, ctx));
    case 'slice':
      return sliceValue(
        evaluate(e.target, row, ctx),
        e.from ? evaluate(e.from, row, ctx) : undefined,
        e.to ? evaluate(e.to, row, ctx) : undefined,
      );
    case 'hasLabels': {
      const v = evaluate(e.target, row, ctx);
      if (v === null) return null;
      // On a relationship, `r:T` tests its type.
      if (v instanceof GraphRelationship) return e.labels.every((l) => v.type === l);
      if (!(v instanceof GraphNode)) throw typeErr(`labels can only be tested on a NODE, got ${typeName(v)}`);
      return e.labels.every((l) => v.labels.includes(l));
    }
    case 'unary': {
      const v = evaluate(e.arg, row, ctx);
      if (e.op === 'not') {
        const b = truthy(v);
        return b === null ? null : !b;
      }
      if (v === null) return null;
      if (typeof v === 'bigint') return e.op === '-' ? checkedInt(-v) : v;
      if (typeof v === 'number') return e.op === '-' ? -v : v;
      throw typeErr(`cannot apply unary ${e.op} to ${typeName(v)}`);
    }
    case 'binary':
      return binary(e, row, ctx);
    case 'compare':
      return compareChain(e, row, ctx);
    case 'isNull': {
      const v = evaluate(e.arg, row, ctx);
      return e.negated ? v !== null : v === null;
    }
    case 'call':
      return callFunction(e, row, ctx);
    case 'case':
      return caseValue(e, row, ctx);
    case 'listComp':
      return listComprehension(e, row, ctx);
    case 'quantifier':
      return quantifier(e, row, ctx);
    case 'patternComp': {
      const out = new ListBuilder(ctx.budget, 'a pattern comprehension');
      for (const r of matchPart(e.pattern, row, ctx, new Set())) {
        if (e.where && evaluate(e.where, r, ctx) !== true) continue;
        out.push(evaluate(e.map, r, ctx));
      }
      return out.done();
    }
    case 'patternExpr': {
      for (const _ of matchPart(e.pattern, row, ctx, new Set())) return true;
      return false;
    }
    case 'existsSubquery': {
      if (e.query) return subqueryHasRows(e.query, row, ctx);
      for (const r of matchPattern(e.pattern ?? [], row, ctx)) {
        if (!e.where || truthy(evaluate(e.where, r, ctx)) === true) return true;
      }
      return false;
    }
    case 'mapProjection':
      return mapProjection(e, row, ctx);
  }
}

function compareChain(e: Extract<Expr, { kind: 'compare' }>, row: Row, ctx: EvalContext): Value {
  let result: boolean | null = true;
  let left = evaluate(e.args[0]!, row, ctx);
  for (let i = 0; i < e.ops.length; i++) {
    const right = evaluate(e.args[i + 1]!, row, ctx);
    const r = compareOp(e.ops[i]!, left, right);
    if (r === false) return false;
    if (r === null) result = null;
    left = right;
  }
  return result;
}

function caseValue(e: Extract<Expr, { kind: 'case' }>, row: Row, ctx: EvalContext): Value {
  if (e.subject) {
    const s = evaluate(e.subject, row, ctx);
    for (const [w, t] of e.whens) if (equals(s, evaluate(w, row, ctx)) === true) return evaluate(t, row, ctx);
  } else {
    for (const [w, t] of e.whens) if (evaluate(w, row, ctx) === true) return evaluate(t, row, ctx);
  }
  return e.otherwise ? evaluate(e.otherwise, row, ctx) : null;
}

function listComprehension(e: Extract<Expr, { kind: 'listComp' }>, row: Row, ctx: EvalContext): Value {
  const src = listSource(e.source, row, ctx);
  if (src === null) return null;
  if (!isList(src)) throw typeErr(`expected a LIST, got ${typeName(src)}`);
  const out = new ListBuilder(ctx.budget, 'a list comprehension');
  for (const x of src) {
    const inner = { ...row, [e.variable]: x };
    if (e.where && evaluate(e.where, inner, ctx) !== true) {
      ctx.budget.tick();
      continue;
    }
    out.push(e.map ? evaluate(e.map, inner, ctx) : x);
  }
  return out.done();
}

function mapProjection(e: Extract<Expr, { kind: 'mapProjection' }>, row: Row, ctx: EvalContext): Value {
  const target = lookup(row, e.target) ?? null;
  if (target === null) return null;
  const out: CypherMap = {};
  for (const item of e.items) {
    if (item.kind === 'property') setOwn(out, item.key, property(target, item.key));
    else if (item.kind === 'all') {
      const props = target instanceof GraphNode || target instanceof GraphRelationship ? target.properties : target;
      if (!isMap(props)) throw typeErr(`cannot project ${typeName(target)}`);
      for (const [k, x] of Object.entries(props)) setOwn(out, k, x);
    } else if (item.kind === 'variable') setOwn(out, item.name, lookup(row, item.name) ?? null);
    else setOwn(out, item.key, evaluate(item.value, row, ctx));
  }
  return builtMap(out, ctx.budget, 'a map projection');
}

function compareOp(op: string, a: Value, b: Value): boolean | null {
  switch (op) {
    case '=':
      return equals(a, b);
    case '<>': {
      const r = equals(a, b);
      return r === null ? null : !r;
    }
  }
  // NaN is a number that is neither smaller nor larger than any other number.
  if ((typeof a === 'number' && Number.isNaN(a)) || (typeof b === 'number' && Number.isNaN(b))) {
    return (typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')
      ? false
      : null;
  }
  const c = compare(a, b);
  if (c === null) return null;
  switch (op) {
    case '<':
      return c < 0;
    case '>':
      return c > 0;
    case '<=':
      return c <= 0;
    default:
      return c >= 0;
  }
}

function indexValue(target: Value, index: Value): Value {
  if (target === null || index === null) return null;
  if (Array.isArray(target)) {
    if (typeof index !== 'bigint') throw typeErr(`a list index must be an INTEGER, got ${typeName(index)}`);
    let i = Number(index);
    if (i < 0) i += target.length;
    return target[i] ?? null;
  }
  if (isMap(target) || target instanceof GraphNode || target instanceof GraphRelationship) {
    if (typeof index !== 'string') {
      throw typeErr(`a map key must be a STRING, got ${typeName(index)}`, 'MapElementAccessByNonString');
    }
    return property(target, index);
  }
  throw typeErr(`cannot index ${typeName(target)}`);
}

function sliceValue(target: Value, from: Value | undefined, to: Value | undefined): Value {
  if (target === null || from === null || to === null) return null;
  if (!Array.isArray(target)) throw typeErr(`cannot slice ${typeName(target)}`);
  const n = target.length;
  const norm = (v: Value | undefined, dflt: number) => {
    if (v === undefined) return dflt;
    if (typeof v !== 'bigint') throw typeErr(`a list index must be an INTEGER, got ${typeName(v)}`);
    const i = Number(v);
    return Math.max(0, Math.min(n, i < 0 ? n + i : i));
  };
  return target.slice(norm(from, 0), norm(to, n));
}

function quantifier(e: Extract<Expr, { kind: 'quantifier' }>, row: Row, ctx: EvalContext): Value {
  const src = listSource(e.source, row, ctx);
  if (src === null) return null;
  if (!isList(src)) throw typeErr(`expected a LIST, got ${typeName(src)}`);
  let trues = 0;
  let nulls = 0;
  let total = 0;
  for (const x of src) {
    total++;
    ctx.budget.tick();
    const r = e.where ? truthy(evaluate(e.where, { ...row, [e.variable]: x }, ctx)) : x === null ? null : true;
    if (r === true) trues++;
    else if (r === null) nulls++;
  }
  const falses = total - trues - nulls;
  switch (e.quantifier) {
    case 'all':
      return falses > 0 ? false : nulls > 0 ? null : true;
    case 'any':
      return trues > 0 ? true : nulls > 0 ? null : false;
    case 'none':
      return trues > 0 ? false : nulls > 0 ? null : true;
    default:
      return trues > 1 ? false : nulls > 0 ? null : trues === 1;
  }
}

function callFunction(e: Extract<Expr, { kind: 'call' }>, row: Row, ctx: EvalContext): Value {
  const agg = ctx.aggregates?.get(e);
  if (agg !== undefined) return agg;
  const def = lookupFunction(e.name);
  if (!def) throw new CypherSyntaxError('UnknownFunction', `unknown function ${e.name}()`, undefined, 'runtime');
  if (e.name.toLowerCase() === 'exists') return evaluate(e.args[0]!, row, ctx) !== null;
  return def.fn(
    e.args.map((a) => evaluate(a, row, ctx)),
    ctx.budget,
  );
}

function binary(e: Extract<Expr, { kind: 'binary' }>, row: Row, ctx: EvalContext): Value {
  if (e.op === 'and' || e.op === 'or' || e.op === 'xor') {
    const a = truthy(evaluate(e.left, row, ctx));
    if (e.op === 'and' && a === false) return false;
    if (e.op === 'or' && a === true) return true;
    const b = truthy(evaluate(e.right, row, ctx));
    if (e.op === 'and') return b === false ? false : a === null || b === null ? null : true;
    if (e.op === 'or') return b === true ? true : a === null || b === null ? null : false;
    return a === null || b === null ? null : a !== b;
  }
  const a = evaluate(e.left, row, ctx);
  const b = evaluate(e.right, row, ctx);
  switch (e.op) {
    case 'in': {
      if (b === null) return null;
      if (!Array.isArray(b)) throw typeErr(`IN expects a LIST, got ${typeName(b)}`);
      let unknown = false;
      for (const x of b) {
        ctx.budget.tick();
        const r = equals(a, x);
        if (r === true) return true;
        if (r === null) unknown = true;
      }
      return unknown ? null : false;
    }
    case 'startsWith':
      return typeof a === 'string' && typeof b === 'string' ? a.startsWith(b) : null;
    case 'endsWith':
      return typeof a === 'string' && typeof b === 'string' ? a.endsWith(b) : null;
    case 'contains':
      return typeof a === 'string' && typeof b === 'string' ? a.includes(b) : null;
    case '=~':
      if (typeof a !== 'string' || typeof b !== 'string') return null;
      return regexMatches(a, b);
    default:
      return arithmetic(e.op, a, b, ctx.budget);
  }
}

export { PathValue };
