// Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009): score(d) = Σ over ranked lists of
// 1 / (K + rank of d in that list), ranks from 1. It needs no score calibration between BM25 and cosine
// similarity, which live on unrelated scales; K = 60 is the paper's constant, kept as published.
export const RRF_K = 60;

export function reciprocalRankFusion(lists: readonly (readonly number[])[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const list of lists) {
    for (let i = 0; i < list.length; i++) {
      const d = list[i]!;
      out.set(d, (out.get(d) ?? 0) + 1 / (RRF_K + i + 1));
    }
  }
  return out;
}
