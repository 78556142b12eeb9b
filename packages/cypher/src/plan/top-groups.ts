// ORDER BY … LIMIT k straight over a ColumnarExpandAggregate whose first sort key is one of its items (`RETURN
// a.name AS name, count(r) AS deg ORDER BY deg DESC, name LIMIT 10`): the k-th best value of that item is found
// on a typed array of its per-group values (a selection, no comparator), and rows are built only for the groups
// at least as good, those tied at the boundary included. Top then orders them by every key as before (their
// input order is group order, so ties keep the order they had), so k groups out of tens of thousands cost k
// rows instead of a row, its keys and heap steps per group.
import type { Row } from '../eval.js';
import { count } from '../interpret/project.js';
import { columnarExpandGroups } from './columnar-expand.js';
import type { Op } from './operators.js';
import type { Runner } from './physical.js';

type TopOp = Extract<Op, { op: 'Top' }>;

/** Beyond this a count or sum held as a float is not an exact integer: the order of such values is left to Top. */
const EXACT = 2 ** 53;

/** EVIDENT_CYPHER_TOP_GROUPS=0 (read per query) builds every group's row: for before/after measurements. */
const off = () =>
  (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.EVIDENT_CYPHER_TOP_GROUPS ===
  '0';

/**
 * The rows of the Top's input that can be among its SKIP + LIMIT best (every group's row when the first key's
 * values are not all plain numbers); undefined when the input is not a columnar aggregation that can answer.
 */
export function topGroupRows(r: Runner, op: TopOp): Row[] | undefined {
  if (off()) return undefined;
  const input = op.input;
  const first = op.order[0];
  if (input.op !== 'ColumnarExpandAggregate' || op.ties || !first || first.expr.kind !== 'var') return undefined;
  const name = first.expr.name;
  const item = input.items.findIndex((it) => it.name === name);
  if (item < 0) return undefined;
  const ctx = r.ctx;
  const keep = (op.skip ? count(op.skip, 'SKIP', ctx) : 0) + count(op.limit, 'LIMIT', ctx);
  const grouped = columnarExpandGroups(input, ctx);
  if (!grouped) return undefined;
  const n = grouped.groups;
  const all = () => Array.from({ length: n }, (_, g) => grouped.row(g));
  if (keep >= n) return all();
  // Smaller is better: DESC negated. A null, NaN, non-number or inexact value leaves the order to Top.
  const v = new Float64Array(n);
  const out = grouped.outputs[item]!;
  const sign = first.descending ? -1 : 1;
  for (let g = 0; g < n; g++) {
    if ((g & 1023) === 0) ctx.budget.tick();
    const x = out(g);
    const num = typeof x === 'bigint' ? Number(x) : x;
    if (typeof num !== 'number' || Number.isNaN(num) || Math.abs(num) >= EXACT) return all();
    v[g] = sign * num;
  }
  const rows: Row[] = [];
  if (keep === 0) return rows;
  const bound = kthSmallest(v.slice(), keep - 1);
  for (let g = 0; g < n; g++) if (v[g]! <= bound) rows.push(grouped.row(g));
  return rows;
}

/** The value that would be at index k of `a` sorted ascending (Hoare's selection; `a` is reordered). */
export function kthSmallest(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i++] = a[j]!;
        a[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}
