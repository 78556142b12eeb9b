// ORDER BY … LIMIT k straight over a ColumnarExpandAggregate whose first sort key is one of its items (`RETURN
// a.name AS name, count(r) AS deg ORDER BY deg DESC, name LIMIT 10`): the k-th best value of that item is found
// on a typed array of its per-group values (a selection, no comparator), and rows are built only for the groups
// at least as good, those tied at the boundary included. Top then orders them by every key as before (their
// input order is group order, so ties keep the order they had), so k groups out of tens of thousands cost k
// rows instead of a row, its keys and heap steps per group.
import type { Row } from '../eval.js';
import { count } from '../interpret/project.js';
import { columnarExpandGroups, type Groups } from './columnar-expand.js';
import { lendingScope, scopedFloat64 } from './lent-arrays.js';
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
  // The per-group accumulators lent until the rows are made (lendingScope).
  return lendingScope(() => {
    const grouped = columnarExpandGroups(input, ctx);
    return grouped && topRows(grouped, item, first.descending === true, keep, ctx);
  });
}

/** The rows of the groups that can be among the `keep` best by output `item`. */
function topRows(grouped: Groups, item: number, descending: boolean, keep: number, ctx: Runner['ctx']): Row[] {
  const n = grouped.groups;
  if (keep >= n) return groupRows(grouped.row, n, Number.POSITIVE_INFINITY, undefined);
  // Smaller is better: DESC negated. A null, NaN, non-number or inexact value leaves the order to Top. Both
  // arrays lent for the scope (a group per node is 800 KB of fresh pages each at 100,000 nodes).
  const v = scopedFloat64(n);
  const exact = sortValues(grouped.outputs[item]!, n, descending ? -1 : 1, v, ctx);
  if (!exact) return groupRows(grouped.row, n, Number.POSITIVE_INFINITY, undefined);
  if (keep === 0) return [];
  const selection = scopedFloat64(n);
  selection.set(v);
  return groupRows(grouped.row, n, kthSmallest(selection, keep - 1), v);
}

/*
 * The loops over the groups are functions of their own: as loops of topGroupRows they ran in code compiled during
 * the first call's loop (on-stack replacement), which later calls entered with no type feedback for the code
 * before the loop, and fell back to the interpreter (`--trace-deopt`: 43 times in one run of the benchmark's shapes).
 */

/** Each group's value of the sort key into `v` (times `sign`); false when one is not an exact plain number. */
function sortValues(
  out: (g: number) => unknown,
  n: number,
  sign: number,
  v: Float64Array,
  ctx: Runner['ctx'],
): boolean {
  for (let g = 0; g < n; g++) {
    if ((g & 1023) === 0) ctx.budget.tick();
    const x = out(g);
    const num = typeof x === 'bigint' ? Number(x) : x;
    if (typeof num !== 'number' || Number.isNaN(num) || Math.abs(num) >= EXACT) return false;
    v[g] = sign * num;
  }
  return true;
}

/** The rows of the groups whose value in `v` is at most `bound` (every group's without `v`), in group order. */
function groupRows(row: (g: number) => Row, n: number, bound: number, v: Float64Array | undefined): Row[] {
  const rows: Row[] = [];
  for (let g = 0; g < n; g++) if (!v || v[g]! <= bound) rows.push(row(g));
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
