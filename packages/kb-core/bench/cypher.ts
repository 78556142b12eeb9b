// Cypher benchmark (npm run bench:cypher): the KB benchmark's base (1,000,000 claims by default; see
// workload.ts), then five rawQuery shapes — a point lookup by id, a 1-hop expansion with a filter, a 2-hop
// count, an aggregation by entity type, a variable-length path — each timed p50/p99. Baseline in the same run:
// Kùzu loaded with the same graph (one node per entity, one relationship per fact, same properties), asked the
// same queries. Kùzu is not a dependency: install it with `npm install --no-save kuzu` (or point KUZU_MODULE
// at an installed copy); without it the baseline is reported as missing.
//   npm run bench:cypher                      KB_BENCH_CLAIMS=100000 npm run bench:cypher
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { open, type KbDB } from '../src/index.js';
import { arg, claimBatches, queryNames } from './workload.js';

const N = arg('claims', 'KB_BENCH_CLAIMS', 1_000_000);
const RUNS = arg('queries', 'KB_BENCH_QUERIES', 200);
const AGG_RUNS = arg('agg-runs', 'KB_BENCH_AGG_RUNS', 20);

interface Shape {
  name: string;
  cypher: string;
  kuzu: string;
  runs: number;
}

const SHAPES: Shape[] = [
  {
    name: 'lookup_by_id',
    cypher: 'MATCH (n:Entity {id: $id}) RETURN n.name AS name, n.claim_count AS c',
    kuzu: 'MATCH (n:Entity {id: $id}) RETURN n.name AS name, n.claim_count AS c',
    runs: RUNS,
  },
  {
    name: 'one_hop_filter',
    cypher: 'MATCH (a:Entity {id: $id})-[r]->(b) WHERE r.confidence > 0.8 RETURN b.name AS name, r.confidence AS c',
    kuzu: 'MATCH (a:Entity {id: $id})-[r:R]->(b:Entity) WHERE r.confidence > 0.8 RETURN b.name AS name, r.confidence AS c',
    runs: RUNS,
  },
  {
    name: 'two_hop_count',
    cypher: 'MATCH (a:Entity {id: $id})-->()-->(c) RETURN count(c) AS n',
    kuzu: 'MATCH (a:Entity {id: $id})-[:R]->(:Entity)-[:R]->(c:Entity) RETURN count(c) AS n',
    runs: RUNS,
  },
  {
    name: 'aggregate_by_type',
    cypher: 'MATCH (n:Entity) RETURN n.type AS type, count(*) AS n, avg(n.claim_count) AS mean',
    kuzu: 'MATCH (n:Entity) RETURN n.type AS type, count(*) AS n, avg(n.claim_count) AS mean',
    runs: AGG_RUNS,
  },
  // The same aggregation as users vary it (issue 40): each should cost about what the base shape costs.
  ...[
    ['aggregate_by_type_order_by', 'MATCH (n:Entity) RETURN n.type AS type, count(*) AS cnt ORDER BY cnt DESC'],
    ['aggregate_by_type_where', 'MATCH (n:Entity) WHERE n.claim_count > 1 RETURN n.type AS type, count(*) AS cnt'],
    ['aggregate_by_type_limit', 'MATCH (n:Entity) RETURN n.type AS type, count(*) AS cnt LIMIT 3'],
    ['aggregate_by_type_with', 'MATCH (n:Entity) WITH n.type AS type RETURN type, count(*) AS cnt'],
    ['aggregate_by_type_top_k', 'MATCH (n:Entity) RETURN n.type AS type, count(*) AS cnt ORDER BY cnt DESC LIMIT 3'],
    ['count_all', 'MATCH (n:Entity) RETURN count(*) AS cnt'],
    [
      'scan_filter_top_k',
      'MATCH (n:Entity) WHERE n.claim_count > 5 RETURN n.name AS name, n.claim_count AS c ORDER BY c DESC, name LIMIT 10',
    ],
  ].map(([name, cypher]) => ({ name: name!, cypher: cypher!, kuzu: cypher!, runs: AGG_RUNS })),
  {
    name: 'var_length_1_to_3',
    cypher: 'MATCH (a:Entity {id: $id})-[*1..3]->(b) RETURN count(b) AS n',
    kuzu: 'MATCH (a:Entity {id: $id})-[:R*1..3]->(b:Entity) RETURN count(b) AS n',
    runs: RUNS,
  },
];

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (x: number) => Math.round(x * 1000) / 1000;

