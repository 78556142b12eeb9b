// bench:search. Quality: the labelled set of bench/search-set (README there) loaded into a fresh base; recall@10
// and MRR per mode (lexical, semantic with the local embedder, hybrid). Performance: the KB benchmark's
// synthetic workload (bench/workload.ts) ingested twice in the same run, with the local embedder and with
// embedding off (the baseline), for ingest throughput; then index build time (ingest end to embeddingsReady) and
// its CPU time, memory, and hybrid search p50/p99. Size: --claims=N or SEARCH_BENCH_CLAIMS (default 100,000).
// With two-tier local vectors (the default, src/embeddings/two-tier.ts) the HNSW tier is built after
// embeddingsReady(): its wall and CPU time until complete, the latency and the hybrid recall once it is are
// reported as `..._after_hnsw` / `index_hnsw_...` (the build's time counted from the settle, the first 300
// searches included; about their time with one tier).
import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { open, quickstart, type ClaimInput } from '../src/index.js';
import { arg, claimBatches } from './workload.js';

const here = new URL('./search-set/', import.meta.url);
const rows = (f: string) =>
  readFileSync(new URL(f, here), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    .map((l) => l.split('\t'));

async function quality() {
  const dir = mkdtempSync(join(tmpdir(), 'search-bench-'));
  const db = await quickstart(join(dir, 'set.kb'));
  const claims = rows('claims.tsv');
  const inputs: ClaimInput[] = claims.map(([id, s, st, p, o, ot]) => ({
    subject: [s!, st!],
    predicate: [p!, 'association'],
    object: [o!, ot!],
    provenance: { source_type: 'literature', source_id: `set:${id}` },
  }));
  const { claim_ids } = await db.ingestBatch(inputs);
  const label = new Map(claim_ids.map((c, i) => [c, claims[i]![0]!]));
  await db.embeddingsReady();
  const out = await answerAll(db, label);
  await hnswBuilt(db);
  const after = await answerAll(db, label);
  await db.close();
  rmSync(dir, { recursive: true, force: true });
  return { claims: claims.length, questions: rows('questions.tsv').length, ...out, hybrid_after_hnsw: after.hybrid };
}

/** Waits until the two-tier lanes' HNSW covers every vector (src/embeddings/two-tier.ts); at once with one tier. */
async function hnswBuilt(db: Awaited<ReturnType<typeof open>>): Promise<void> {
  while ((db.embeddingStatus()?.index_pending ?? 0) > 0) await new Promise((r) => setTimeout(r, 20));
}

async function answerAll(db: Awaited<ReturnType<typeof open>>, label: Map<string, string>) {
  const questions = rows('questions.tsv').map(([q, r]) => ({ q: q!, relevant: new Set(r!.split(',')) }));
  const out: Record<string, { recall_at_10: number; mrr: number }> = {};
  for (const mode of ['lexical', 'semantic', 'hybrid'] as const) {
    let recall = 0;
    let mrr = 0;
    for (const { q, relevant } of questions) {
      const got = (await db.search(q, { k: 10, mode })).results.map((h) => label.get(h.claim.claim_id));
      recall += got.filter((g) => g !== undefined && relevant.has(g)).length / relevant.size;
      const first = got.findIndex((g) => g !== undefined && relevant.has(g));
      mrr += first < 0 ? 0 : 1 / (first + 1);
    }
    out[mode] = { recall_at_10: recall / questions.length, mrr: mrr / questions.length };
  }
  return out;
}

async function ingest(n: number, embedding: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'search-bench-'));
  const db = await open(join(dir, 'perf.kb'), embedding ? {} : { embedding: false });
  const heap0 = process.memoryUsage();
  const t0 = performance.now();
  for (const batch of claimBatches(n, 5000)) await db.ingestBatch(batch);
  const ingestMs = performance.now() - t0;
  return { db, dir, ingestMs, heap0 };
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

