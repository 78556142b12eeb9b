// Profiling aid: the benchmark's feed (same generator as ingest-query.ts) ingested in 10,000-claim batches,
// timing only the ingestBatch calls. Run under --cpu-prof to see where ingest time goes.
//   N=300000 node --cpu-prof --conditions=evident-source --import tsx bench/profile-feed.ts
//   REOPEN=1 ... also reopens the base and prints open_ms and rss_mb.
// On Linux it also prints the CPU of the main thread and of the other threads (V8's collector helpers, the
// SQLite writer) over the whole feed loop, the generator's batches included; generator_cpu_ms is a pass of the
// generator alone, for scale.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { open } from '../src/index.js';
import { claimBatches } from './workload.js';

const N = Number(process.env.N ?? 300_000);
const batches = () => claimBatches(N, 10_000);

/** CPU ms of this process's main thread and of its other threads so far, from /proc (null elsewhere). */
function threadCpu(): { main: number; others: number } | null {
  try {
    let main = 0;
    let others = 0;
    for (const t of readdirSync('/proc/self/task')) {
      const st = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      // utime and stime, in clock ticks (100 per second on Linux)
      const ms = (Number(f[11]) + Number(f[12])) * 10;
      if (t === String(process.pid)) main += ms;
      else others += ms;
    }
    return { main, others };
  } catch {
    return null;
  }
}

const g0 = process.cpuUsage();
for (const b of batches()) if (b.length === 0) throw new Error('empty batch');
const g1 = process.cpuUsage(g0);
const generatorCpuMs = Math.round((g1.user + g1.system) / 1000);

const dir = mkdtempSync(join(tmpdir(), 'kb-feed-'));
try {
  const db = await open(join(dir, 'feed.kb'));
  const th0 = threadCpu();
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
  const th1 = threadCpu();
  // Per CPU-second as well: steadier than wall time on a shared machine.
  console.log(
    JSON.stringify({
      ingested: n,
      claims_per_sec: Math.round(n / (ms / 1000)),
      claims_per_cpu_sec: Math.round(n / (cpuUs / 1e6)),
      ...(th0 && th1
        ? {
            main_thread_cpu_ms: th1.main - th0.main,
            other_threads_cpu_ms: th1.others - th0.others,
            generator_cpu_ms: generatorCpuMs,
          }
        : {}),
      loadavg: loadavg().map((x) => Math.round(x * 100) / 100),
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
