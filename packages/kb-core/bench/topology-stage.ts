// The incremental topology measurement shared by bench:kb (bench/ingest-query.ts) and bench/topology-incremental.ts:
// on an ingested base, a first computeTopology(settings), then a batch between random pairs of 0.5% of the
// entities, then computeTopology(settings) again (incremental), timed in wall and CPU time (worker threads
// included) and split into phases by the computation's own progress reports: the entity graph and the plan (up to
// 0.05), level 0's Leiden (to 0.65), the coarser levels and the labels (to 1), then keeping the result (the file
// beside the base). Optionally a full recompute with the same settings on the same graph, for the modularity gap.
import { performance } from 'node:perf_hooks';
import type { ClaimInput, ComputeTopologyOptions, KbDB } from '../src/index.js';
import { entityCount, seededRandom } from './workload.js';

export type TopologySettings = Pick<ComputeTopologyOptions, 'seed' | 'n_iterations' | 'restarts'>;

/** Claims between random pairs of 0.5% of the workload's entities, as many claims as entities touched. */
export function touchBatch(claims: number): ClaimInput[] {
  const n = entityCount(claims);
  const rand = seededRandom(0x51);
  const touch = Math.max(2, Math.round(n * 0.005));
  const chosen = new Set<number>();
  while (chosen.size < touch) chosen.add(Math.floor(rand() * n));
  const pool = [...chosen];
  const types = ['gene', 'protein', 'disease', 'drug', 'pathway'];
  const out: ClaimInput[] = [];
  for (let i = 0; out.length < touch; i++) {
    const a = pool[i % pool.length]!;
    const b = pool[Math.floor(rand() * pool.length)]!;
    if (a === b) continue;
    out.push({
      subject: [`E${a}`, types[a % 5]!],
      predicate: ['rel_batch', 'class_0'],
      object: [`E${b}`, types[b % 5]!],
      provenance: { source_type: 'literature', source_id: 'bench-batch' },
      confidence: 0.7,
    });
  }
  return out;
}

/** This process's CPU time (every thread), seconds. */
export function cpuSeconds(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

export interface IncrementalTopologyFigures {
  settings: TopologySettings;
  entities: number;
  first_s: number;
  first_cpu_s: number;
  first_modularity: number | undefined;
  batch_claims: number;
  mode: string;
  changed_entities: number | null;
  affected_entities: number | null;
  incremental_s: number;
  incremental_cpu_s: number;
  incremental_modularity: number | undefined;
  phases: Record<string, { wall_s: number; cpu_s: number }>;
  /** Absent when the full recompute was skipped. */
  full?: { full_s: number; full_cpu_s: number; full_modularity: number; modularity_gap: number };
}

/**
 * The first computation, the 0.5% batch and the timed incremental update on `db` (which holds the workload of
 * `claims` claims); with `full`, the full recompute on the same graph and the gap (full − incremental modularity).
 * `afterBatch` runs between the batch and the update (e.g. waiting for the search stage to take the batch in, so
 * that the update is timed alone). `mark` is told each computation's end ('topology_first', 'topology_incremental',
 * 'topology_full'), for a peak-RSS attribution (bench/memory.ts).
 */
export async function measureIncrementalTopology(
  db: KbDB,
  claims: number,
  settings: TopologySettings,
  options: { full: boolean; afterBatch?: () => Promise<void>; mark?: (stage: string) => void },
): Promise<IncrementalTopologyFigures> {
  let t0 = performance.now();
  let c0 = cpuSeconds();
  const first = await db.computeTopology(settings);
  const firstS = (performance.now() - t0) / 1000;
  const firstCpuS = cpuSeconds() - c0;
  options.mark?.('topology_first');
  const batch = touchBatch(claims);
  await db.ingestBatch(batch);
  await options.afterBatch?.();
  const marks: [string, number, number][] = [];
  const stage = (f: number) => (f <= 0.05 ? 'graph_and_plan' : f <= 0.65 ? 'level0_leiden' : 'levels_and_labels');
  t0 = performance.now();
  c0 = cpuSeconds();
  const inc = await db.computeTopology({
    ...settings,
    progress: (_s, f) => marks.push([stage(f), performance.now() - t0, cpuSeconds() - c0]),
  });
  const totalMs = performance.now() - t0;
  const totalCpu = cpuSeconds() - c0;
  options.mark?.('topology_incremental');
  // Each phase ends at its last progress report; keeping the result is what follows the report of 1.
  const phases: Record<string, { wall_s: number; cpu_s: number }> = {};
  let prev: [number, number] = [0, 0];
  for (const name of ['graph_and_plan', 'level0_leiden', 'levels_and_labels']) {
    const last = marks.filter((m) => m[0] === name).pop();
    if (!last) continue;
    phases[name] = { wall_s: round((last[1] - prev[0]) / 1000, 3), cpu_s: round(last[2] - prev[1], 3) };
    prev = [last[1], last[2]];
  }
  phases.keep_result = { wall_s: round((totalMs - prev[0]) / 1000, 3), cpu_s: round(totalCpu - prev[1], 3) };
  const figures: IncrementalTopologyFigures = {
    settings,
    entities: inc.entity_count,
    first_s: round(firstS, 3),
    first_cpu_s: round(firstCpuS, 3),
    first_modularity: first.levels[0]?.modularity,
    batch_claims: batch.length,
    mode: inc.mode,
    changed_entities: inc.changed_entities,
    affected_entities: inc.affected_entities,
    incremental_s: round(totalMs / 1000, 3),
    incremental_cpu_s: round(totalCpu, 3),
    incremental_modularity: inc.levels[0]?.modularity,
    phases,
  };
  if (options.full) {
    t0 = performance.now();
    c0 = cpuSeconds();
    const f = await db.computeTopology({ ...settings, full: true });
    const q = f.levels[0]?.modularity ?? 0;
    figures.full = {
      full_s: round((performance.now() - t0) / 1000, 3),
      full_cpu_s: round(cpuSeconds() - c0, 3),
      full_modularity: q,
      modularity_gap: round(q - (inc.levels[0]?.modularity ?? 0), 6),
    };
    options.mark?.('topology_full');
  }
  return figures;
}
