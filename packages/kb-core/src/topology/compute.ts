// computeTopology: Leiden on the entity graph of active claims, then coarser levels. Level 0 is Leiden's
// partition at `resolution`. Level k+1 runs Leiden on the graph of level-k topics (their facts summed, inside
// facts on the diagonal) at half of level k's resolution, so each coarser topic is a union of finer ones; the
// hierarchy stops early when a level merges nothing or leaves one topic. Leiden runs through leidenAsync: on large
// graphs its restarts run on worker threads and the caller's event loop stays free (a server keeps answering).
// When a previous result can be updated (incremental.ts decides), level 0 is leidenIncremental from its partition
// instead (seconds at most where a full run takes minutes): on the calling thread, or off it on a worker of its
// own when asked (off_thread).
import {
  aggregateCsr,
  type CsrGraph,
  leidenAsync,
  leidenIncremental,
  modularityContributions,
} from '@evident/graph-algorithms';
import type { ReadContext } from '../graph/read.js';
import { leidenIncrementalOffThread } from '../offload/incremental-leiden.js';
import { offThreadLeidenThreads, offThreadNice } from '../offload/threads.js';
import { entityGraph } from './entity-graph.js';
import { basisOf, type IncrementalPlan, planUpdate } from './incremental.js';
import { describeTopics } from './labels.js';
import type { ComputeTopologyOptions, StoredTopology, TopologyLevel } from './types.js';

/**
 * Off the thread, a level whose graph has at most this many matrix entries times restarts runs on the calling
 * thread: tens of milliseconds at most, where starting a worker costs more and holds the calling thread too (the
 * coarser levels' graphs, one node per finer topic, are usually this small).
 */
const INLINE_WORK = 65_536;

export async function computeTopology(
  rc: ReadContext,
  options: Required<Omit<ComputeTopologyOptions, 'progress'>> & Pick<ComputeTopologyOptions, 'progress'>,
  logSeq: number,
  /** Awaited before the index is read again after Leiden: writes may have come in while it ran off-thread. */
  settled: () => Promise<void> = async () => {},
  /** The result kept from before, which an incremental update starts from. */
  previous?: StoredTopology,
): Promise<StoredTopology> {
  const { resolution, levels, seed, min_topic_size, n_iterations, restarts, progress, off_thread } = options;
  const { full, incremental_max_fraction } = options;
  const maxIterations = n_iterations < 0 ? Number.POSITIVE_INFINITY : n_iterations;
  // Off the thread: a level's Leiden on workers (leidenAsync's worker path, taken whatever the graph's size when
  // `threads` is given), unless its graph is so small that the runs cost less than starting a worker would.
  const threadsFor = (g: CsrGraph) =>
    off_thread && g.targets.length * restarts > INLINE_WORK
      ? { threads: offThreadLeidenThreads(restarts), nice: offThreadNice() }
      : {};
  const graph = entityGraph(rc, false);
  const { csr } = graph;
  // Read with the graph, before any await: claims and retractions from here on are the next update's change.
  const basis = basisOf(rc, { resolution, levels, seed, min_topic_size, n_iterations, restarts });
  const plan = full
    ? ({ kind: 'full', reason: 'asked for (full: true)' } as const)
    : planUpdate(rc, graph, previous, basis, incremental_max_fraction);
  let affected: number | null = plan.kind === 'incremental' ? 0 : null;
  progress?.('topology', 0.05);
  const memberships: Int32Array[] = [];
  const levelInfo: TopologyLevel[] = [];
  const parents: Int32Array[] = [];
  /** Each level's modularity terms per topic: summed for the level, kept for the topics' descriptions. */
  const terms: Float64Array[] = [];
  if (csr.n > 0) {
    const first = await levelZero(
      csr,
      plan,
      { resolution, seed, maxIterations, restarts, off_thread, progress },
      threadsFor,
    );
    if (first.affectedCount !== undefined) affected = first.affectedCount;
    let count = first.count;
    let membership = first.membership;
    if (min_topic_size > 1) count = mergeSmallTopics(csr, membership, count, min_topic_size);
    memberships.push(membership);
    terms.push(modularityContributions(csr, membership, resolution));
    levelInfo.push({
      level: 0,
      resolution,
      modularity: sum(terms[0]!),
      topic_count: count,
      iterations: first.iterations,
    });
    progress?.('topology', 0.65);
    let levelGraph: CsrGraph = aggregateCsr(csr, membership, count);
    let r = resolution;
    for (let level = 1; level < levels && count > 1; level++) {
      r /= 2;
      const up = await leidenAsync(levelGraph, {
        resolution: r,
        seed,
        maxIterations,
        restarts,
        trusted: true,
        ...threadsFor(levelGraph),
      });
      if (up.count >= count) break;
      const next = new Int32Array(csr.n);
      for (let v = 0; v < csr.n; v++) next[v] = up.membership[membership[v]!]!;
      parents.push(up.membership);
      memberships.push(next);
      terms.push(modularityContributions(csr, next, r));
      levelInfo.push({
        level,
        resolution: r,
        modularity: sum(terms[level]!),
        topic_count: up.count,
        iterations: up.iterations,
      });
      levelGraph = aggregateCsr(levelGraph, up.membership, up.count);
      membership = next;
      count = up.count;
      progress?.('topology', 0.65 + (0.2 * level) / levels);
    }
  }
  // From here to the end the index is read in one go, as reads must (see the write path): no await below.
  await settled();
  const topics = describeTopics(rc, graph, memberships, parents, levelInfo, terms);
  progress?.('topology', 1);
  return {
    result: {
      log_seq: logSeq,
      computed_at: new Date().toISOString(),
      as_of: rc.cutoff === Infinity ? null : new Date(rc.cutoff).toISOString(),
      entity_count: csr.n,
      edge_count: csr.targets.length / 2,
      levels: levelInfo,
      topics,
      mode: plan.kind,
      full_reason: plan.kind === 'full' ? plan.reason : null,
      changed_entities: plan.kind === 'incremental' ? plan.changed.length : null,
      affected_entities: affected,
    },
    entity_ids: Array.from(graph.entities, (e) => rc.s.entityIds[e]!),
    memberships,
    basis,
  };
}

