// Tanimoto similarity on unfolded fingerprints, with RDKit's conventions for each vector type:
// - counts (SparseIntVect, e.g. GetMorganFingerprint, GetAtomPairFingerprint): Σ min / (Σ a + Σ b − Σ min),
//   and 0 when that denominator is below 1e-6 (both empty);
// - sets (SparseBitVect, e.g. the 2D pharmacophore fingerprint): |a ∩ b| / |a ∪ b|, and 1 when both are empty.

export function countTanimoto(a: ReadonlyMap<number, number>, b: ReadonlyMap<number, number>): number {
  let sumA = 0;
  let sumB = 0;
  let both = 0;
  for (const [k, v] of a) {
    sumA += Math.abs(v);
    const w = b.get(k);
    if (w !== undefined) both += Math.min(Math.abs(v), Math.abs(w));
  }
  for (const v of b.values()) sumB += Math.abs(v);
  const denom = sumA + sumB - both;
  return Math.abs(denom) < 1e-6 ? 0 : both / denom;
}

export function setTanimoto(a: ReadonlySet<number>, b: ReadonlySet<number>): number {
  let both = 0;
  for (const k of a) if (b.has(k)) both++;
  const union = a.size + b.size - both;
  return union === 0 ? 1 : both / union;
}

/** A count vector reduced to presence (GetMorganFingerprint with useCounts=False: every value 1). */
export function presence(counts: ReadonlyMap<number, number>): Map<number, number> {
  return new Map([...counts.keys()].map((k) => [k, 1]));
}
