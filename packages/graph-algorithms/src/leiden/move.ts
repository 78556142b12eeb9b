// Leiden's fast local moving (Traag, Waltman and van Eck 2019, Algorithm A.2): visit nodes from a queue in
// random order, move each to the community (possibly a new, empty one) that improves modularity most, and
// queue again only the neighbours that the move may have changed something for. moveFrontier is the same moving
// restricted to a frontier (the dynamic-frontier idea of Sahu 2024, "DF Leiden"): the queue starts with the nodes
// whose neighbourhood changed instead of every node, and grows by the neighbours of each node that moves; nodes
// never queued cannot move. Both run one loop (moveQueued), so they share gains, tie rule and queue order.
import type { Random } from '../random.js';
import type { LeidenScratch } from './scratch.js';
import type { WorkGraph } from './work-graph.js';

/**
 * Moves nodes of `g` between the communities of `membership` (labels < g.n), in place. Returns the number of
 * moves. The gain of moving v into C is w(v, C) − γ·k_v·K_C / 2m (modularity up to the factor 1/m).
 */
export function moveNodes(
  g: WorkGraph,
  membership: Int32Array,
  gamma: number,
  rng: Random,
  scratch: LeidenScratch,
): number {
  // Every node on the frontier: the queue starts as 0..n−1 shuffled, as Leiden's does.
  const all = scratch.uint8('move.all', g.n).fill(1);
  return moveFrontier(g, membership, all, gamma, rng, scratch);
}

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
  const { n, total } = g;
  if (n === 0 || total === 0) return 0;
  const queue = scratch.int32('move.queue', n);
  const inQueue = scratch.uint8('move.inQueue', n).fill(0);
  let queued = 0;
  for (let v = 0; v < n; v++) {
    if (touched[v] === 1) {
      queue[queued++] = v;
      inQueue[v] = 1;
    }
  }
  rng.shuffle(queue.subarray(0, queued));
  return moveQueued(g, membership, gamma, queue, inQueue, queued, touched, scratch);
}

/**
 * The moving loop: visits `queue` (a ring of g.n slots, its first `queued` in visiting order, flagged in `inQueue`)
 * until it is empty, queueing again the neighbours of each node that moves (and flagging them in `touched`).
 * Returns the number of moves.
 */
function moveQueued(
  g: WorkGraph,
  membership: Int32Array,
  gamma: number,
  queue: Int32Array,
  inQueue: Uint8Array,
  queued: number,
  touched: Uint8Array,
  scratch: LeidenScratch,
): number {
  const { n, offsets, targets, weights, strength, total } = g;
  const K = scratch.float64('move.K', n).fill(0);
  const size = scratch.int32('move.size', n).fill(0);
  for (let v = 0; v < n; v++) {
    K[membership[v]!]! += strength[v]!;
    size[membership[v]!]!++;
  }
  const empties = scratch.int32('move.empties', n);
  let nEmpty = 0;
  for (let c = n - 1; c >= 0; c--) if (size[c] === 0) empties[nEmpty++] = c;

  let head = 0;

  const acc = scratch.float64('move.acc', n);
  const mark = scratch.int32('move.mark', n).fill(-1);
  const list = scratch.int32('move.list', n);
  const scale = gamma / total;
  let moves = 0;

  while (queued > 0) {
    const v = queue[head]!;
    head = head + 1 === n ? 0 : head + 1;
    queued--;
    inQueue[v] = 0;
    const old = membership[v]!;
    const kv = strength[v]!;

    // The row's bounds read once: typed arrays may alias, so the JIT reloads `offsets[v + 1]` after every store
    // in the loop. Hoisting them made Leiden's iterations on the benchmark graph about 18% faster (refine.ts and
    // work-graph.ts do the same); the sums are formed in the same order, so partitions are unchanged.
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
    // A small margin keeps rounding noise from moving a node back and forth between equal communities.
    const eps = 1e-12 * (1 + kv);
    for (let j = 0; j < nc; j++) {
      const c = list[j]!;
      const gain = acc[c]! - scale * kv * K[c]!;
      if (gain > bestGain + eps) {
        bestGain = gain;
        best = c;
      }
    }
    // An empty community has gain 0; the old one is empty now if v was alone there.
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