/**
 * Level 0's partition: leidenIncremental from the kept partition when the plan says so (off the thread on a worker
 * of its own: seconds at a million claims would hold a server's event loop), else Leiden from scratch.
 */
async function levelZero(
  csr: CsrGraph,
  plan: IncrementalPlan,
  o: { resolution: number; seed: number; maxIterations: number; restarts: number; off_thread: boolean } & Pick<
    ComputeTopologyOptions,
    'progress'
  >,
  threadsFor: (g: CsrGraph) => { threads?: number; nice?: number },
): Promise<{ membership: Int32Array; count: number; iterations: number; affectedCount?: number }> {
  const { resolution, seed, maxIterations, restarts, progress } = o;
  const scaled = progress && ((f: number) => progress('topology', 0.05 + 0.6 * f));
  if (plan.kind === 'incremental') {
    return o.off_thread
      ? leidenIncrementalOffThread(csr, plan.previous, plan.changed, { resolution, seed, maxIterations }, scaled)
      : leidenIncremental(csr, plan.previous, plan.changed, { resolution, seed, maxIterations, trusted: true });
  }
  const hooks = scaled ? { progress: (_: string, f: number) => scaled(f) } : undefined;
  return leidenAsync(csr, { resolution, seed, maxIterations, restarts, trusted: true, hooks, ...threadsFor(csr) });
}

function sum(a: Float64Array): number {
  let s = 0;
  for (const x of a) s += x;
  return s;
}

/**
 * Topics smaller than `minSize` join the neighbouring topic they share most edge weight with (a topic with no
 * neighbour stays as it is); labels are renumbered. Returns the new count.
 */
function mergeSmallTopics(g: CsrGraph, membership: Int32Array, count: number, minSize: number): number {
  const size = new Int32Array(count);
  for (const c of membership) size[c]!++;
  const target = new Int32Array(count);
  for (let c = 0; c < count; c++) target[c] = c;
  const links = new Map<number, Map<number, number>>();
  for (let v = 0; v < g.n; v++) {
    const c = membership[v]!;
    if (size[c]! >= minSize) continue;
    let m = links.get(c);
    if (!m) {
      m = new Map();
      links.set(c, m);
    }
    for (let p = g.offsets[v]!; p < g.offsets[v + 1]!; p++) {
      const d = membership[g.targets[p]!]!;
      if (d !== c) m.set(d, (m.get(d) ?? 0) + g.weights[p]!);
    }
  }
  for (const [c, m] of links) {
    let best = -1;
    let bestW = 0;
    for (const [d, w] of m) {
      if (w > bestW) {
        best = d;
        bestW = w;
      }
    }
    if (best >= 0) target[c] = best;
  }
  // Follow chains (a small topic joining another small one) to their end.
  const resolve = (c: number): number => {
    let x = c;
    for (let i = 0; i < count && target[x] !== x; i++) x = target[x]!;
    return x;
  };
  const map = new Int32Array(count).fill(-1);
  let next = 0;
  for (let v = 0; v < g.n; v++) {
    const r = resolve(membership[v]!);
    if (map[r] === -1) map[r] = next++;
    membership[v] = map[r]!;
  }
  return next;
}
