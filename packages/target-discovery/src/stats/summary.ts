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
  return n % 2 === 1 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

/** R quantile(type = 7) of an already sorted array. */
export function quantileSorted(s: ArrayLike<number>, p: number): number {
  const n = s.length;
  if (n === 0) return NaN;
  const index = (n - 1) * p;
  const lo = Math.floor(index);
  const hi = Math.ceil(index);
  const q = s[lo]!;
  const h = index - lo;
  if (index > lo && s[hi] !== q) return (1 - h) * q + h * s[hi]!;
  return q;
}

export function quantile(x: ArrayLike<number>, p: number): number {
  return quantileSorted(sortedCopy(x), p);
}

/**
 * R rank(x, ties.method = "average"): 1-based ranks. Sorts a typed copy natively, then finds each value's
 * run of ties by binary search: far faster than an index sort with a comparator on large vectors.
 */
export function rankAverageFast(x: ArrayLike<number>): Float64Array {
  const n = x.length;
  const s = Float64Array.from(x as ArrayLike<number>).sort();
  const r = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = x[i]!;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (s[m]! < v) lo = m + 1;
      else hi = m;
    }
    const first = lo;
    hi = n;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (s[m]! <= v) lo = m + 1;
      else hi = m;
    }
    r[i] = (first + lo - 1) / 2 + 1;
  }
  return r;
}

/** R rank(x, ties.method = "average"): 1-based ranks (reference implementation). */
export function rankAverage(x: ArrayLike<number>): Float64Array {
  const n = x.length;
  const idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  idx.sort((a, b) => x[a]! - x[b]!);
  const r = new Float64Array(n);
  let i = 0;
  while (i < n) {
    let j = i;
    while (j + 1 < n && x[idx[j + 1]!] === x[idx[i]!]) j++;
    const avg = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) r[idx[k]!] = avg;
    i = j + 1;
  }
  return r;
}

export function mean(x: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i]!;
  return s / x.length;
}

/** k-th smallest (0-based) of a scratch array, in O(n) expected time (Hoare quickselect; reorders `a`). */
function selectInPlace(a: Float64Array, k: number, from = 0, to = a.length - 1): number {
  let lo = from;
  let hi = to;
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // median of three as pivot
    const x = a[lo]!,
      y = a[mid]!,
      z = a[hi]!;
    // (comparisons, not Math.min/max: the same pivot as before for NaN and signed zeros)
    let pivot: number;
    if (x < y) {
      if (y < z) pivot = y;
      else if (x < z) pivot = z;
      else pivot = x;
    } else if (x < z) pivot = x;
    else if (y < z) pivot = z;
    else pivot = y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

/** R quantile(type = 7) without a full sort. */
export function quantileSelect(x: ArrayLike<number>, p: number): number {
  const n = x.length;
  if (n === 0) return NaN;
  const a = Float64Array.from(x as ArrayLike<number>);
  const index = (n - 1) * p;
  const lo = Math.floor(index);
  const q = selectInPlace(a, lo);
  if (index === lo) return q;
  // The next order statistic is the minimum of the part right of lo.
  let next = Infinity;
  for (let i = lo + 1; i < n; i++) if (a[i]! < next) next = a[i]!;
  const h = index - lo;
  return next !== q ? (1 - h) * q + h * next : q;
}

/**
 * Mask of the elements whose average rank (R rank, ties averaged) lies in [lo, hi] (1-based), in O(n):
 * only the two boundary values need their tie runs counted; everything strictly between them qualifies.
 */
export function rankWindow(x: ArrayLike<number>, lo: number, hi: number): Uint8Array {
  const n = x.length;
  const out = new Uint8Array(n);
  if (n === 0 || lo > hi) return out;
  const a = Float64Array.from(x as ArrayLike<number>);
  const vLo = selectInPlace(a, Math.max(0, lo - 1));
  const vHi = selectInPlace(a, Math.min(n - 1, hi - 1));
  // One pass counts the elements below and equal to both boundary values.
  let lessLo = 0;
  let eqLo = 0;
  let lessHi = 0;
  let eqHi = 0;
  for (let i = 0; i < n; i++) {
    const v = x[i]!;
    if (v < vLo) lessLo++;
    else if (v === vLo) eqLo++;
    if (v < vHi) lessHi++;
    else if (v === vHi) eqHi++;
  }
  const rLo = lessLo + (eqLo + 1) / 2;
  const rHi = lessHi + (eqHi + 1) / 2;
  const okLo = rLo >= lo && rLo <= hi;
  const okHi = rHi >= lo && rHi <= hi;
  for (let i = 0; i < n; i++) {
    const v = x[i]!;
    if (v > vLo && v < vHi) out[i] = 1;
    else if (v === vLo) out[i] = okLo ? 1 : 0;
    else if (v === vHi) out[i] = okHi ? 1 : 0;
  }
  return out;
}
