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
import { arg, claimBatches, entityCount, PREDICATES, queryLatenciesUs, queryNames } from './workload.js';

const N = arg('claims', 'KB_BENCH_CLAIMS', 1_000_000);
const BATCH = arg('batch', 'KB_BENCH_BATCH', 10_000);
const QUERIES = arg('queries', 'KB_BENCH_QUERIES', 2000);
const ENTITIES = entityCount(N);

const batches = () => claimBatches(N, BATCH);

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

    const names = queryNames(N, QUERIES);
    const d1 = await queryLatenciesUs(db, names, 1);
    const d2 = await queryLatenciesUs(db, names, 2);
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
