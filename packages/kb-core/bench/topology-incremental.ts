// Where an incremental computeTopology's time goes, through the KB (issue 41, point 4): the benchmark's workload
// (BENCH_CLAIMS, default 1,000,000) in a base opened with the search embedder off, a first computeTopology with
// the given settings (BENCH_N_ITERATIONS, default 20, and BENCH_RESTARTS, default 1: a converged first run takes
// minutes at this size and is what bench:topology measures), then a batch between random pairs of 0.5% of the
// entities and computeTopology() again with the same settings (incremental). The phases are told apart by the
// computation's own progress reports: the entity graph and the plan (up to 0.05), level 0's Leiden (to 0.65), the
// coarser levels and the labels (to 1), then keeping the result (the file beside the base). Wall and CPU time
// (worker threads included) of each, with the load average before and after. BENCH_FULL=1 adds a full recompute
// with the same settings on the same graph and the modularity gap (full − incremental). Then the base is reopened
// and the first topology read timed: the kept file loaded and checked against the log, nothing recomputed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type ClaimInput, open } from '../src/index.js';
import { arg, claimBatches, entityCount, seededRandom } from './workload.js';

const claims = arg('claims', 'BENCH_CLAIMS', 1_000_000);
const settings = {
  seed: 0,
  n_iterations: arg('n_iterations', 'BENCH_N_ITERATIONS', 20),
  restarts: arg('restarts', 'BENCH_RESTARTS', 1),
};
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

function batch(): ClaimInput[] {
  const n = entityCount(claims);
  const rand = seededRandom(0x51);
  const touch = Math.round(n * 0.005);
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

const dir = mkdtempSync(join(tmpdir(), 'evident-topology-inc-'));
try {
  const path = join(dir, 'bench.kb');
  const db = await open(path, { embedding: false });
  for (const b of claimBatches(claims, 50_000)) await db.ingestBatch(b);
  await db.embeddingsReady();
  const loadBefore = load();
  let t0 = performance.now();
  const first = await db.computeTopology(settings);
  const firstS = (performance.now() - t0) / 1000;
  await db.ingestBatch(batch());
  await db.embeddingsReady();
  const marks: [string, number, number][] = [];
  const cpu = () => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1e6;
  };
  const stage = (f: number) => (f <= 0.05 ? 'graph_and_plan' : f <= 0.65 ? 'level0_leiden' : 'levels_and_labels');
  t0 = performance.now();
  const c0 = cpu();
  const inc = await db.computeTopology({
    ...settings,
    progress: (_s, f) => marks.push([stage(f), performance.now() - t0, cpu() - c0]),
  });
  const totalMs = performance.now() - t0;
  const totalCpu = cpu() - c0;
  // Each phase ends at its last progress report; keeping the result is what follows the report of 1.
  const phases: Record<string, { wall_s: number; cpu_s: number }> = {};
  let prev: [number, number] = [0, 0];
  for (const name of ['graph_and_plan', 'level0_leiden', 'levels_and_labels']) {
    const last = marks.filter((m) => m[0] === name).pop();
    if (!last) continue;
    phases[name] = { wall_s: (last[1] - prev[0]) / 1000, cpu_s: last[2] - prev[1] };
    prev = [last[1], last[2]];
  }
  phases.keep_result = { wall_s: (totalMs - prev[0]) / 1000, cpu_s: totalCpu - prev[1] };
  // BENCH_FULL=1: computeTopology({ full: true }) with the same settings on the same graph, for the gap.
  let full: { full_s: number; full_cpu_s: number; full_modularity: number; modularity_gap: number } | undefined;
  if (process.env.BENCH_FULL === '1') {
    t0 = performance.now();
    const c1 = cpu();
    const f = await db.computeTopology({ ...settings, full: true });
    const q = f.levels[0]?.modularity ?? 0;
    full = {
      full_s: (performance.now() - t0) / 1000,
      full_cpu_s: cpu() - c1,
      full_modularity: q,
      modularity_gap: q - (inc.levels[0]?.modularity ?? 0),
    };
  }
  await db.close();
  // The kept result after a reopen: the first topology read loads the file and checks it against the log.
  t0 = performance.now();
  const reopened = await open(path, { embedding: false });
  const reopenS = (performance.now() - t0) / 1000;
  t0 = performance.now();
  const c2 = cpu();
  const topicsAfter = (await reopened.topics({ level: 0 })).length;
  const restore = {
    reopen_s: reopenS,
    first_read_s: (performance.now() - t0) / 1000,
    first_read_cpu_s: cpu() - c2,
    topics_level0: topicsAfter,
    kept_current: (await reopened.stats()).derived.topology?.current ?? null,
  };
  await reopened.close();
  console.log(
    JSON.stringify({
      benchmark: 'topology-incremental',
      claims,
      settings,
      entities: inc.entity_count,
      first_s: firstS,
      first_modularity: first.levels[0]?.modularity,
      mode: inc.mode,
      changed_entities: inc.changed_entities,
      affected_entities: inc.affected_entities,
      incremental_s: totalMs / 1000,
      incremental_cpu_s: totalCpu,
      incremental_modularity: inc.levels[0]?.modularity,
      phases,
      ...full,
      restore,
      load_before: loadBefore,
      load_after: load(),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
