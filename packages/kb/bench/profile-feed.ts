// Profiling aid: the benchmark's feed (same generator as ingest-query.ts) ingested in 10,000-claim batches,
// timing only the ingestBatch calls. Run under --cpu-prof to see where ingest time goes.
//   N=300000 node --cpu-prof --conditions=evident-source --import tsx bench/profile-feed.ts
//   REOPEN=1 ... also reopens the base and prints open_ms and rss_mb.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { open, type ClaimInput } from '../src/index.js';

const N = Number(process.env.N ?? 300_000);
const BATCH = 10_000;
const ENTITIES = Math.max(10, Math.round(N / 10));
const PREDICATES = 50;
const TYPES = ['gene', 'protein', 'disease', 'drug', 'pathway'];
let seed = 0;
function rand(): number {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (n: number) => Math.floor(rand() * n);
function* batches(): Generator<ClaimInput[]> {
  seed = 0x9e3779b9;
  const entity = (i: number): [string, string] => [`E${i}`, TYPES[i % TYPES.length]!];
  let made = 0;
  let f = 0;
  while (made < N) {
    const batch: ClaimInput[] = [];
    while (batch.length < BATCH && made < N) {
      const s = pick(ENTITIES);
      let o = pick(ENTITIES);
      if (o === s) o = (o + 1) % ENTITIES;
      const p = pick(PREDICATES);
      const base: ClaimInput = {
        subject: entity(s),
        predicate: [`rel_${p}`, `class_${p % 8}`],
        object: entity(o),
        provenance: { source_type: 'literature', source_id: `pmid:${1 + (f % 50_000)}` },
        confidence: 0.5 + rand() / 2,
      };
      batch.push(base);
      made++;
      if (f % 5 === 0 && made < N) {
        batch.push({ ...base, provenance: { source_type: 'database', source_id: `db:${f % 97}` }, confidence: 0.9 });
        made++;
      }
      f++;
    }
    yield batch;
  }
}

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
  console.log(JSON.stringify({ ingested: n, claims_per_sec: Math.round(n / (ms / 1000)), claims_per_cpu_sec: Math.round(n / (cpuUs / 1e6)) }));
  await db.close();
  if (!process.env.REOPEN) process.exit(0);
  const t1 = performance.now();
  const db2 = await open(join(dir, 'feed.kb'));
  console.log(JSON.stringify({ open_ms: Math.round(performance.now() - t1), rss_mb: Math.round(process.memoryUsage().rss / 2 ** 20) }));
  await db2.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
