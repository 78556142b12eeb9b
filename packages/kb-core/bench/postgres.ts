// KB benchmark on the PostgreSQL store: the workload of bench/workload.ts (N claims, N/10 entities,
// 50 predicates, 20% of facts corroborated by a second source), the same as bench/ingest-query.ts, ingested with
// ingestBatch into a fresh temporary database through open('postgres://...'); then depth-1/depth-2 queries
// (each one first tails the shared log, as every read on a shared store does), reopen (log replay + index
// rebuild) time and RSS. Baseline, in the same run and database: plain `pg` batched inserts of the same
// claims as rows (one multi-row INSERT ... SELECT FROM unnest(...) and one transaction per batch).
//   node --conditions=evident-source --import tsx bench/postgres.ts          (1,000,000 claims)
//   KB_BENCH_CLAIMS=100000 node --conditions=evident-source --import tsx bench/postgres.ts
//   TEST_DATABASE_URL=postgres://user@host:5432/postgres ...                 (server to create the temp database on)
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createTempDatabase } from '@evident/testkit';
import { open, type ClaimInput } from '../src/index.js';
import { allClaims, arg, entityCount, PREDICATES, queryAndReopen } from './workload.js';

const N = arg('claims', 'KB_BENCH_CLAIMS', 1_000_000);
const BATCH = arg('batch', 'KB_BENCH_BATCH', 10_000);
const QUERIES = arg('queries', 'KB_BENCH_QUERIES', 2000);
const ENTITIES = entityCount(N);

async function baseline(claims: ClaimInput[], url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`CREATE TABLE baseline_claims (id bigserial PRIMARY KEY, subject text, subject_type text, predicate text,
      predicate_class text, object text, object_type text, source_type text, source_id text, confidence float8, created_at bigint)`);
    const t0 = performance.now();
    for (let i = 0; i < claims.length; i += BATCH) {
      const rows = claims.slice(i, i + BATCH);
      const col = (f: (c: ClaimInput) => unknown) => rows.map(f);
      await c.query('BEGIN');
      await c.query(
        `INSERT INTO baseline_claims (subject, subject_type, predicate, predicate_class, object, object_type, source_type, source_id, confidence, created_at)
         SELECT *, $10::bigint FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::float8[])`,
        [
          col((x) => x.subject[0]),
          col((x) => x.subject[1]),
          col((x) => x.predicate[0]),
          col((x) => x.predicate[1]),
          col((x) => x.object[0]),
          col((x) => x.object[1]),
          col((x) => x.provenance.source_type),
          col((x) => x.provenance.source_id),
          col((x) => x.confidence ?? 1),
          Date.now(),
        ],
      );
      await c.query('COMMIT');
    }
    return claims.length / ((performance.now() - t0) / 1000);
  } finally {
    await c.end();
  }
}

async function main() {
  const temp = await createTempDatabase('evident_kb_bench');
  try {
    const claims = allClaims(N);
    const baselineRate = await baseline(claims, temp.url);

    const db = await open(temp.url);
    const t0 = performance.now();
    let ingested = 0;
    let duplicates = 0;
    for (let i = 0; i < claims.length; i += BATCH) {
      const r = await db.ingestBatch(claims.slice(i, i + BATCH));
      ingested += r.ingested;
      duplicates += r.duplicates;
    }
    const rate = ingested / ((performance.now() - t0) / 1000);
    const after = await queryAndReopen(db, temp.url, N, QUERIES);
    console.log(
      JSON.stringify(
        {
          benchmark: 'kb ingest + query (PostgreSQL store)',
          claims: N,
          entities: ENTITIES,
          predicates: PREDICATES,
          corroborated_fact_fraction: 0.2,
          batch_size: BATCH,
          ingested,
          duplicates,
          ingest_claims_per_sec: Math.round(rate),
          baseline_pg_rows_per_sec: Math.round(baselineRate),
          ratio: Math.round((rate / baselineRate) * 1000) / 1000,
          ...after,
        },
        null,
        2,
      ),
    );
  } finally {
    await temp.drop();
  }
}

await main();
