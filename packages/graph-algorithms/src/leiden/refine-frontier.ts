// Leiden's refinement restricted to a frontier. The full refinement (refine.ts) starts every community from
// singletons; here only the nodes the local moving touched start alone, and the untouched nodes of each community
// start grouped by connected component (of the community's untouched nodes): each such group is connected, lies in
// one community and was together before, so aggregating on it keeps Leiden's requirement that every aggregate node
// is connected (Traag, Waltman and van Eck 2019) while the aggregate graph stays the size of the change, not of the
// graph. The touched singletons then merge as in refine.ts (well-connected nodes into well-connected
// sub-communities, probability ∝ exp(ΔH/θ)), the untouched groups being candidates like any sub-community.
import type { Random } from '../random.js';
import type { LeidenScratch } from './scratch.js';
import type { WorkGraph } from './work-graph.js';

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
  const refined = scratch.int32('frontierRefine.refined', n).fill(-1);
  // Untouched nodes: one label per connected component inside their community (the component's first node).
  const stack = scratch.int32('frontierRefine.stack', n);
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
  const Kr = scratch.float64('frontierRefine.Kr', n).fill(0);
  const size = scratch.int32('frontierRefine.size', n).fill(0);
  /** Weight from a sub-community to the rest of its community S. */
  const ext = scratch.float64('frontierRefine.ext', n).fill(0);
  const KS = scratch.float64('frontierRefine.KS', communityCount).fill(0);
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
  const order = scratch.int32('frontierRefine.order', n);
  for (let v = 0; v < n; v++) if (touched[v] === 1) order[nTouched++] = v;
  rng.shuffle(order.subarray(0, nTouched));

  const acc = scratch.float64('frontierRefine.acc', n);
  const mark = scratch.int32('frontierRefine.mark', n).fill(-1);
  const list = scratch.int32('frontierRefine.list', n);
  const gains = scratch.float64('frontierRefine.gains', n);

  for (let q = 0; q < nTouched; q++) {
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
