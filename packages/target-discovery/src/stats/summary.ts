// Order statistics with R's exact conventions (median; quantile type 7; rank with average ties).

export function sortedCopy(x: ArrayLike<number>): Float64Array {
  const s = Float64Array.from(x as ArrayLike<number>);
  s.sort();
  return s;
}

export function median(x: ArrayLike<number>): number {
  const n = x.length;
  if (n === 0) return NaN;
  const s = sortedCopy(x);
  const h = n >> 1;
  return n % 2 === 1 ? s[h] : (s[h - 1] + s[h]) / 2;
}

/** R quantile(type = 7) of an already sorted array. */
export function quantileSorted(s: ArrayLike<number>, p: number): number {
  const n = s.length;
  if (n === 0) return NaN;
  const index = (n - 1) * p;
  const lo = Math.floor(index);
  const hi = Math.ceil(index);
  const q = s[lo];
  const h = index - lo;
  if (index > lo && s[hi] !== q) return (1 - h) * q + h * s[hi];
  return q;
}

export function quantile(x: ArrayLike<number>, p: number): number {
  return quantileSorted(sortedCopy(x), p);
}

/** R rank(x, ties.method = "average"): 1-based ranks. */
export function rankAverage(x: ArrayLike<number>): Float64Array {
  const n = x.length;
  const idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  idx.sort((a, b) => x[a] - x[b]);
  const r = new Float64Array(n);
  let i = 0;
  while (i < n) {
    let j = i;
    while (j + 1 < n && x[idx[j + 1]] === x[idx[i]]) j++;
    const avg = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) r[idx[k]] = avg;
    i = j + 1;
  }
  return r;
}

export function mean(x: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  return s / x.length;
}
