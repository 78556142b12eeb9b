// Leiden's fast local moving restricted to a frontier (the dynamic-frontier idea of Sahu 2024, "DF Leiden"): the
// queue starts with the nodes whose neighbourhood changed instead of every node, and grows as in moveNodes (move.ts)
// by the neighbours of each node that moves. Nodes never queued cannot move. Same gains and tie rule as moveNodes.
import type { Random } from '../random.js';
import type { LeidenScratch } from './scratch.js';
import type { WorkGraph } from './work-graph.js';

/**
 * Moves nodes of `g` between the communities of `membership` (labels < g.n), in place, starting from the nodes
 * flagged in `touched`; on return `touched` flags every node that was queued at some point. Returns the moves.
 */
export function moveFrontier(
  g: WorkGraph,
  membership: Int32Array,
  touched: Uint8Array,
  gamma: number,
  rng: Random,
  scratch: LeidenScratch,
): number {
  const { n, offsets, targets, weights, strength, total } = g;
  if (n === 0 || total === 0) return 0;
  const K = scratch.float64('frontier.K', n).fill(0);
  const size = scratch.int32('frontier.size', n).fill(0);
  for (let v = 0; v < n; v++) {
    K[membership[v]!]! += strength[v]!;
    size[membership[v]!]!++;
  }
  const empties = scratch.int32('frontier.empties', n);
  let nEmpty = 0;
  for (let c = n - 1; c >= 0; c--) if (size[c] === 0) empties[nEmpty++] = c;

  const queue = scratch.int32('frontier.queue', n);
  const inQueue = scratch.uint8('frontier.inQueue', n).fill(0);
  let queued = 0;
  for (let v = 0; v < n; v++) {
    if (touched[v] === 1) {
      queue[queued++] = v;
      inQueue[v] = 1;
    }
  }
  rng.shuffle(queue.subarray(0, queued));
  let head = 0;

  const acc = scratch.float64('frontier.acc', n);
  const mark = scratch.int32('frontier.mark', n).fill(-1);
  const list = scratch.int32('frontier.list', n);
  const scale = gamma / total;
  let moves = 0;

  while (queued > 0) {
    const v = queue[head]!;
    head = head + 1 === n ? 0 : head + 1;
    queued--;
    inQueue[v] = 0;
    const old = membership[v]!;
    const kv = strength[v]!;
    const start = offsets[v]!;
    const end = offsets[v + 1]!;
    let nc = 0;
    for (let p = start; p < end; p++) {
      const c = membership[targets[p]!]!;
      if (mark[c] !== v) {
        mark[c] = v;
        acc[c] = 0;
        list[nc++] = c;
      }
      acc[c]! += weights[p]!;
    }
    K[old]! -= kv;
    size[old]!--;

    let best = old;
    let bestGain = (mark[old] === v ? acc[old]! : 0) - scale * kv * K[old]!;
    const eps = 1e-12 * (1 + kv);
    for (let j = 0; j < nc; j++) {
      const c = list[j]!;
      const gain = acc[c]! - scale * kv * K[c]!;
      if (gain > bestGain + eps) {
        bestGain = gain;
        best = c;
      }
    }
    if (size[old] !== 0 && 0 > bestGain + eps) best = empties[--nEmpty]!;

    membership[v] = best;
    K[best]! += kv;
    size[best]!++;
    if (best !== old) {
      moves++;
      if (size[old] === 0) empties[nEmpty++] = old;
      for (let p = start; p < end; p++) {
        const u = targets[p]!;
        if (inQueue[u] === 0 && membership[u] !== best) {
          inQueue[u] = 1;
          touched[u] = 1;
          let tail = head + queued;
          if (tail >= n) tail -= n;
          queue[tail] = u;
          queued++;
        }
      }
    }
  }
  return moves;
}
