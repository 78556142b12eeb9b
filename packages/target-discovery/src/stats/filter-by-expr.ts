// edgeR's filterByExpr: keep features with a worthwhile count in enough samples.
import type { Matrix } from './matrix.js';
import { columnSums } from './matrix.js';
import { median } from './summary.js';

export interface FilterByExprOptions {
  minCount?: number;
  minTotalCount?: number;
  largeN?: number;
  minProp?: number;
}

/**
 * `groupSizes`: the sizes of the experimental groups (edgeR uses the smallest as the minimum sample size).
 * Returns a keep mask over rows.
 */
export function filterByExpr(
  counts: Matrix,
  groupSizes: number[],
  opts: FilterByExprOptions = {},
  libSize?: Float64Array,
): Uint8Array {
  const minCount = opts.minCount ?? 10;
  const minTotal = opts.minTotalCount ?? 15;
  const largeN = opts.largeN ?? 10;
  const minProp = opts.minProp ?? 0.7;
  const lib = libSize ?? columnSums(counts);
  let minSize = Math.min(...groupSizes.filter((s) => s > 0));
  if (minSize > largeN) minSize = largeN + (minSize - largeN) * minProp;
  const cpmCutoff = (minCount / median(lib)) * 1e6;
  const tol = 1e-14;
  const { nrow, ncol, data } = counts;
  const scale = new Float64Array(ncol);
  for (let j = 0; j < ncol; j++) scale[j] = 1e6 / lib[j]!;
  const keep = new Uint8Array(nrow);
  for (let i = 0; i < nrow; i++) {
    const o = i * ncol;
    let above = 0;
    let total = 0;
    for (let j = 0; j < ncol; j++) {
      const c = data[o + j]!;
      total += c;
      if (c * scale[j]! >= cpmCutoff) above++;
    }
    keep[i] = above >= minSize - tol && total >= minTotal - tol ? 1 : 0;
  }
  return keep;
}
