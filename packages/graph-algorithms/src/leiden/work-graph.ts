// The graph Leiden works on at every level: off-diagonal CSR, the diagonal (self-loop) weight apart, and each
// node's strength (its row sum, diagonal included). The aggregate graph of a partition is again one of these.
import { type CsrGraph, type GraphArrays, HEAP_ARRAYS } from '../csr.js';
import { GraphInputError } from '../errors.js';
import { LeidenScratch } from './scratch.js';

export interface WorkGraph {
  n: number;
  offsets: Int32Array;
  targets: Int32Array;
  weights: Float64Array;
  /** A_ii: weight inside the node (for an aggregate node, the ordered sum of weights among its members). */
  loop: Float64Array;
  /** k_i = Σ_j A_ij. */
  strength: Float64Array;
  /** 2m = Σ_i k_i. */
  total: number;
}

// Deliberate likeness: typed arrays sized from one input, alike in shape only to target-discovery's dispersions.
export function workGraphFromCsr(g: CsrGraph, arrays: GraphArrays = HEAP_ARRAYS): WorkGraph {
  const { n, offsets, targets, weights } = g;
  const loop = arrays.f64(n);
  const strength = arrays.f64(n);
  const outOffsets = arrays.i32(n + 1);
  let nnz = 0;
  for (let i = 0; i < n; i++) {
    for (let p = offsets[i]!; p < offsets[i + 1]!; p++) if (targets[p] !== i) nnz++;
  }
  const outTargets = arrays.i32(nnz);
  const outWeights = arrays.f64(nnz);
  let k = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let p = offsets[i]!; p < offsets[i + 1]!; p++) {
      const j = targets[p]!;
      const w = weights[p]!;
      s += w;
      if (j === i) loop[i]! += w;
      else {
        outTargets[k] = j;
        outWeights[k++] = w;
      }
    }
    strength[i] = s;
    total += s;
    outOffsets[i + 1] = k;
  }
  return { n, offsets: outOffsets, targets: outTargets, weights: outWeights, loop, strength, total };
}

/**
 * The graph whose nodes are the communities of `membership` (labels 0..count-1): edge weights summed between
 * communities, weights inside a community onto its diagonal. Its arrays are `scratch`'s slot `side` (0 or 1):
 * Leiden builds level k+1 from level k only, so two sides suffice and each level overwrites the one before last.
 */
export function aggregateWorkGraph(
  g: WorkGraph,
  membership: Int32Array,
  count: number,
  scratch = new LeidenScratch(),
  side: 0 | 1 = 0,
): WorkGraph {
  const { n, offsets, targets, weights } = g;
  // Nodes grouped by community (counting sort).
  const start = scratch.int32('aggregate.start', count + 1).fill(0);
  for (let v = 0; v < n; v++) start[membership[v]! + 1]!++;
  for (let c = 0; c < count; c++) start[c + 1]! += start[c]!;
  const fill = scratch.int32('aggregate.fill', count);
  fill.set(start.subarray(0, count));
  const byCommunity = scratch.int32('aggregate.byCommunity', n);
  for (let v = 0; v < n; v++) byCommunity[fill[membership[v]!]!++] = v;

  const loop = scratch.float64(`aggregate.loop.${side}`, count).fill(0);
  const strength = scratch.float64(`aggregate.strength.${side}`, count).fill(0);
  const outOffsets = scratch.int32(`aggregate.offsets.${side}`, count + 1);
  outOffsets[0] = 0;
  // Each aggregate entry sums at least one entry of g, so g's entry count bounds it.
  const outTargets = scratch.int32(`aggregate.targets.${side}`, targets.length);
  const outWeights = scratch.float64(`aggregate.weights.${side}`, targets.length);
  const acc = scratch.float64('aggregate.acc', count);
  const mark = scratch.int32('aggregate.mark', count).fill(-1);
  const list = scratch.int32('aggregate.list', count);
  let k = 0;
  for (let c = 0; c < count; c++) {
    let nc = 0;
    for (let q = start[c]!; q < start[c + 1]!; q++) {
      const v = byCommunity[q]!;
      loop[c]! += g.loop[v]!;
      strength[c]! += g.strength[v]!;
      const end = offsets[v + 1]!;
      for (let p = offsets[v]!; p < end; p++) {
        const d = membership[targets[p]!]!;
        if (d === c) {
          loop[c]! += weights[p]!;
          continue;
        }
        if (mark[d] !== c) {
          mark[d] = c;
          acc[d] = 0;
          list[nc++] = d;
        }
        acc[d]! += weights[p]!;
      }
    }
    for (let j = 0; j < nc; j++) {
      const d = list[j]!;
      outTargets[k] = d;
      outWeights[k++] = acc[d]!;
    }
    outOffsets[c + 1] = k;
  }
  return {
    n: count,
    offsets: outOffsets,
    targets: outTargets.subarray(0, k),
    weights: outWeights.subarray(0, k),
    loop,
    strength,
    total: g.total,
  };
}

/** Renumbers labels to 0..count-1 in order of first appearance; returns count. */
export function relabel(membership: Int32Array, scratch?: LeidenScratch): number {
  const map = (scratch?.int32('relabel.map', membership.length) ?? new Int32Array(membership.length)).fill(-1);
  let count = 0;
  for (let v = 0; v < membership.length; v++) {
    const c = membership[v]!;
    if (map[c] === -1) map[c] = count++;
    membership[v] = map[c]!;
  }
  return count;
}

/** The CsrGraph of the communities of `membership` (labels 0..count-1), each community's inside weight on its diagonal. */
export function aggregateCsr(g: CsrGraph, membership: Int32Array, count: number): CsrGraph {
  const w = workGraphFromCsr(g);
  for (let v = 0; v < g.n; v++) {
    const c = membership[v]!;
    if (!(c >= 0 && c < count)) throw new GraphInputError(`/membership/${v}`, `must be a label in 0..${count - 1}`);
  }
  const agg = aggregateWorkGraph(w, membership, count);
  const offsets = new Int32Array(count + 1);
  const targets = new Int32Array(agg.targets.length + count);
  const weights = new Float64Array(agg.targets.length + count);
  let k = 0;
  for (let c = 0; c < count; c++) {
    if (agg.loop[c]! > 0) {
      targets[k] = c;
      weights[k++] = agg.loop[c]!;
    }
    for (let p = agg.offsets[c]!; p < agg.offsets[c + 1]!; p++) {
      targets[k] = agg.targets[p]!;
      weights[k++] = agg.weights[p]!;
    }
    offsets[c + 1] = k;
  }
  return { n: count, offsets, targets: targets.slice(0, k), weights: weights.slice(0, k) };
}
