// Incremental Leiden: a partition of a graph brought up to date after a small change, starting from the partition
// found before the change instead of from singletons. The dynamic-frontier approach (Sahu 2024, "DF Leiden"):
// only the nodes whose neighbourhood changed, and their neighbours, are queued for local moving; a node that moves
// queues its neighbours, as in Leiden's own queue; refinement starts only those touched nodes from singletons and
// keeps every untouched part of a community together (refineFrontier in refine.ts), so each iteration costs about the
// change's size plus a few linear passes (aggregation, connectivity) instead of Leiden's from-scratch work.
// Iterations repeat from the nodes whose community relation to a neighbour changed until nothing moves. Every
// community of the result is connected, as with leiden().
import type { RunHooks } from '@evident/contract';
import { type CsrGraph, checkCsr } from '../csr.js';
import { GraphInputError } from '../errors.js';
import { Random } from '../random.js';
import { frontierPass } from './incremental-pass.js';
import { checkIterationOptions, type LeidenResult } from './leiden.js';
import { modularity } from './quality.js';
import { splitDisconnected } from './run.js';
import { LeidenScratch } from './scratch.js';
import { relabel, workGraphFromCsr } from './work-graph.js';

export interface LeidenIncrementalOptions {
  /** γ in the modularity; use the previous partition's. Default 1. */
  resolution?: number;
  /** Seed of the PRNG (visit orders, refinement choices). Default 0. */
  seed?: number;
  /** Randomness of the refinement merges (θ). Default 0.01. */
  theta?: number;
  /** Iterations at most. Default unbounded: until an iteration moves no node. */
  maxIterations?: number;
  /** Skip the input check (the caller built the CSR itself). */
  trusted?: boolean;
  hooks?: RunHooks;
}

export interface LeidenIncrementalResult extends LeidenResult {
  /**
   * 1 for every node the update considered (queued for local moving at some level, or in a previous community
   * that had to be split into its connected parts), else 0. Nodes flagged 0 kept their grouping: two of them are
   * in the same community after the update exactly when they were before it.
   */
  affected: Uint8Array;
  /** How many nodes `affected` flags. */
  affectedCount: number;
}

/**
 * The partition of `graph` updated from `previous` (a community label ≥ 0 per node, −1 for a node that is new)
 * after a change at the nodes `changed` (every node an added, removed or reweighted edge touches; new nodes are
 * taken as changed). Deterministic for a seed. The result is numbered 0..count−1 by first appearance.
 */
export function leidenIncremental(
  graph: CsrGraph,
  previous: Int32Array,
  changed: ArrayLike<number>,
  options: LeidenIncrementalOptions = {},
): LeidenIncrementalResult {
  const { hooks } = options;
  const { resolution, seed, theta, maxIterations } = checkIterationOptions(options);
  if (!options.trusted) checkCsr(graph);
  const n = graph.n;
  if (previous.length !== n) throw new GraphInputError('/previous', `must have one label per node (${n})`);
  const base = workGraphFromCsr(graph);
  const touched = new Uint8Array(n);
  // The previous labels, compacted to 0..n−1; a new node starts alone.
  const membership = new Int32Array(n);
  const labels = new Map<number, number>();
  for (let v = 0; v < n; v++) {
    const c = previous[v]!;
    if (!(Number.isInteger(c) && c >= -1)) throw new GraphInputError(`/previous/${v}`, 'must be a label ≥ 0 or −1');
    if (c === -1) {
      membership[v] = labels.size;
      labels.set(-2 - v, labels.size);
      touched[v] = 1;
      continue;
    }
    let l = labels.get(c);
    if (l === undefined) {
      l = labels.size;
      labels.set(c, l);
    }
    membership[v] = l;
  }
  for (let i = 0; i < changed.length; i++) {
    const v = changed[i]!;
    if (!(Number.isInteger(v) && v >= 0 && v < n)) {
      throw new GraphInputError(`/changed/${i}`, `must be a node in 0..${n - 1}`);
    }
    touched[v] = 1;
  }

  const affected = new Uint8Array(n);
  const scratch = new LeidenScratch();
  const rng = new Random(seed);
  const before = new Int32Array(n);
  let iterations = 0;
  let queued = touched.includes(1);
  while (queued && iterations < maxIterations) {
    hooks?.signal?.throwIfAborted();
    iterations++;
    before.set(membership);
    const moved = frontierPass(base, membership, touched, affected, resolution, theta, rng, scratch);
    hooks?.progress?.('leiden', iterations / (iterations + 10));
    if (!moved) break;
    // The next iteration starts from the ends of every edge whose two ends were together and no longer are, or
    // the other way round: the nodes for which some neighbour's community changed.
    touched.fill(0);
    queued = false;
    for (let v = 0; v < n; v++) {
      for (let p = base.offsets[v]!; p < base.offsets[v + 1]!; p++) {
        const u = base.targets[p]!;
        if ((before[v] === before[u]) !== (membership[v] === membership[u])) {
          touched[v] = 1;
          touched[u] = 1;
          queued = true;
        }
      }
    }
  }
  // Communities left in pieces (an edge removed, a node moved out) become one community per piece; their nodes
  // count as affected, since untouched ones among them are parted.
  const pieces = Int32Array.from(membership);
  splitDisconnected(base, pieces);
  const firstPiece = new Int32Array(n).fill(-1);
  const split = new Uint8Array(n);
  for (let v = 0; v < n; v++) {
    const c = membership[v]!;
    if (firstPiece[c] === -1) firstPiece[c] = pieces[v]!;
    else if (firstPiece[c] !== pieces[v]) split[c] = 1;
  }
  let affectedCount = 0;
  for (let v = 0; v < n; v++) {
    if (split[membership[v]!] === 1) affected[v] = 1;
    affectedCount += affected[v]!;
  }
  membership.set(pieces);
  const count = relabel(membership);
  hooks?.progress?.('leiden', 1);
  return {
    membership,
    count,
    modularity: modularity(graph, membership, resolution),
    iterations,
    workerRestarts: 0,
    affected,
    affectedCount,
  };
}
