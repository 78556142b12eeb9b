// Profiling aid: the benchmark's feed (same generator as ingest-query.ts) ingested in 10,000-claim batches,
// timing only the ingestBatch calls. Run under --cpu-prof to see where ingest time goes.
//   N=300000 node --cpu-prof --conditions=evident-source --import tsx bench/profile-feed.ts
//   REOPEN=1 ... also reopens the base and prints open_ms and rss_mb.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { open } from '../src/index.js';
import { claimBatches } from './workload.js';

const N = Number(process.env.N ?? 300_000);
const batches = () => claimBatches(N, 10_000);

const dir = mkdtempSync(join(tmpdir(), 'kb-feed-'));
try {
  const db = await open(join(dir, 'feed.kb'));
  let ms = 0;
  let n = 0;
  let cpuUs = 0;
  for (const b of batches()) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await db.ingestBatch(b);
    ms += performance.now() - t0;
    const c = process.cpuUsage(c0);
    cpuUs += c.user + c.system;
    n += r.ingested;
  }
  // Per CPU-second as well: steadier than wall time on a shared machine.
  console.log(
    JSON.stringify({
      ingested: n,
      claims_per_sec: Math.round(n / (ms / 1000)),
      claims_per_cpu_sec: Math.round(n / (cpuUs / 1e6)),
    }),
  );
  await db.close();
  if (!process.env.REOPEN) process.exit(0);
  const t1 = performance.now();
  const db2 = await open(join(dir, 'feed.kb'));
  console.log(
    JSON.stringify({
      open_ms: Math.round(performance.now() - t1),
      rss_mb: Math.round(process.memoryUsage().rss / 2 ** 20),
    }),
  );
  await db2.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
