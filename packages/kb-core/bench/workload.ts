// The KB benchmarks' synthetic workload, shared so that every benchmark and profiling aid ingests the same claims:
// N claims over N/10 entities (five types) and 50 predicates; each fact gets one literature claim and every fifth
// fact also a database claim right after it, so 20% of facts are corroborated by a second source. A seeded
// PRNG (mulberry32) makes every run, and each baseline within a run, see identical data.
import { performance } from 'node:perf_hooks';
import { open, type ClaimInput, type KbDB } from '../src/index.js';

export const PREDICATES = 50;
const TYPES = ['gene', 'protein', 'disease', 'drug', 'pathway'];
const SEED = 0x9e3779b9;

/** mulberry32: a small, fast, seeded PRNG in [0, 1). */
export function seededRandom(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Entity names to query, `count` of them, drawn reproducibly from the workload's entities. */
export function queryNames(claims: number, count: number): string[] {
  const rand = seededRandom(0x5eed);
  const entities = entityCount(claims);
  return Array.from({ length: count }, () => `E${Math.floor(rand() * entities)}`);
}

/** Reads `--name=value` or the environment variable, else the default. */
export function arg(name: string, env: string, dflt: number): number {
  const flag = process.argv.find((a) => a.startsWith(`--${name}=`));
  const v = flag ? flag.split('=')[1] : process.env[env];
  return v === undefined ? dflt : Number(v);
}

export function entityCount(claims: number): number {
  return Math.max(10, Math.round(claims / 10));
}

/**
 * The workload's entity graph as the topology stage sees it, one edge per distinct fact (subject, predicate,
 * object) between two different entities: what bench/topology.ts hands its baselines, for the profiling aids.
 */
export function factEdges(claims: number): { n: number; sources: Int32Array; targets: Int32Array } {
  const facts = new Set<string>();
  const sources: number[] = [];
  const targets: number[] = [];
  for (const batch of claimBatches(claims, 50_000)) {
    for (const c of batch) {
      const a = Number(c.subject[0].slice(1));
      const b = Number(c.object[0].slice(1));
      const key = `${a}|${c.predicate[0]}|${b}`;
      if (a === b || facts.has(key)) continue;
      facts.add(key);
      sources.push(a);
      targets.push(b);
    }
  }
  return { n: entityCount(claims), sources: Int32Array.from(sources), targets: Int32Array.from(targets) };
}

/**
 * The claims as a stream of batches, generated just before each is needed (as a real feed would arrive), so a
 * benchmark does not hold a million inputs in memory.
 */
export function* claimBatches(claims: number, batchSize: number): Generator<ClaimInput[]> {
  if (!(claims > 0) || !(batchSize > 0)) throw new Error('claim count and batch size must be positive numbers');
  const entities = entityCount(claims);
  const rand = seededRandom(SEED);
  const pick = (n: number) => Math.floor(rand() * n);
  const entity = (i: number): [string, string] => [`E${i}`, TYPES[i % TYPES.length]!];
  let made = 0;
  let f = 0;
  while (made < claims) {
    const batch: ClaimInput[] = [];
    while (batch.length < batchSize && made < claims) {
      const s = pick(entities);
      let o = pick(entities);
      if (o === s) o = (o + 1) % entities;
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
      if (f % 5 === 0 && made < claims) {
        batch.push({ ...base, provenance: { source_type: 'database', source_id: `db:${f % 97}` }, confidence: 0.9 });
        made++;
      }
      f++;
    }
    yield batch;
  }
}

/** The same claims, all at once. */
export function allClaims(claims: number): ClaimInput[] {
  const out: ClaimInput[] = [];
  for (const b of claimBatches(claims, 10_000)) for (const c of b) out.push(c);
  return out;
}

/** Latency of `db.query(name, { depth })` for each name after a warm-up of 200, in µs, sorted ascending. */
export async function queryLatenciesUs(db: KbDB, names: string[], depth: number): Promise<number[]> {
  for (const n of names.slice(0, 200)) await db.query(n, { depth });
  const us: number[] = [];
  for (const n of names) {
    const a = performance.now();
    await db.query(n, { depth });
    us.push((performance.now() - a) * 1000);
  }
  return us.sort((x, y) => x - y);
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const us = (x: number) => Math.round(x * 10) / 10;

/**
 * What every ingest benchmark reports after its ingest: the base's stats, depth-1 and depth-2 query latencies
 * over `queries` names, then (closing the base) the time to reopen `path` (replay and rebuild) and the RSS then.
 * `mark` is told each stage's end ('queries', 'reopen'), for a peak-RSS attribution (bench/memory.ts).
 */
export async function queryAndReopen(
  db: KbDB,
  path: string,
  claims: number,
  queries: number,
  mark: (stage: string) => void = () => {},
) {
  const stats = await db.stats();
  const names = queryNames(claims, queries);
  const d1 = await queryLatenciesUs(db, names, 1);
  const d2 = await queryLatenciesUs(db, names, 2);
  mark('queries');
  await db.close();
  const o0 = performance.now();
  const again = await open(path);
  const openMs = performance.now() - o0;
  const reopened = await again.stats();
  const rss = process.memoryUsage().rss / 1024 / 1024;
  mark('reopen');
  await again.close();
  return {
    backend: `graph over ${stats.backend}`,
    query_depth1_p50_us: us(pct(d1, 50)),
    query_depth1_p99_us: us(pct(d1, 99)),
    query_depth2_p50_us: us(pct(d2, 50)),
    query_depth2_p99_us: us(pct(d2, 99)),
    open_ms: Math.round(openMs),
    rss_mb: Math.round(rss),
    reopened_claims: reopened.claim_count,
    content_groups: reopened.content_groups,
  };
}
