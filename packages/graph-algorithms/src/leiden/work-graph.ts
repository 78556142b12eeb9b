// The graph Leiden works on at every level: off-diagonal CSR, the diagonal (self-loop) weight apart, and each
// node's strength (its row sum, diagonal included). The aggregate graph of a partition is again one of these.
import type { CsrGraph } from '../csr.js';
import { GraphInputError } from '../errors.js';

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

export function workGraphFromCsr(g: CsrGraph): WorkGraph {
  const { n, offsets, targets, weights } = g;
  const loop = new Float64Array(n);
  const strength = new Float64Array(n);
  const outOffsets = new Int32Array(n + 1);
  let nnz = 0;
  for (let i = 0; i < n; i++) {
    for (let p = offsets[i]!; p < offsets[i + 1]!; p++) if (targets[p] !== i) nnz++;
  }
  const outTargets = new Int32Array(nnz);
  const outWeights = new Float64Array(nnz);
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
 * communities, weights inside a community onto its diagonal.
 */
export function aggregateWorkGraph(g: WorkGraph, membership: Int32Array, count: number): WorkGraph {
  const { n, offsets, targets, weights } = g;
  // Nodes grouped by community (counting sort).
  const start = new Int32Array(count + 1);
  for (let v = 0; v < n; v++) start[membership[v]! + 1]!++;
  for (let c = 0; c < count; c++) start[c + 1]! += start[c]!;
  const fill = start.slice(0, count);
  const byCommunity = new Int32Array(n);
  for (let v = 0; v < n; v++) byCommunity[fill[membership[v]!]!++] = v;

  const loop = new Float64Array(count);
  const strength = new Float64Array(count);
  const outOffsets = new Int32Array(count + 1);
  let cap = Math.max(16, Math.min(targets.length, count * 4));
  let outTargets = new Int32Array(cap);
  let outWeights = new Float64Array(cap);
  const acc = new Float64Array(count);
  const mark = new Int32Array(count).fill(-1);
  const list = new Int32Array(count);
  let k = 0;
  for (let c = 0; c < count; c++) {
    let nc = 0;
    for (let q = start[c]!; q < start[c + 1]!; q++) {
      const v = byCommunity[q]!;
      loop[c]! += g.loop[v]!;
      strength[c]! += g.strength[v]!;
      for (let p = offsets[v]!; p < offsets[v + 1]!; p++) {
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
    if (k + nc > cap) {
      cap = Math.max(cap * 2, k + nc);
      const t = new Int32Array(cap);
      t.set(outTargets.subarray(0, k));
      outTargets = t;
      const w = new Float64Array(cap);
      w.set(outWeights.subarray(0, k));
      outWeights = w;
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
    targets: outTargets.slice(0, k),
    weights: outWeights.slice(0, k),
    loop,
    strength,
    total: g.total,
  };
}

/** Renumbers labels to 0..count-1 in order of first appearance; returns count. */
export function relabel(membership: Int32Array): number {
  const map = new Int32Array(membership.length).fill(-1);
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
