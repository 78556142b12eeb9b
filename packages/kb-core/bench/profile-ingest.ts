// Profiling aid: ingest N synthetic claims, then reopen; prints wall and CPU rates.
//   N=200000 node --conditions=evident-source --import tsx bench/profile-ingest.ts
//   OPEN_ONLY=/path/to/x.kb ... reopens an existing base only (to profile the replay alone); KEEP=1 keeps the base.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { open, type ClaimInput } from '../src/index.js';

async function reopen(path: string) {
  const t = performance.now();
  const c1 = process.cpuUsage();
  const db = await open(path);
  const cpu = process.cpuUsage(c1);
  console.log(
    'open ms',
    Math.round(performance.now() - t),
    'cpu ms',
    Math.round((cpu.user + cpu.system) / 1000),
    'rss mb',
    Math.round(process.memoryUsage().rss / 2 ** 20),
  );
  await db.close();
}

if (process.env.OPEN_ONLY) {
  await reopen(process.env.OPEN_ONLY);
} else {
  const N = Number(process.env.N ?? 200_000);
  const E = N / 10;
  const claims: ClaimInput[] = [];
  let seed = 1;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (let i = 0; i < N; i++) {
    claims.push({
      subject: [`E${Math.floor(rnd() * E)}`, 'gene'],
      predicate: [`rel_${i % 50}`, 'c'],
      object: [`E${Math.floor(rnd() * E)}`, 'disease'],
      provenance: { source_type: 'literature', source_id: `pmid:${i % 50000}` },
      confidence: 0.5,
    });
  }
  const path = join(mkdtempSync(join(tmpdir(), 'kbp-')), 'x.kb');
  const db = await open(path);
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < N; i += 10_000) await db.ingestBatch(claims.slice(i, i + 10_000));
  const cpu = process.cpuUsage(cpu0);
  console.log(
    'ingest/s wall',
    Math.round(N / ((performance.now() - t) / 1000)),
    'per cpu-s',
    Math.round(N / ((cpu.user + cpu.system) / 1e6)),
  );
  await db.close();
  await reopen(path);
  if (process.env.KEEP) console.log('kept', path);
  else rmSync(dirname(path), { recursive: true, force: true });
}
