// KB benchmark: synthetic claims (N claims, N/10 entities, 50 predicates, 20% of facts corroborated by a
// second source), ingested with ingestBatch into the default backend; then depth-1/depth-2 queries, reopen
// (log replay + index rebuild) time and RSS. Baseline, in the same run: plain better-sqlite3 batched inserts
// of the same claims as rows (same pragmas: WAL, synchronous=FULL, one transaction per batch).
//   npm run bench -w @evident/kb-core                       (1,000,000 claims)
//   KB_BENCH_CLAIMS=100000 npm run bench -w @evident/kb-core
//   KB_BENCH_PATH=postgres://... npm run bench ...     (the PostgreSQL store; baseline stays SQLite)
//   KB_BENCH_INGEST_ONLY=1 ...   only the baseline and the ingest (defaults on), then the ratio; no queries,
//                                no catch-up, no reopen (for A/B runs and profiles of the write path)
//   KB_BENCH_FEED_TURN=0 ...     no turn of the event loop between batches (see feedTurn)
// Both feeds (the baseline's and the KB's) take one turn of the event loop after each batch is generated and
// before its timed call, as batches that arrive by I/O do (a file read, a request): the collector's tasks for the
// generator's garbage (about 4.4 MB a batch, against the KB's 0.15 MB) then run in the feed's turn, not in the
// first turn the timed call takes. `*_gc_in_calls_ms` is the collectors' time inside the timed calls.
// After the reasoning calls, the topology stage (bench/topology-stage.ts) on the reopened base: a first
// computeTopology(), a batch touching 0.5% of the entities, the incremental computeTopology() timed (wall, CPU)
// and a full recompute on the same graph for the modularity gap.
//   KB_BENCH_TOPOLOGY=incremental-only   no full recompute (a converged one takes about 16 minutes at 1,000,000)
//   KB_BENCH_TOPOLOGY=off                no topology stage
//   KB_BENCH_TOPOLOGY_ITERATIONS, KB_BENCH_TOPOLOGY_RESTARTS   Leiden's n_iterations and restarts (default: the
//                                        library's, converged with 3 restarts)
// The JSON ends with `goals`: each of issue 41's goals, the run's figure and whether it was met; `peak_rss_mb` is
// the process's high-water mark over the whole run (VmHWM) and `peak_rss_stage` the stage that set it.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { open, type ClaimInput, type KbDB } from '../src/index.js';
import { goals } from './goals.js';
import { PeakByStage } from './memory.js';
import { timeReasoning } from './reasoning.js';
import { measureIncrementalTopology, type TopologySettings } from './topology-stage.js';
import { arg, claimBatches, entityCount, PREDICATES, queryAndReopen } from './workload.js';

const N = arg('claims', 'KB_BENCH_CLAIMS', 1_000_000);
const BATCH = arg('batch', 'KB_BENCH_BATCH', 10_000);
const QUERIES = arg('queries', 'KB_BENCH_QUERIES', 2000);
const ENTITIES = entityCount(N);
const INGEST_ONLY = arg('ingest-only', 'KB_BENCH_INGEST_ONLY', 0) === 1;
const TOPOLOGY = process.env.KB_BENCH_TOPOLOGY ?? 'full';
if (!['full', 'incremental-only', 'off'].includes(TOPOLOGY)) {
  throw new Error('KB_BENCH_TOPOLOGY is one of full, incremental-only, off');
}
const topologySettings: TopologySettings = {
  seed: 0,
  ...(process.env.KB_BENCH_TOPOLOGY_ITERATIONS
    ? { n_iterations: Number(process.env.KB_BENCH_TOPOLOGY_ITERATIONS) }
    : {}),
  ...(process.env.KB_BENCH_TOPOLOGY_RESTARTS ? { restarts: Number(process.env.KB_BENCH_TOPOLOGY_RESTARTS) } : {}),
};
const peak = new PeakByStage();

const batches = () => claimBatches(N, BATCH);

const FEED_TURN = arg('feed-turn', 'KB_BENCH_FEED_TURN', 1) === 1;
/** The turn of the event loop a feed takes between batches (untimed): see the header. */
const feedTurn = () => (FEED_TURN ? new Promise<void>((r) => setImmediate(r)) : undefined);

