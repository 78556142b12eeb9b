// Where an incremental computeTopology's time goes, through the KB (issue 41, point 4): the benchmark's workload
// (BENCH_CLAIMS, default 1,000,000) in a base opened with the search embedder off, a first computeTopology with
// the given settings (BENCH_N_ITERATIONS, default 20, and BENCH_RESTARTS, default 1: a converged first run takes
// minutes at this size and is what bench:topology measures), then a batch between random pairs of 0.5% of the
// entities and computeTopology() again with the same settings (incremental), split into phases
// (bench/topology-stage.ts, which bench:kb's topology stage shares), with the load average before and after.
// BENCH_FULL=1 adds a full recompute with the same settings on the same graph and the modularity gap
// (full − incremental). Then the base is reopened and the first topology read timed: the kept file loaded and
// checked against the log, nothing recomputed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { open } from '../src/index.js';
import { cpuSeconds, measureIncrementalTopology } from './topology-stage.js';
import { arg, claimBatches } from './workload.js';

const claims = arg('claims', 'BENCH_CLAIMS', 1_000_000);
const settings = {
  seed: 0,
  n_iterations: arg('n_iterations', 'BENCH_N_ITERATIONS', 20),
  restarts: arg('restarts', 'BENCH_RESTARTS', 1),
};
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const dir = mkdtempSync(join(tmpdir(), 'evident-topology-inc-'));
try {
  const path = join(dir, 'bench.kb');
  const db = await open(path, { embedding: false });
  for (const b of claimBatches(claims, 50_000)) await db.ingestBatch(b);
  await db.embeddingsReady();
  const loadBefore = load();
  const { full, ...figures } = await measureIncrementalTopology(db, claims, settings, {
    full: process.env.BENCH_FULL === '1',
    afterBatch: () => db.embeddingsReady(),
  });
  await db.close();
  // The kept result after a reopen: the first topology read loads the file and checks it against the log.
  let t0 = performance.now();
  const reopened = await open(path, { embedding: false });
  const reopenS = (performance.now() - t0) / 1000;
  t0 = performance.now();
  const c2 = cpuSeconds();
  const topicsAfter = (await reopened.topics({ level: 0 })).length;
  const restore = {
    reopen_s: reopenS,
    first_read_s: (performance.now() - t0) / 1000,
    first_read_cpu_s: cpuSeconds() - c2,
    topics_level0: topicsAfter,
    kept_current: (await reopened.stats()).derived.topology?.current ?? null,
  };
  await reopened.close();
  console.log(
    JSON.stringify({
      benchmark: 'topology-incremental',
      claims,
      ...figures,
      ...full,
      restore,
      load_before: loadBefore,
      load_after: load(),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