/** Each phase's figure as it is measured, on stderr (a long run that is cut short still tells what it got). */
const note = (what: string, v: unknown) => console.error(`bench:search ${what}: ${JSON.stringify(v)}`);

async function performanceRun(n: number) {
  const off = await ingest(n, false);
  note('ingest_off_ms', Math.round(off.ingestMs));
  await off.db.close();
  rmSync(off.dir, { recursive: true, force: true });
  const on = await ingest(n, true);
  note('ingest_on_ms', Math.round(on.ingestMs));
  const t1 = performance.now();
  const cpu1 = process.cpuUsage();
  await on.db.embeddingsReady();
  const buildMs = performance.now() - t1;
  // CPU time of this process over the build: on a machine shared with other jobs, the part that is ours.
  const cpu = process.cpuUsage(cpu1);
  const buildCpuMs = (cpu.user + cpu.system) / 1000;
  note('index_build_ms_after_ingest', Math.round(buildMs));
  note('index_build_cpu_ms_after_ingest', Math.round(buildCpuMs));
  const mem = process.memoryUsage();
  // The HNSW tier's build, from the settle to its end: the 300 searches below run meanwhile (their CPU included).
  const t2 = performance.now();
  const cpu2 = process.cpuUsage();
  const queries = ['E12 inhibits', 'p7 E1000', 'E42', 'association p3 E77', 'E5 E6 E7'];
  const latencies = async () => {
    const lat: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t = performance.now();
      await on.db.search(`${queries[i % queries.length]} E${(i * 7919) % Math.max(10, n / 10)}`, 10);
      lat.push(performance.now() - t);
    }
    return lat;
  };
  const lat = await latencies();
  note('search_hybrid_local_p50_p99_ms', [pct(lat, 50), pct(lat, 99)]);
  await hnswBuilt(on.db);
  const hnswMs = performance.now() - t2;
  const hnswCpu = process.cpuUsage(cpu2);
  const hnswCpuMs = (hnswCpu.user + hnswCpu.system) / 1000;
  note('index_hnsw_ms_cpu_ms_after_settle', [Math.round(hnswMs), Math.round(hnswCpuMs)]);
  const latAfter = await latencies();
  const memAfter = process.memoryUsage();
  await on.db.close();
  rmSync(on.dir, { recursive: true, force: true });
  const rateOn = n / (on.ingestMs / 1000);
  const rateOff = n / (off.ingestMs / 1000);
  return {
    claims: n,
    ingest_claims_per_s_embedding_on: Math.round(rateOn),
    ingest_claims_per_s_embedding_off_baseline: Math.round(rateOff),
    ingest_ratio_on_over_off: Number((rateOn / rateOff).toFixed(3)),
    index_build_ms_after_ingest: Math.round(buildMs),
    index_build_cpu_ms_after_ingest: Math.round(buildCpuMs),
    rss_mb: Math.round(mem.rss / 2 ** 20),
    heap_used_mb_delta: Math.round((mem.heapUsed - on.heap0.heapUsed) / 2 ** 20),
    search_hybrid_local_p50_ms: Number(pct(lat, 50).toFixed(3)),
    search_hybrid_local_p99_ms: Number(pct(lat, 99).toFixed(3)),
    index_hnsw_ms_after_settle: Math.round(hnswMs),
    index_hnsw_cpu_ms_after_settle: Math.round(hnswCpuMs),
    rss_mb_after_hnsw: Math.round(memAfter.rss / 2 ** 20),
    search_hybrid_local_p50_ms_after_hnsw: Number(pct(latAfter, 50).toFixed(3)),
    search_hybrid_local_p99_ms_after_hnsw: Number(pct(latAfter, 99).toFixed(3)),
  };
}

const n = arg('claims', 'SEARCH_BENCH_CLAIMS', 100_000);
const q = await quality();
note('quality', q);
const result = { quality: q, performance: n > 0 ? await performanceRun(n) : null };
console.log(JSON.stringify(result, null, 2));
