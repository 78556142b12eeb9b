// Leiden's refinement (Traag, Waltman and van Eck 2019, Algorithm A.2, RefinePartition and MergeNodesSubset):
// inside each community S of the moved partition, start from singletons and merge each still-single,
// well-connected node into a well-connected sub-community of S, chosen at random with probability
// ∝ exp(ΔH / θ) among the moves with ΔH ≥ 0. Sub-communities only ever grow by nodes joined through an edge,
// so each one is connected; aggregating on them is what gives Leiden its guarantee.
//
// refineFrontier is the refinement restricted to a frontier (incremental.ts): only the nodes the local moving
// touched start alone, and the untouched nodes of each community start grouped by connected component (of the
// community's untouched nodes): each such group is connected, lies in one community and was together before, so
// aggregating on it keeps Leiden's requirement that every aggregate node is connected while the aggregate graph
// stays the size of the change, not of the graph. The touched singletons then merge as in the full refinement
// (mergeSingletons), the untouched groups being candidates like any sub-community.
import type { Random } from '../random.js';
import type { LeidenScratch } from './scratch.js';
import type { WorkGraph } from './work-graph.js';

/** The refinement of `membership` (communityCount communities): each node's sub-community label (a node id). */
// Deliberate copy: refineFrontier repeats this signature (plus `touched`); positional arguments on the hot path.
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

  return mergeSingletons(g, membership, { refined, Kr, size, ext, KS }, order, n, scale, theta, rng, scratch);
}

/** The refinement restricted to the nodes flagged in `touched` (see the head of this file). */
// Deliberate copy: refinePartition's signature plus `touched`; positional arguments on the hot path.
export function refineFrontier(
  g: WorkGraph,
  membership: Int32Array,
  communityCount: number,
  touched: Uint8Array,
  gamma: number,
  theta: number,
  rng: Random,
  scratch: LeidenScratch,
): Int32Array {
  const { n, offsets, targets, weights, strength, total } = g;
  const refined = scratch.int32('refineFrontier.refined', n).fill(-1);
  // Untouched nodes: one label per connected component inside their community (the component's first node).
  const stack = scratch.int32('refineFrontier.stack', n);
  for (let s = 0; s < n; s++) {
    if (refined[s] !== -1) continue;
    refined[s] = s;
    if (touched[s] === 1) continue;
    const c = membership[s]!;
    let top = 0;
    stack[top++] = s;
    while (top > 0) {
      const v = stack[--top]!;
      const end = offsets[v + 1]!;
      for (let p = offsets[v]!; p < end; p++) {
        const u = targets[p]!;
        if (refined[u] === -1 && touched[u] === 0 && membership[u] === c) {
          refined[u] = s;
          stack[top++] = u;
        }
      }
    }
  }
  const Kr = scratch.float64('refineFrontier.Kr', n).fill(0);
  const size = scratch.int32('refineFrontier.size', n).fill(0);
  /** Weight from a sub-community to the rest of its community S. */
  const ext = scratch.float64('refineFrontier.ext', n).fill(0);
  const KS = scratch.float64('refineFrontier.KS', communityCount).fill(0);
  for (let v = 0; v < n; v++) {
    const r = refined[v]!;
    const s = membership[v]!;
    Kr[r]! += strength[v]!;
    size[r]!++;
    KS[s]! += strength[v]!;
    let w = 0;
    const end = offsets[v + 1]!;
    for (let p = offsets[v]!; p < end; p++) {
      const u = targets[p]!;
      if (membership[u] === s && refined[u] !== r) w += weights[p]!;
    }
    ext[r]! += w;
  }
  if (total === 0) return refined;
  const scale = gamma / total;
  let nTouched = 0;
  const order = scratch.int32('refineFrontier.order', n);
  for (let v = 0; v < n; v++) if (touched[v] === 1) order[nTouched++] = v;
  rng.shuffle(order.subarray(0, nTouched));

  return mergeSingletons(g, membership, { refined, Kr, size, ext, KS }, order, nTouched, scale, theta, rng, scratch);
}

/** A refinement's state: each node's sub-community and, per sub-community, its strength, size and external weight. */
interface SubCommunities {
  refined: Int32Array;
  Kr: Float64Array;
  size: Int32Array;
  /** Weight from a sub-community to the rest of its community S. */
  ext: Float64Array;
  /** Strength of each community S. */
  KS: Float64Array;
}

/**
 * Merges each of the first `count` nodes of `order` that is still alone and well connected into a well-connected
 * neighbouring sub-community of its community, chosen with probability ∝ exp(ΔH / θ) (staying alone included).
 * Returns `sub.refined`, updated in place.
 */
function mergeSingletons(
  g: WorkGraph,
  membership: Int32Array,
  sub: SubCommunities,
  order: Int32Array,
  count: number,
  scale: number,
  theta: number,
  rng: Random,
  scratch: LeidenScratch,
): Int32Array {
  const { offsets, targets, weights, strength, n } = g;
  const { refined, Kr, size, ext, KS } = sub;
  const acc = scratch.float64('refine.acc', n);
  const mark = scratch.int32('refine.mark', n).fill(-1);
  const list = scratch.int32('refine.list', n);
  const gains = scratch.float64('refine.gains', n);
  // ΔH in units of edge weight (H = Σ_c [e_c − γ·K_c²/4m], as in the authors' own implementation), so that θ
  // is a weight: with θ = 0.01, merges are nearly greedy and random only among almost equal choices.

  for (let q = 0; q < count; q++) {
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
