// One Leiden run (Traag, Waltman and van Eck 2019): iterations of fast local moving, refinement and aggregation on
// the refined partition with the moved partition as the aggregate's starting point, until moving leaves every
// aggregate node alone; then again from the result until nothing moves (as leidenalg's n_iterations = -1).
// Deterministic for a seed. leiden.ts runs one or more of these (restarts), on one thread or several.
import type { CsrGraph } from '../csr.js';
import { Random } from '../random.js';
import type { LeidenResult } from './leiden.js';
import { moveNodes } from './move.js';
import { modularity } from './quality.js';
import { refinePartition } from './refine.js';
import type { LeidenScratch } from './scratch.js';
import { aggregateWorkGraph, relabel, type WorkGraph } from './work-graph.js';

export interface RunSettings {
  resolution: number;
  seed: number;
  theta: number;
  maxIterations: number;
  initial: Int32Array | undefined;
}

/**
 * One run: Leiden iterations from `initial` (labels already checked to be in 0..n-1; default singletons) until no
 * node moves or maxIterations. `beforeIteration` may throw to stop the run (an abort).
 */
export function leidenRun(
  graph: CsrGraph,
  base: WorkGraph,
  scratch: LeidenScratch,
  { resolution, seed, theta, maxIterations, initial }: RunSettings,
  beforeIteration: () => void,
  progress: (fraction: number) => void,
): LeidenResult {
  const n = graph.n;
  const membership = new Int32Array(n);
  if (initial) membership.set(initial);
  else for (let v = 0; v < n; v++) membership[v] = v;

  const rng = new Random(seed);
  let iterations = 0;
  while (iterations < maxIterations) {
    beforeIteration();
    iterations++;
    const moved = leidenPass(base, membership, resolution, theta, rng, scratch);
    // Unbounded runs have no known end: report a fraction that keeps rising towards 1.
    progress(Number.isFinite(maxIterations) ? iterations / maxIterations : iterations / (iterations + 10));
    if (!moved) break;
  }
  splitDisconnected(base, membership);
  const count = relabel(membership);
  return { membership, count, modularity: modularity(graph, membership, resolution), iterations, workerRestarts: 0 };
}

/**
 * A pass's first level (leidenPass here, frontierPass in incremental-pass.ts): `membership` relabelled into the
 * pass's partition slot 1, and every base node its own aggregate node.
 */
export function startPass(
  membership: Int32Array,
  n: number,
  scratch: LeidenScratch,
  prefix: string,
): { partition: Int32Array; toAggregate: Int32Array } {
  const partition = scratch.int32(`${prefix}.partition.1`, n);
  partition.set(membership);
  relabel(partition, scratch);
  const toAggregate = scratch.int32(`${prefix}.toAggregate`, n);
  for (let v = 0; v < n; v++) toAggregate[v] = v;
  return { partition, toAggregate };
}

/** One Leiden iteration from `membership` (updated in place). Returns whether any node moved. */
// Deliberate copy: frontierPass (incremental-pass.ts) repeats this signature and level state, plus the frontier.
function leidenPass(
  base: WorkGraph,
  membership: Int32Array,
  gamma: number,
  theta: number,
  rng: Random,
  scratch: LeidenScratch,
): boolean {
  const n = base.n;
  let g = base;
  let side: 0 | 1 = 0;
  const first = startPass(membership, n, scratch, 'pass');
  let partition = first.partition;
  const toAggregate = first.toAggregate;
  let anyMove = false;
  for (;;) {
    if (moveNodes(g, partition, gamma, rng, scratch) > 0) anyMove = true;
    const count = relabel(partition, scratch);
    if (count === g.n) break;
    let refined = refinePartition(g, partition, count, gamma, theta, rng, scratch);
    let refinedCount = relabel(refined, scratch);
    // Refinement that merged nothing would aggregate to the same graph forever: aggregate on the moved
    // partition instead (leidenalg does the same).
    if (refinedCount === g.n) {
      refined = partition;
      refinedCount = count;
    }
    // The aggregate's starting partition, in the slot `partition` is not in.
    const next = scratch.int32(`pass.partition.${side}`, refinedCount);
    for (let v = 0; v < g.n; v++) next[refined[v]!] = partition[v]!;
    g = aggregateWorkGraph(g, refined, refinedCount, scratch, side);
    side = side === 0 ? 1 : 0;
    for (let v = 0; v < n; v++) toAggregate[v] = refined[toAggregate[v]!]!;
    partition = next;
  }
  for (let v = 0; v < n; v++) membership[v] = partition[toAggregate[v]!]!;
  return anyMove;
}

/**
 * Splits every community into its connected components. Leiden's refinement already guarantees connected
 * communities; this pass keeps the guarantee also when an iteration limit stops it early, and it never lowers
 * modularity (parts with no edge between them only add −γ·K_a·K_b/2m together).
 */
export function splitDisconnected(g: WorkGraph, membership: Int32Array): void {
  const { n, offsets, targets } = g;
  const label = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n);
  let next = 0;
  for (let s = 0; s < n; s++) {
    if (label[s] !== -1) continue;
    const c = membership[s]!;
    label[s] = next;
    let top = 0;
    stack[top++] = s;
    while (top > 0) {
      const v = stack[--top]!;
      for (let p = offsets[v]!; p < offsets[v + 1]!; p++) {
        const u = targets[p]!;
        if (label[u] === -1 && membership[u] === c) {
          label[u] = next;
          stack[top++] = u;
        }
      }
    }
    next++;
  }
  membership.set(label);
}
