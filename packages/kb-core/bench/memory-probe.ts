// What holds memory at scale (issue 41): the benchmark's workload (KB_BENCH_CLAIMS, default 200,000) ingested with
// the defaults (search on, local embedder on), and at the end of the ingest, after the catch-up and after a reopen
// (its own catch-up waited for) the process's composition: RSS and its peak (VmHWM), the V8 heap by space,
// external and array buffers, and the resident pages by mapping (/proc/self/smaps: the mapped vector files, the
// SQLite files, anonymous memory = the JS heap plus every native allocation: usearch's graph, SQLite's page cache,
// the writer thread). KB_MEMORY_SNAPSHOT=1 also writes a heap snapshot at each point into KB_MEMORY_DIR (default
// the temporary folder), for bench/heap-retainers.ts; run under node --expose-gc, each point also gives the figures
// after a full collection (live memory against garbage not yet collected). One JSON line.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { open } from '../src/index.js';
import { memoryComposition, peakRssMb } from './memory.js';
import { arg, claimBatches } from './workload.js';

const N = arg('claims', 'KB_BENCH_CLAIMS', 200_000);
const SNAPSHOT = process.env.KB_MEMORY_SNAPSHOT === '1';
const OUT = process.env.KB_MEMORY_DIR ?? tmpdir();
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const dir = mkdtempSync(join(tmpdir(), 'kb-memory-'));
const points: Record<string, unknown> = {};
const loadStart = load();
try {
  const path = join(dir, 'bench.kb');
  await (async () => {
    const db = await open(path);
    const t0 = performance.now();
    for (const b of claimBatches(N, 10_000)) await db.ingestBatch(b);
    const ingestMs = performance.now() - t0;
    points.after_ingest = { ms: Math.round(ingestMs), ...memoryComposition(SNAPSHOT && join(OUT, 'after-ingest')) };
    const t1 = performance.now();
    await db.embeddingsReady();
    points.after_catch_up = {
      ms: Math.round(performance.now() - t1),
      ...memoryComposition(SNAPSHOT && join(OUT, 'after-catch-up')),
    };
    await db.close();
  })();
  const t2 = performance.now();
  const again = await open(path);
  const openMs = performance.now() - t2;
  await again.embeddingsReady();
  points.after_reopen = { ms: Math.round(openMs), ...memoryComposition(SNAPSHOT && join(OUT, 'after-reopen')) };
  await again.close();
  console.log(
    JSON.stringify({
      benchmark: 'kb memory probe',
      claims: N,
      ...points,
      peak_rss_mb: peakRssMb(),
      load_start: loadStart,
      load_end: load(),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
