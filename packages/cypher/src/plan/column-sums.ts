// The additions of a columnar aggregation (columnar.ts accumulate), one loop per case: the case is decided once per
// column, not per row, and each loop reads typed arrays only, so the optimising compiler keeps it tight.
// Deliberate copy: the four loops share their skeleton; one loop that branched per row on the case ran 4-5x slower
// (stop 58's profile of aggregate_by_type + OPTIONAL MATCH), which is what this file exists to avoid.
/** count, sum and avg's additions, a row each: returns Σ|x| (whether the sums are exact). */
export function sums(
  values: ArrayLike<number>,
  nulls: ArrayLike<number> | undefined,
  sel: ArrayLike<number>,
  gid: Int32Array,
  counts: Float64Array,
  acc: Float64Array,
): number {
  let bound = 0;
  for (let i = 0; i < gid.length; i++) {
    const s = sel[i]!;
    if (nulls !== undefined && nulls[s] !== 0) continue;
    const x = values[s]!;
    const g = gid[i]!;
    counts[g]!++;
    acc[g]! += x;
    bound += Math.abs(x);
  }
  return bound;
}

/** INTEGER additions of rows standing for w[i] rows each: x * w[i] (exact while Σ|x|·w stays below 2^53). */
export function weightedSums(
  values: ArrayLike<number>,
  nulls: ArrayLike<number> | undefined,
  sel: ArrayLike<number>,
  gid: Int32Array,
  w: Float64Array,
  counts: Float64Array,
  acc: Float64Array,
): number {
  let bound = 0;
  for (let i = 0; i < gid.length; i++) {
    const s = sel[i]!;
    if (nulls !== undefined && nulls[s] !== 0) continue;
    const x = values[s]!;
    const g = gid[i]!;
    const m = w[i]!;
    counts[g]! += m;
    acc[g]! += x * m;
    bound += Math.abs(x) * m;
  }
  return bound;
}

/** FLOAT additions of rows standing for w[i] rows each: x added w[i] times, as row by row adds it. */
export function repeatedSums(
  values: ArrayLike<number>,
  nulls: ArrayLike<number> | undefined,
  sel: ArrayLike<number>,
  gid: Int32Array,
  w: Float64Array,
  counts: Float64Array,
  acc: Float64Array,
): number {
  let bound = 0;
  for (let i = 0; i < gid.length; i++) {
    const s = sel[i]!;
    if (nulls !== undefined && nulls[s] !== 0) continue;
    const x = values[s]!;
    const g = gid[i]!;
    const m = w[i]!;
    counts[g]! += m;
    for (let j = 0; j < m; j++) acc[g]! += x;
    bound += Math.abs(x) * m;
  }
  return bound;
}

/** min (least) or max per group; acc starts at +∞ or −∞. */
export function extremes(
  least: boolean,
  values: ArrayLike<number>,
  nulls: ArrayLike<number> | undefined,
  sel: ArrayLike<number>,
  gid: Int32Array,
  w: Float64Array | undefined,
  counts: Float64Array,
  acc: Float64Array,
): void {
  acc.fill(least ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY);
  for (let i = 0; i < gid.length; i++) {
    const s = sel[i]!;
    if (nulls !== undefined && nulls[s] !== 0) continue;
    const x = values[s]!;
    const g = gid[i]!;
    counts[g]! += w === undefined ? 1 : w[i]!;
    if (least ? x < acc[g]! : x > acc[g]!) acc[g] = x;
  }
}
