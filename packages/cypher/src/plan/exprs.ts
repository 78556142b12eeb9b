// Expression helpers of the planner: the variables an expression reads, and a copy with some subexpressions
// replaced (variables by the expressions they were projected from, aggregates by the names that hold them).
import { children } from '../aggregate.js';
import type { Expr } from '../ast.js';

/** The names an expression reads; `late` when it holds a pattern (placed after the whole MATCH). */
export function varsOf(e: Expr): Set<string> | 'late' {
  const out = new Set<string>();
  let late = false;
  const visit = (x: Expr) => {
    if (x.kind === 'var') out.add(x.name);
    else if (x.kind === 'mapProjection') out.add(x.target);
    if (x.kind === 'patternExpr' || x.kind === 'patternComp' || x.kind === 'existsSubquery') late = true;
    for (const c of children(x)) visit(c);
  };
  visit(e);
  return late ? 'late' : out;
}

/** Whether `e` reads only variables among `names` (no pattern, whose variables are known only when it runs). */
export function readsOnly(e: Expr, names: ReadonlySet<string> | readonly string[]): boolean {
  const vars = varsOf(e);
  if (vars === 'late') return false;
  const has = Array.isArray(names)
    ? (v: string) => names.includes(v)
    : (v: string) => (names as ReadonlySet<string>).has(v);
  for (const v of vars) if (!has(v)) return false;
  return true;
}

/**
 * `e` with each subexpression for which `f` answers replaced by the answer (scoping expressions such as
 * comprehensions are kept as they are: callers only rewrite expressions without them).
 */
export function mapExpr(e: Expr, f: (x: Expr) => Expr | undefined): Expr {
  const hit = f(e);
  if (hit) return hit;
  const s = (x: Expr) => mapExpr(x, f);
  switch (e.kind) {
    case 'list':
      return { ...e, items: e.items.map(s) };
    // Deliberate likeness: one case per expression kind, as every walk over the expression tree (aggregate.ts) has.
    case 'map':
      return { ...e, entries: e.entries.map(([k, v]) => [k, s(v)]) };
    case 'prop':
    case 'hasLabels':
      return { ...e, target: s(e.target) };
    case 'index':
      return { ...e, target: s(e.target), index: s(e.index) };
    case 'slice':
      return { ...e, target: s(e.target), from: e.from && s(e.from), to: e.to && s(e.to) };
    case 'unary':
    case 'isNull':
      return { ...e, arg: s(e.arg) };
    case 'binary':
      return { ...e, left: s(e.left), right: s(e.right) };
    case 'compare':
      return { ...e, args: e.args.map(s) };
    case 'call':
      return { ...e, args: e.args.map(s) };
    case 'case':
      return {
        ...e,
        subject: e.subject && s(e.subject),
        whens: e.whens.map(([a, b]) => [s(a), s(b)]),
        otherwise: e.otherwise && s(e.otherwise),
      };
    default:
      return e;
  }
}