/** Collector time inside timed calls: the spans of the calls, and the collections that started within one. */
class GcInCalls {
  private readonly spans: number[] = [];
  private readonly gcs: { start: number; ms: number }[] = [];
  private readonly observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) this.gcs.push({ start: e.startTime, ms: e.duration });
  });

  constructor() {
    this.observer.observe({ entryTypes: ['gc'] });
  }

  span(t0: number, t1: number): void {
    this.spans.push(t0, t1);
  }

  /** The sum, once the observer has been handed the last entries (they come in a later turn). */
  async total(): Promise<number> {
    await new Promise<void>((r) => setImmediate(r));
    this.observer.disconnect();
    let ms = 0;
    for (const g of this.gcs) {
      for (let i = 0; i < this.spans.length; i += 2) {
        if (g.start >= this.spans[i]! && g.start <= this.spans[i + 1]!) {
          ms += g.ms;
          break;
        }
      }
    }
    return Math.round(ms);
  }
}

async function baseline(dir: string): Promise<{ rate: number; gcInCallsMs: number }> {
  const db = new Database(join(dir, 'baseline.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`CREATE TABLE claims (id INTEGER PRIMARY KEY, subject TEXT, subject_type TEXT, predicate TEXT, predicate_class TEXT,
           object TEXT, object_type TEXT, source_type TEXT, source_id TEXT, confidence REAL, created_at INTEGER)`);
  const ins = db.prepare(
    'INSERT INTO claims (subject, subject_type, predicate, predicate_class, object, object_type, source_type, source_id, confidence, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)',
  );
  const tx = db.transaction((rows: ClaimInput[]) => {
    const now = Date.now();
    for (const c of rows) {
      ins.run(
        c.subject[0],
        c.subject[1],
        c.predicate[0],
        c.predicate[1],
        c.object[0],
        c.object[1],
        c.provenance.source_type,
        c.provenance.source_id,
        c.confidence ?? 1,
        now,
      );
    }
  });
  let ms = 0;
  let rows = 0;
  const gc = new GcInCalls();
  for (const b of batches()) {
    await feedTurn();
    const t0 = performance.now();
    tx(b);
    const t1 = performance.now();
    gc.span(t0, t1);
    ms += t1 - t0;
    rows += b.length;
  }
  db.close();
  return { rate: rows / (ms / 1000), gcInCallsMs: await gc.total() };
}

async function ingest(db: KbDB) {
  let ingestMs = 0;
  let ingested = 0;
  let duplicates = 0;
  const gc = new GcInCalls();
  for (const b of batches()) {
    await feedTurn();
    // Only the ingestBatch calls are timed (generating the synthetic batch is not the KB's work).
    const t0 = performance.now();
    const r = await db.ingestBatch(b);
    const t1 = performance.now();
    gc.span(t0, t1);
    ingestMs += t1 - t0;
    ingested += r.ingested;
    duplicates += r.duplicates;
  }
  return { rate: ingested / (ingestMs / 1000), ingested, duplicates, gcInCallsMs: await gc.total() };
}

async function ingestAndQuery(path: string) {
  const db = await open(path);
  const { rate, ingested, duplicates, gcInCallsMs } = await ingest(db);
  peak.mark('ingest');
  // The search stage's work after the commits (BM25 intake, learning, the local vectors), waited for, so the
  // queries and the reasoning calls below time a settled base, as one that has been running is.
  const s0 = performance.now();
  const c0 = process.cpuUsage();
  await db.embeddingsReady();
  const searchSettleMs = performance.now() - s0;
  // This process's CPU (every thread) over the same span: the figure to compare when the machine is shared.
  const settleCpu = process.cpuUsage(c0);
  const searchSettleCpuMs = (settleCpu.user + settleCpu.system) / 1000;
  peak.mark('search_settle');
  const after = await queryAndReopen(db, path, N, QUERIES, (stage) => peak.mark(stage));
  return { rate, ingested, duplicates, gcInCallsMs, searchSettleMs, searchSettleCpuMs, after };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'kb-bench-'));
  const path = process.env.KB_BENCH_PATH ?? join(dir, 'bench.kb');
  const loadStart = loadavg().map((x) => Math.round(x * 100) / 100);
  try {
    const { rate: baselineRate, gcInCallsMs: baselineGcMs } = await baseline(dir);
    peak.mark('baseline');
    if (INGEST_ONLY) {
      const db = await open(path);
      const c0 = process.cpuUsage();
      const { rate, ingested, gcInCallsMs } = await ingest(db);
      const cpu = process.cpuUsage(c0);
      await db.close();
      console.log(
        JSON.stringify({
          benchmark: 'kb ingest only',
          claims: N,
          ingested,
          ingest_claims_per_sec: Math.round(rate),
          baseline_sqlite_rows_per_sec: Math.round(baselineRate),
          ratio: Math.round((rate / baselineRate) * 1000) / 1000,
          feed_turn: FEED_TURN,
          ingest_gc_in_calls_ms: gcInCallsMs,
          baseline_gc_in_calls_ms: baselineGcMs,
          ingest_cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
          loadavg: loadavg().map((x) => Math.round(x * 100) / 100),
        }),
      );
      return;
    }

    // In a function of its own, so that the closed base it ingested is garbage before the reasoning calls are
    // timed on a fresh open (two bases' indexes in one heap make a what-if copy's garbage collection the figure).
    const { rate, ingested, duplicates, gcInCallsMs, searchSettleMs, searchSettleCpuMs, after } =
      await ingestAndQuery(path);
    // The reasoning calls, on the base reopened after the RSS figure was taken (a what-if view holds a copy),
    // once its search stage has taken in the log again (BM25; vectors and learner are loaded from disk); then the
    // topology stage on the same base (the batch it adds comes after every other figure).
    const { topology, ...reasoning } = await (async () => {
      await using again = await open(path);
      const r0 = performance.now();
      await again.embeddingsReady();
      const reopenSettleMs = performance.now() - r0;
      const timed = await timeReasoning(again);
      peak.mark('reasoning');
      const topology =
        TOPOLOGY === 'off'
          ? null
          : await measureIncrementalTopology(again, N, topologySettings, {
              full: TOPOLOGY === 'full',
              // The batch's search intake and vectors are waited for, so the update is timed alone.
              afterBatch: () => again.embeddingsReady(),
              mark: (stage) => peak.mark(stage),
            });
      return { reopen_search_settle_ms: Math.round(reopenSettleMs), ...timed, topology };
    })();
    // Closing the base saves the search stage's files and the topology's: a stage of its own for the peak.
    peak.mark('close');
    const peakRss = peak.result();
    const ratio = Math.round((rate / baselineRate) * 1000) / 1000;
    console.log(
      JSON.stringify({
        benchmark: 'kb ingest + query',
        claims: N,
        entities: ENTITIES,
        predicates: PREDICATES,
        corroborated_fact_fraction: 0.2,
        batch_size: BATCH,
        backend: after.backend,
        ingested,
        duplicates,
        ingest_claims_per_sec: Math.round(rate),
        baseline_sqlite_rows_per_sec: Math.round(baselineRate),
        ratio,
        feed_turn: FEED_TURN,
        ingest_gc_in_calls_ms: gcInCallsMs,
        baseline_gc_in_calls_ms: baselineGcMs,
        query_depth1_p50_us: after.query_depth1_p50_us,
        query_depth1_p99_us: after.query_depth1_p99_us,
        query_depth2_p50_us: after.query_depth2_p50_us,
        query_depth2_p99_us: after.query_depth2_p99_us,
        search_settle_ms: Math.round(searchSettleMs),
        search_settle_cpu_ms: Math.round(searchSettleCpuMs),
        open_ms: after.open_ms,
        rss_mb_after_reopen: after.rss_mb,
        ...peakRss,
        reopened_claims: after.reopened_claims,
        content_groups: after.content_groups,
        ...reasoning,
        topology: topology ?? { skipped: 'KB_BENCH_TOPOLOGY=off' },
        goals: goals({
          ratio,
          search_settle_ms: Math.round(searchSettleMs),
          open_ms: after.open_ms,
          topology_incremental_ms: topology ? Math.round(topology.incremental_s * 1000) : null,
          topology_modularity_gap: topology?.full?.modularity_gap ?? null,
          what_if_add_ms: reasoning.reasoning_ms.what_if_add ?? null,
          depth2_p50_us: after.query_depth2_p50_us,
          peak_rss_mb: peakRss.peak_rss_mb,
        }),
        loadavg_start: loadStart,
        loadavg_end: loadavg().map((x) => Math.round(x * 100) / 100),
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
