// KB benchmark: synthetic claims (N claims, N/10 entities, 50 predicates, 20% of facts corroborated by a
// second source), ingested with ingestBatch into the default backend; then depth-1/depth-2 queries, reopen
// (log replay + index rebuild) time and RSS. Baseline, in the same run: plain better-sqlite3 batched inserts
// of the same claims as rows (same pragmas: WAL, synchronous=FULL, one transaction per batch).
//   npm run bench -w @evident/kb                       (1,000,000 claims)
//   KB_BENCH_CLAIMS=100000 npm run bench -w @evident/kb
//   KB_BENCH_PATH=postgres://... npm run bench ...     (the PostgreSQL store; baseline stays SQLite)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { open, type ClaimInput } from '../src/index.js';

function arg(name: string, env: string, dflt: number): number {
  const flag = process.argv.find((a) => a.startsWith(`--${name}=`));
  const v = flag ? flag.split('=')[1] : process.env[env];
  return v === undefined ? dflt : Number(v);
}

const N = arg('claims', 'KB_BENCH_CLAIMS', 1_000_000);
const BATCH = arg('batch', 'KB_BENCH_BATCH', 10_000);
const QUERIES = arg('queries', 'KB_BENCH_QUERIES', 2000);
const ENTITIES = Math.max(10, Math.round(N / 10));
const PREDICATES = 50;
if (!(N > 0) || !(BATCH > 0)) throw new Error('KB_BENCH_CLAIMS and KB_BENCH_BATCH must be positive numbers');
const TYPES = ['gene', 'protein', 'disease', 'drug', 'pathway'];

// Deterministic PRNG (mulberry32): every run, and the baseline within a run, ingests the same data.
let seed = 0;
function rand(): number {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (n: number) => Math.floor(rand() * n);

/**
 * The claims as a stream of batches, generated just before each call (as a real feed would arrive), so the
 * benchmark process does not hold a million inputs in memory. Each fact gets one literature claim; every
 * fifth fact also gets a database claim, right after it: 20% of facts corroborated by a second source.
 */
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

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function baseline(dir: string): number {
  const db = new Database(join(dir, 'baseline.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`CREATE TABLE claims (id INTEGER PRIMARY KEY, subject TEXT, subject_type TEXT, predicate TEXT, predicate_class TEXT,
           object TEXT, object_type TEXT, source_type TEXT, source_id TEXT, confidence REAL, created_at INTEGER)`);
  const ins = db.prepare('INSERT INTO claims (subject, subject_type, predicate, predicate_class, object, object_type, source_type, source_id, confidence, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)');
  const tx = db.transaction((rows: ClaimInput[]) => {
    const now = Date.now();
    for (const c of rows) {
      ins.run(c.subject[0], c.subject[1], c.predicate[0], c.predicate[1], c.object[0], c.object[1], c.provenance.source_type, c.provenance.source_id, c.confidence ?? 1, now);
    }
  });
  let ms = 0;
  let rows = 0;
  for (const b of batches()) {
    const t0 = performance.now();
    tx(b);
    ms += performance.now() - t0;
    rows += b.length;
  }
  db.close();
  return rows / (ms / 1000);
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'kb-bench-'));
  const path = process.env.KB_BENCH_PATH ?? join(dir, 'bench.kb');
  try {
    const baselineRate = baseline(dir);

    let db = await open(path);
    let ingestMs = 0;
    let ingested = 0;
    let duplicates = 0;
    for (const b of batches()) {
      // Only the ingestBatch calls are timed (generating the synthetic batch is not the KB's work).
      const t0 = performance.now();
      const r = await db.ingestBatch(b);
      ingestMs += performance.now() - t0;
      ingested += r.ingested;
      duplicates += r.duplicates;
    }
    const ingestSecs = ingestMs / 1000;
    const stats = await db.stats();

    const names: string[] = [];
    for (let i = 0; i < QUERIES; i++) names.push(`E${pick(ENTITIES)}`);
    const time = async (depth: number) => {
      const us: number[] = [];
      for (const n of names.slice(0, 200)) await db.query(n, { depth }); // warm-up
      for (const n of names) {
        const a = performance.now();
        await db.query(n, { depth });
        us.push((performance.now() - a) * 1000);
      }
      return us.sort((x, y) => x - y);
    };
    const d1 = await time(1);
    const d2 = await time(2);
    await db.close();

    const o0 = performance.now();
    db = await open(path);
    const openMs = performance.now() - o0;
    const reopened = await db.stats();
    const rss = process.memoryUsage().rss / 1024 / 1024;
    await db.close();

    const rate = ingested / ingestSecs;
    console.log(JSON.stringify({
      benchmark: 'kb ingest + query',
      claims: N,
      entities: ENTITIES,
      predicates: PREDICATES,
      corroborated_fact_fraction: 0.2,
      batch_size: BATCH,
      backend: `graph over ${stats.backend}`,
      ingested,
      duplicates,
      ingest_claims_per_sec: Math.round(rate),
      baseline_sqlite_rows_per_sec: Math.round(baselineRate),
      ratio: Math.round((rate / baselineRate) * 1000) / 1000,
      query_depth1_p50_us: Math.round(pct(d1, 50) * 10) / 10,
      query_depth2_p50_us: Math.round(pct(d2, 50) * 10) / 10,
      query_depth2_p99_us: Math.round(pct(d2, 99) * 10) / 10,
      open_ms: Math.round(openMs),
      rss_mb: Math.round(rss),
      reopened_claims: reopened.claim_count,
      content_groups: reopened.content_groups,
      targets: { ingest_claims_per_sec: 300_000, query_depth2_p50_us: 1000 },
      meets_targets: rate >= 300_000 && pct(d2, 50) < 1000,
    }, null, 2));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
