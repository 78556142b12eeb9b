// The pieces of the compile-time checks that look at one expression on its own: variable kinds, the
// canonical form of an expression (grouping keys), aggregation ambiguity, literal kinds, function arguments.
import { children } from '../aggregate.js';
import type { Expr } from '../ast.js';
import { CypherSyntaxError } from '../errors.js';
import { AGGREGATES } from '../functions.js';

export type VarType = 'node' | 'rel' | 'path' | 'scalar' | 'map' | 'any';
export type Scope = Map<string, VarType>;
type Call = Extract<Expr, { kind: 'call' }>;

export const fail = (detail: string, message: string): never => {
  throw new CypherSyntaxError(detail, message);
};
export const isAgg = (c: Call) => AGGREGATES.has(c.name.toLowerCase());

export function exprType(e: Expr): VarType {
  if (e.kind === 'literal') return e.value === null ? 'any' : 'scalar';
  if (e.kind === 'list') return 'scalar';
  if (e.kind === 'map') return 'map';
  return 'any';
}

export const canon = (e: Expr): string =>
  JSON.stringify(e, (k, v) => (k === 'pos' ? undefined : typeof v === 'bigint' ? `${v}n` : v));

/** `e` with every subexpression found in `names` (by canonical form) replaced by that column's variable. */
export function substitute(e: Expr, names: Map<string, string>): Expr {
  const deep = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(deep);
    if (v === null || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    if (typeof o.kind === 'string' && typeof o.pos === 'number') {
      const name = names.get(canon(o as unknown as Expr));
      if (name !== undefined) return { kind: 'var', name, pos: o.pos };
    }
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, deep(x)]));
  };
  return deep(e) as Expr;
}

/**
 * An aggregating item may use, outside its aggregates, only constants and grouping keys that are a variable
 * or a variable's property (a longer expression, even if projected, is ambiguous).
 */
export function checkAmbiguous(e: Expr, keys: Expr[]): void {
  const simple = (k: Expr) => k.kind === 'var' || (k.kind === 'prop' && k.target.kind === 'var');
  const keySet = new Set(keys.filter(simple).map(canon));
  const visit = (x: Expr, bound: Set<string>): void => {
    if (keySet.has(canon(x))) return;
    if (x.kind === 'call' && isAgg(x)) return;
    if (x.kind === 'var') {
      if (!bound.has(x.name))
        fail('AmbiguousAggregationExpression', `${x.name} is neither aggregated nor a grouping key`);
      return;
    }
    if (x.kind === 'listComp' || x.kind === 'quantifier') {
      visit(x.source, bound);
      const inner = new Set([...bound, x.variable]);
      for (const c of children(x).slice(1)) visit(c, inner);
      return;
    }
    for (const c of children(x)) visit(c, bound);
  };
  visit(e, new Set());
}

export function hasVariables(e: Expr): boolean {
  if (e.kind === 'var' || e.kind === 'patternExpr' || e.kind === 'patternComp' || e.kind === 'mapProjection')
    return true;
  return children(e).some(hasVariables);
}

export const nonBooleanLiteral = (e: Expr) =>
  (e.kind === 'literal' && e.value !== null && typeof e.value !== 'boolean') || e.kind === 'list' || e.kind === 'map';

export const isLiteralOf = (e: Expr, ok: (v: unknown) => boolean) =>
  (e.kind === 'literal' && e.value !== null && !ok(e.value)) ||
  (e.kind === 'list' && !ok([])) ||
  (e.kind === 'map' && !ok({}));

// Functions whose first argument, a variable of one of these kinds, is refused at compile time.
const WRONG_KIND: Record<string, [VarType[], string]> = {
  size: [['path'], 'size() takes a LIST or STRING, not a PATH'],
  labels: [['path', 'rel'], 'labels() takes a NODE'],
  type: [['node', 'path'], 'type() takes a RELATIONSHIP'],
  length: [['node', 'rel'], 'length() takes a PATH'],
};

/** Arguments whose kind is known at compile time and cannot be what the function takes. */
export function checkCallArguments(e: Call, scope: Scope): void {
  const fname = e.name.toLowerCase();
  const arg = e.args[0];
  const argType = arg?.kind === 'var' ? scope.get(arg.name) : undefined;
  const wrong = Object.hasOwn(WRONG_KIND, fname) ? WRONG_KIND[fname] : undefined;
  if (wrong && argType !== undefined && wrong[0].includes(argType)) fail('InvalidArgumentType', wrong[1]);
  if (
    fname === 'properties' &&
    arg &&
    isLiteralOf(arg, (v) => v !== null && typeof v === 'object' && !Array.isArray(v))
  ) {
    fail('InvalidArgumentType', 'properties() takes a NODE, a RELATIONSHIP or a MAP');
  }
}
