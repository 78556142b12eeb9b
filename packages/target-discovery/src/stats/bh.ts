// Benjamini-Hochberg adjusted p-values, as R's p.adjust(method = "BH"); NaN stays NaN and is not counted.

export function adjustBH(p: ArrayLike<number>): Float64Array {
  const out = new Float64Array(p.length).fill(NaN);
  const idx: number[] = [];
  for (let i = 0; i < p.length; i++) if (!Number.isNaN(p[i])) idx.push(i);
  const n = idx.length;
  idx.sort((a, b) => p[b]! - p[a]!);
  let cmin = Infinity;
  for (let k = 0; k < n; k++) {
    const i = n - k; // rank from the top, n..1
    const v = (n / i) * p[idx[k]!]!;
    if (v < cmin) cmin = v;
    out[idx[k]!] = Math.min(1, cmin);
  }
  return out;
}
