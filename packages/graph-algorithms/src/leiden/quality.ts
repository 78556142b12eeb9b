// Modularity with a resolution parameter (Newman 2006; Reichardt and Bornholdt 2006), on a symmetric CSR:
// Q = 1/2m · Σ_c [ Σ_{i,j ∈ c} A_ij − γ·K_c² / 2m ], K_c the summed strength of c's nodes, 2m = Σ_ij A_ij.
import type { CsrGraph } from '../csr.js';

/** Q itself: the sum of the communities' terms (modularityContributions). */
export function modularity(g: CsrGraph, membership: Int32Array, resolution = 1): number {
  let q = 0;
  for (const term of modularityContributions(g, membership, resolution)) q += term;
  return q;
}

/** Each community's term of Q (they sum to Q): what the community contributes. */
export function modularityContributions(g: CsrGraph, membership: Int32Array, resolution = 1): Float64Array {
  const { n, offsets, targets, weights } = g;
  let count = 0;
  for (let v = 0; v < n; v++) if (membership[v]! + 1 > count) count = membership[v]! + 1;
  const inside = new Float64Array(count);
  const K = new Float64Array(count);
  let total = 0;
  for (let v = 0; v < n; v++) {
    const c = membership[v]!;
    for (let p = offsets[v]!; p < offsets[v + 1]!; p++) {
      const w = weights[p]!;
      total += w;
      K[c]! += w;
      if (membership[targets[p]!] === c) inside[c]! += w;
    }
  }
  const out = new Float64Array(count);
  if (total === 0) return out;
  for (let c = 0; c < count; c++) out[c] = (inside[c]! - (resolution * K[c]! * K[c]!) / total) / total;
  return out;
}