async function time(runs: number, ids: string[], f: (id: string) => Promise<unknown>): Promise<[number, number]> {
  for (const id of ids.slice(0, Math.min(20, runs))) await f(id);
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const id = ids[i % ids.length]!;
    const a = performance.now();
    await f(id);
    t.push(performance.now() - a);
  }
  t.sort((x, y) => x - y);
  return [ms(pct(t, 50)), ms(pct(t, 99))];
}

// Kùzu is loaded at run time and typed loosely: it is a baseline, not a dependency.
function loadKuzu(): any {
  const require = createRequire(import.meta.url);
  try {
    return require(process.env.KUZU_MODULE ?? 'kuzu');
  } catch {
    return undefined;
  }
}

const csv = (v: unknown) => (typeof v === 'string' ? `"${v.replace(/"/g, '""')}"` : String(v));

async function loadIntoKuzu(kuzu: any, db: KbDB, dir: string) {
  const all = { timeout_ms: 600_000, max_rows: 100_000_000 };
  const nodes = await db.rawQuery('MATCH (n) RETURN n.id, n.name, n.type, n.claim_count', {}, all);
  const rels = await db.rawQuery(
    'MATCH (a)-[r]->(b) RETURN a.id, b.id, r.predicate, r.confidence, r.source_count',
    {},
    all,
  );
  writeFileSync(join(dir, 'nodes.csv'), nodes.rows.map((r) => r.map(csv).join(',')).join('\n'));
  writeFileSync(join(dir, 'rels.csv'), rels.rows.map((r) => r.map(csv).join(',')).join('\n'));
  const kdb = new kuzu.Database(join(dir, 'kuzu.db'));
  const conn = new kuzu.Connection(kdb);
  await conn.query(
    'CREATE NODE TABLE Entity(id STRING, name STRING, type STRING, claim_count INT64, PRIMARY KEY (id))',
  );
  await conn.query(
    'CREATE REL TABLE R(FROM Entity TO Entity, predicate STRING, confidence DOUBLE, source_count INT64)',
  );
  const t0 = performance.now();
  await conn.query(`COPY Entity FROM '${join(dir, 'nodes.csv')}' (HEADER=false)`);
  await conn.query(`COPY R FROM '${join(dir, 'rels.csv')}' (HEADER=false)`);
  return { conn, loadMs: Math.round(performance.now() - t0), nodes: nodes.rows.length, rels: rels.rows.length };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'kb-cypher-bench-'));
  try {
    const db = await open(join(dir, 'bench.kb'));
    const i0 = performance.now();
    for (const b of claimBatches(N, 10_000)) await db.ingestBatch(b);
    const ingestMs = Math.round(performance.now() - i0);
    const ids: string[] = [];
    for (const name of queryNames(N, Math.max(RUNS, 50))) {
      const id = await db.resolve(name);
      if (id) ids.push(id);
    }
    const ours: Record<string, [number, number]> = {};
    for (const s of SHAPES) ours[s.name] = await time(s.runs, ids, (id) => db.rawQuery(s.cypher, { id }));

    const kuzu = loadKuzu();
    const results: Record<string, unknown> = {};
    let baseline: Record<string, unknown> = { tool: 'kuzu', status: 'missing (npm install --no-save kuzu)' };
    let theirs: Record<string, [number, number]> | undefined;
    if (kuzu) {
      const k = await loadIntoKuzu(kuzu, db, dir);
      theirs = {};
      for (const s of SHAPES) {
        const ps = await k.conn.prepare(s.kuzu);
        theirs[s.name] = await time(s.runs, ids, async (id) => {
          const r = await k.conn.execute(ps, s.kuzu.includes('$id') ? { id } : {});
          return r.getAll();
        });
      }
      baseline = { tool: 'kuzu', version: kuzu.VERSION ?? 'unknown', load_ms: k.loadMs, nodes: k.nodes, rels: k.rels };
    }
    for (const s of SHAPES) {
      const [p50, p99] = ours[s.name]!;
      const entry: Record<string, unknown> = { p50_ms: p50, p99_ms: p99 };
      const t = theirs?.[s.name];
      if (t) {
        entry.kuzu_p50_ms = t[0];
        entry.kuzu_p99_ms = t[1];
        entry.ratio_p50 = Math.round((p50 / t[0]) * 100) / 100;
      }
      results[s.name] = entry;
    }
    await db.close();
    console.log(
      JSON.stringify({ benchmark: 'cypher', claims: N, ingest_ms: ingestMs, queries: results, baseline }, null, 2),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
