// Aggregation of the scoring endpoints' transformed values into one total, per molecule.
// REINVENT 4 (reinvent/scoring/aggregators/means.py): weights are normalised over the endpoints whose value is
// not NaN (a NaN is left out, not counted as 0); the geometric mean first raises every value to at least 1e-8,
// so a zero component leaves the total small but not zero. REINVENT holds the weights in float32; here they are
// float64 (totals agree to about 1e-7).
// GuacaMol and TDC (PMO's objectives) combine with the plain product form, where a zero makes the total zero:
// `geometric_mean_exact` is that, weighted, and is this package's own name (REINVENT 4 does not know it).

export const AGGREGATIONS = ['arithmetic_mean', 'geometric_mean', 'geometric_mean_exact'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

/** REINVENT's names for the same functions. */
export const AGGREGATION_ALIASES: Readonly<Record<string, Aggregation>> = {
  custom_sum: 'arithmetic_mean',
  custom_product: 'geometric_mean',
};

const FLOOR = 1e-8;

/**
 * The weighted mean of `values` (weights ≥ 0, not all zero). Endpoints whose value is NaN are left out and the
 * rest renormalised; with nothing left the total is 0 (REINVENT's geometric mean would give 1).
 */
export function aggregate(kind: Aggregation, values: readonly number[], weights: readonly number[]): number {
  let wsum = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i]!)) wsum += weights[i]!;
  if (wsum <= 0) return 0;
  if (kind === 'arithmetic_mean') {
    let acc = 0;
    for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i]!)) acc += values[i]! * (weights[i]! / wsum);
    return acc;
  }
  let acc = 1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (Number.isNaN(v)) continue;
    const w = weights[i]! / wsum;
    if (kind === 'geometric_mean') acc *= Math.max(v, FLOOR) ** w;
    else {
      if (w === 0) continue;
      if (v <= 0) return 0;
      acc *= v ** w;
    }
  }
  return acc;
}
