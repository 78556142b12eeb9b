// What makes a node pattern an index seek: `v.key = expr` with expr known before v is bound, and the ends of a
// range (`v.key < expr`, `v.key STARTS WITH 'literal'`) on a key with an ordered index (planner.ts).
import type { Expr } from '../ast.js';
import { varsOf } from './exprs.js';
import type { ColumnFilter } from './operators.js';

/** `v.key = expr` (either side) with expr readable before v is bound: an index seek's key and value. */
export function seekOf(e: Expr, v: string, bound: Set<string>): { key: string; value: Expr } | undefined {
  if (e.kind !== 'compare' || e.ops.length !== 1 || e.ops[0] !== '=') return undefined;
  const [a, b] = e.args as [Expr, Expr];
  for (const [p, x] of [
    [a, b],
    [b, a],
  ] as const) {
    if (p.kind !== 'prop' || p.target.kind !== 'var' || p.target.name !== v) continue;
    const vars = varsOf(x);
    if (vars !== 'late' && [...vars].every((n) => bound.has(n))) return { key: p.key, value: x };
  }
  return undefined;
}

export type RangeEnd = { value: Expr; inclusive: boolean };

type RangeSide = { key: string; side: 'lower' | 'upper'; end: RangeEnd };

/**
 * `v.key < expr` and the like (either side), expr readable before v is bound: one end of an index range;
 * `v.key STARTS WITH 'literal'`: both ends (the strings from the prefix up to, not including, the prefix
 * with its last character's code one higher).
 */
export function rangeOf(e: Expr, v: string, bound: Set<string>): RangeSide[] {
  if (e.kind === 'binary' && e.op === 'startsWith') {
    const [p, x] = [e.left, e.right];
    if (p.kind !== 'prop' || p.target.kind !== 'var' || p.target.name !== v) return [];
    if (x.kind !== 'literal' || typeof x.value !== 'string' || x.value === '') return [];
    const last = x.value.charCodeAt(x.value.length - 1);
    const lower: RangeSide = { key: p.key, side: 'lower', end: { value: x, inclusive: true } };
    if (last === 0xffff) return [lower];
    const next = x.value.slice(0, -1) + String.fromCharCode(last + 1);
    const upper: RangeEnd = { value: { kind: 'literal', value: next, pos: x.pos }, inclusive: false };
    return [lower, { key: p.key, side: 'upper', end: upper }];
  }
  return compareRange(e, v, bound);
}

/**
 * `v.key STARTS WITH 'literal'` as the column comparisons `key >= prefix` and `key < next` (rangeOf's ends),
 * which keep exactly the strings with that prefix and, like STARTS WITH, nothing that is not a string; undefined
 * when the prefix has no upper end (its last character is U+FFFF) or the expression is not such a test.
 */
export function prefixFilters(e: Expr, v: string): ColumnFilter[] | undefined {
  if (e.kind !== 'binary' || e.op !== 'startsWith') return undefined;
  const ends = rangeOf(e, v, new Set());
  if (ends.length !== 2) return undefined;
  return ends.map((r) => ({ key: r.key, op: r.side === 'lower' ? '>=' : '<', value: r.end.value }));
}

function compareRange(e: Expr, v: string, bound: Set<string>): RangeSide[] {
  if (e.kind !== 'compare' || e.ops.length !== 1) return [];
  const op = e.ops[0]!;
  if (op === '=' || op === '<>') return [];
  const [a, b] = e.args as [Expr, Expr];
  for (const [p, x, flipped] of [
    [a, b, false],
    [b, a, true],
  ] as const) {
    if (p.kind !== 'prop' || p.target.kind !== 'var' || p.target.name !== v) continue;
    const vars = varsOf(x);
    if (vars === 'late' || ![...vars].every((n) => bound.has(n))) continue;
    // `v.key > x` bounds v.key from below; `x > v.key` from above.
    const above = (op === '<' || op === '<=') !== flipped;
    return [{ key: p.key, side: above ? 'upper' : 'lower', end: { value: x, inclusive: op.endsWith('=') } }];
  }
  return [];
}

/** WHERE's conjuncts. */
export function conjuncts(e: Expr | null): Expr[] {
  if (!e) return [];
  if (e.kind === 'binary' && e.op === 'and') return [...conjuncts(e.left), ...conjuncts(e.right)];
  return [e];
}
