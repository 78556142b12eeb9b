// Profiling aid for the reasoning calls: builds (once) a base of N synthetic claims at KB_PROFILE_PATH, then
// times drift, fragile, stale and whatIf-with-add on it, three runs each. Not a benchmark (no baseline): use
// `npm run bench:kb` for figures.
//   KB_BENCH_CLAIMS=200000 KB_PROFILE_PATH=/tmp/p.kb node --conditions=evident-source --import tsx bench/profile-reasoning.ts
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { open } from '../src/index.js';
import { arg, claimBatches } from './workload.js';

const N = arg('claims', 'KB_BENCH_CLAIMS', 200_000);
const path = process.env.KB_PROFILE_PATH ?? `/tmp/kb-profile-${N}.kb`;
const only = process.env.KB_PROFILE_ONLY?.split(',');

async function main() {
  if (!existsSync(path)) {
    await using db = await open(path);
    for (const b of claimBatches(N, 10_000)) await db.ingestBatch(b);
  }
  const t0 = performance.now();
  await using db = await open(path);
  console.log('open_ms', Math.round(performance.now() - t0));
  const hour = Date.now() - 3_600_000;
  const calls: Record<string, () => Promise<unknown>> = {
    drift: () => db.drift({ since: hour }),
    fragile: () => db.fragile(),
    stale: () => db.stale({ days: 0 }),
    what_if_add: () =>
      db.hypothetical([
        {
          subject: ['E1', 'gene'],
          predicate: ['rel_1', 'class_1'],
          object: ['E2', 'gene'],
          provenance: { source_type: 'literature', source_id: 'what-if' },
        },
      ]),
  };
  for (const [name, fn] of Object.entries(calls)) {
    if (only && !only.includes(name)) continue;
    const times: string[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      const cpu = process.cpuUsage();
      await fn();
      const used = process.cpuUsage(cpu);
      times.push(`${Math.round(performance.now() - t)}ms(cpu ${Math.round((used.user + used.system) / 1000)})`);
    }
    console.log(name, times.join(' '));
  }
}
await main();
