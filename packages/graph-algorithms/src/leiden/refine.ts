// Leiden's refinement (Traag, Waltman and van Eck 2019, Algorithm A.2, RefinePartition and MergeNodesSubset):
// inside each community S of the moved partition, start from singletons and merge each still-single,
// well-connected node into a well-connected sub-community of S, chosen at random with probability
// ∝ exp(ΔH / θ) among the moves with ΔH ≥ 0. Sub-communities only ever grow by nodes joined through an edge,
// so each one is connected; aggregating on them is what gives Leiden its guarantee.
import type { Random } from '../random.js';
import type { LeidenScratch } from './scratch.js';
import type { WorkGraph } from './work-graph.js';

export function refinePartition(
  g: WorkGraph,
  membership: Int32Array,
  communityCount: number,
  gamma: number,
  theta: number,
  rng: Random,
  scratch: LeidenScratch,
): Int32Array {
  const { n, offsets, targets, weights, strength, total } = g;
  const refined = scratch.int32('refine.refined', n);
  const Kr = scratch.float64('refine.Kr', n);
  const size = scratch.int32('refine.size', n);
  /** Weight from a sub-community to the rest of its community S. */
  const ext = scratch.float64('refine.ext', n);
  const KS = scratch.float64('refine.KS', communityCount).fill(0);
  for (let v = 0; v < n; v++) {
    refined[v] = v;
    Kr[v] = strength[v]!;
    size[v] = 1;
    KS[membership[v]!]! += strength[v]!;
    const s = membership[v]!;
    let w = 0;
    const end = offsets[v + 1]!;
    for (let p = offsets[v]!; p < end; p++) if (membership[targets[p]!] === s) w += weights[p]!;
    ext[v] = w;
  }
  if (total === 0) return refined;
  const scale = gamma / total;
  const order = scratch.int32('refine.order', n);
  for (let v = 0; v < n; v++) order[v] = v;
  rng.shuffle(order);

  const acc = scratch.float64('refine.acc', n);
  const mark = scratch.int32('refine.mark', n).fill(-1);
  const list = scratch.int32('refine.list', n);
  const gains = scratch.float64('refine.gains', n);
  // ΔH in units of edge weight (H = Σ_c [e_c − γ·K_c²/4m], as in the authors' own implementation), so that θ
  // is a weight: with θ = 0.01, merges are nearly greedy and random only among almost equal choices.

  for (let q = 0; q < n; q++) {
    const v = order[q]!;
    if (refined[v] !== v || size[v] !== 1) continue; // only nodes still alone move
    const s = membership[v]!;
    const kv = strength[v]!;
    if (ext[v]! < scale * kv * (KS[s]! - kv)) continue; // v is not well connected to S

    let nc = 0;
    const end = offsets[v + 1]!;
    for (let p = offsets[v]!; p < end; p++) {
      const u = targets[p]!;
      if (membership[u] !== s) continue;
      const r = refined[u]!;
      if (r === v) continue;
      if (mark[r] !== v) {
        mark[r] = v;
        acc[r] = 0;
        list[nc++] = r;
      }
      acc[r]! += weights[p]!;
    }
    // Candidates: staying alone (ΔH = 0) and every well-connected neighbouring sub-community with ΔH ≥ 0.
    let kept = 0;
    let maxGain = 0;
    for (let j = 0; j < nc; j++) {
      const r = list[j]!;
      if (ext[r]! < scale * Kr[r]! * (KS[s]! - Kr[r]!)) continue;
      const gain = acc[r]! - scale * kv * Kr[r]!;
      if (gain < 0) continue;
      list[kept] = r;
      gains[kept++] = gain;
      if (gain > maxGain) maxGain = gain;
    }
    if (kept === 0) continue;
    // Roulette over exp((ΔH − max) / θ); staying alone is the last slot.
    let sum = Math.exp(-maxGain / theta);
    for (let j = 0; j < kept; j++) {
      gains[j] = Math.exp((gains[j]! - maxGain) / theta);
      sum += gains[j]!;
    }
    let pick = rng.next() * sum;
    let chosen = v;
    for (let j = 0; j < kept; j++) {
      pick -= gains[j]!;
      if (pick < 0) {
        chosen = list[j]!;
        break;
      }
    }
    if (chosen === v) continue;
    refined[v] = chosen;
    size[v] = 0;
    size[chosen]!++;
    ext[chosen] = ext[chosen]! + ext[v]! - 2 * acc[chosen]!;
    Kr[chosen]! += kv;
    Kr[v] = 0;
  }
  return refined;
}
