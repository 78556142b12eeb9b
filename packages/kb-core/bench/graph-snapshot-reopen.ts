// Reopen with and without the graph snapshot (issue 41, point 3), same base, same process, alternating: ingests
// N claims of the benchmark's workload (embedding off: the graph's part of the open is what is compared), closes,
// then times ROUNDS opens by a full replay (the snapshot file removed first; its close writes it again, timed as
// save_ms) and ROUNDS opens from the snapshot. Prints JSON with the medians, the CPU time and the load average.
//   N=200000 ROUNDS=3 nice -n 10 node --conditions=evident-source --import tsx bench/graph-snapshot-reopen.ts
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { open } from '../src/index.js';
import { graphSnapshotPath } from '../src/facade/graph-snapshot.js';
import { claimBatches } from './workload.js';

const N = Number(process.env.N ?? 200_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);
const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;

async function timedOpen(path: string) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const db = await open(path, { embedding: false });
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const claims = (await db.stats()).claim_count;
  const t1 = performance.now();
  await db.close();
  return { ms, cpu_ms: (c.user + c.system) / 1000, close_ms: performance.now() - t1, claims };
}

const dir = mkdtempSync(join(tmpdir(), 'kb-graph-snapshot-'));
const path = join(dir, 'reopen.kb');
try {
  const loadStart = load();
  const db = await open(path, { embedding: false });
  for (const b of claimBatches(N, 10_000)) await db.ingestBatch(b);
  const claims = (await db.stats()).claim_count;
  await db.close();
  const replay: Awaited<ReturnType<typeof timedOpen>>[] = [];
  const snapshot: Awaited<ReturnType<typeof timedOpen>>[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    rmSync(graphSnapshotPath(path), { force: true });
    replay.push(await timedOpen(path));
    snapshot.push(await timedOpen(path));
  }
  const summary = (runs: typeof replay) => ({
    open_ms: runs.map((x) => Math.round(x.ms)),
    open_cpu_ms: runs.map((x) => Math.round(x.cpu_ms)),
    median_open_ms: Math.round(median(runs.map((x) => x.ms))),
    median_open_cpu_ms: Math.round(median(runs.map((x) => x.cpu_ms))),
    close_ms: runs.map((x) => Math.round(x.close_ms)),
    claims: runs.map((x) => x.claims),
  });
  console.log(
    JSON.stringify({
      n: N,
      claims,
      snapshot_bytes: statSync(graphSnapshotPath(path)).size,
      full_replay: summary(replay),
      from_snapshot: summary(snapshot),
      load_start: loadStart,
      load_end: load(),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
