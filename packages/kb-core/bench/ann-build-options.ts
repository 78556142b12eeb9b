// Profiling aid for the catch-up's HNSW build (issue 41, point 2; not a benchmark of record), after
// search-ann.ts: the workload's fact texts embedded by the local embedder once it has learnt them all, then
// inserted into usearch under each setting named on the command line, in one process. Per setting: CPU per insert
// (process.cpuUsage: every thread of this process, other jobs on the machine do not count), wall per insert, and
// for each number of candidates asked of the index: CPU per search and recall@10 / recall@100 against an exact
// f32 scan over 300 queries, of the index's own order and (`+rr`) after re-ranking the candidates by their exact
// f32 inner product (what an index holding coarser vectors than the ones it was given would need).
// Usage: nice -n 10 node --conditions=evident-source --import tsx bench/ann-build-options.ts [claims] [setting...]
// A setting: scalar/connectivity/expansion_add/batch/threads[/rr], e.g. f16/16/64/32/1 (today's) or i8/16/64/32/1/rr.
import { loadavg } from 'node:os';
import usearch, { type BatchMatches, MetricKind, type ScalarKind } from 'usearch';
import { annCorpus } from './ann-corpus.js';

const claims = Number(process.argv[2] ?? 50000);
const settings = process.argv.slice(3);
const { dim, n, all, Q, queries } = annCorpus(claims);
const exactK = 100;
const exact = usearch.exactSearch(all, queries, dim, exactK, MetricKind.IP, 1) as BatchMatches;
const truth = (q: number, k: number) => new Set(Array.from(exact.keys.subarray(q * exactK, q * exactK + k), Number));
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const maxAbs = Float32Array.from({ length: n }, (_, i) =>
  all.subarray(i * dim, (i + 1) * dim).reduce((m, x) => Math.max(m, Math.abs(x)), 0),
).sort();
const pct = (p: number) => maxAbs[Math.min(n - 1, Math.floor(p * n))]!.toFixed(3);
console.log(
  `${claims} claims: ${n} vectors of ${dim}; largest |value| per vector: median ${pct(0.5)}, 99.9% ${pct(0.999)}, max ${pct(1)}; load ${load()}`,
);
/** `i8g`: our own i8 rows, one scale for all (inner products keep their order), rounded; else usearch's cast. */
const GLOBAL = 127 / 0.5;
const toI8 = (rows: Float32Array) => Int8Array.from(rows, (x) => Math.max(-127, Math.min(127, Math.round(x * GLOBAL))));

const ASKS = [100, 200, 400];
const dot = (q: number, key: number) => {
  let s = 0;
  for (let d = 0; d < dim; d++) s += queries[q * dim + d]! * all[key * dim + d]!;
  return s;
};
for (const s of settings) {
  const [scalar, conn, ea, batch, threads, rr] = s.split('/');
  const ix = new usearch.Index({
    metric: MetricKind.IP,
    dimensions: dim,
    quantization: (scalar === 'i8g' ? 'i8' : scalar) as ScalarKind,
    connectivity: Number(conn),
    expansion_add: Number(ea),
    expansion_search: 128,
    multi: false,
  });
  const B = Number(batch);
  const rows = scalar === 'i8g' ? toI8(all) : all;
  const qrows = scalar === 'i8g' ? toI8(queries) : queries;
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  for (let i = 0; i < n; i += B) {
    const m = Math.min(B, n - i);
    const keys = new BigUint64Array(m);
    for (let j = 0; j < m; j++) keys[j] = BigInt(i + j);
    ix.add(keys, rows.subarray(i * dim, (i + m) * dim), Number(threads));
  }
  const wall = performance.now() - w0;
  const cpu = process.cpuUsage(c0);
  const parts: string[] = [];
  for (const ask of ASKS) {
    const hits = { 10: 0, 100: 0 };
    const s0 = process.cpuUsage();
    for (let q = 0; q < Q; q++) {
      const r = ix.search(qrows.subarray(q * dim, (q + 1) * dim), ask, 1);
      let got = Array.from(r.keys, Number);
      if (rr === 'rr')
        got = got
          .map((k) => [k, dot(q, k)] as const)
          .sort((a, b) => b[1] - a[1])
          .map(([k]) => k);
      for (const k of [10, 100] as const) {
        const want = truth(q, k);
        for (const g of got.slice(0, k)) if (want.has(g)) hits[k]++;
      }
    }
    const sc = process.cpuUsage(s0);
    parts.push(
      `ask ${ask}: ${((sc.user + sc.system) / Q).toFixed(0)} us, r@10 ${(hits[10] / (Q * 10)).toFixed(3)}, r@100 ${(hits[100] / (Q * 100)).toFixed(3)}`,
    );
  }
  console.log(
    `${s}: insert ${((cpu.user + cpu.system) / n).toFixed(1)} us cpu, ${((wall * 1000) / n).toFixed(1)} us wall; ${parts.join('; ')} (load ${load()})`,
  );
}
