// Profiling aid for the ANN index (not a benchmark of record): the workload's fact texts embedded by the local
// embedder, then inserted into usearch under several settings; CPU time per insert (process.cpuUsage, so other
// jobs on the machine do not count) and recall@100 of the index's search against an exact scan, on 200 queries.
// Usage: node --conditions=evident-source --import tsx bench/profile-hnsw.ts [facts=50000]
import usearch, { type BatchMatches, ScalarKind } from 'usearch';
import { embeddedFactTexts } from './ann-corpus.js';

const claims = Number(process.argv[2] ?? 50000);
const { texts, emb, dim, all } = embeddedFactTexts(claims);
const queries = new Float32Array(200 * dim);
for (let i = 0; i < 200; i++) queries.set(emb.embedText(`E${(i * 7919) % (claims / 10)} inhibits`), i * dim);
const exact = usearch.exactSearch(all, queries, dim, 100, usearch.MetricKind.Cos, 1) as BatchMatches;
console.log(`${texts.length} vectors of ${dim}`);

const configs: [string, number, number, number, ScalarKind, number][] = [
  // name, connectivity, expansion_add, expansion_search, quantization, batch
  ['c16 ea128 es64 f32 one-by-one (before)', 16, 128, 64, ScalarKind.F32, 1],
  ['c16 ea40 es64 i8 batch16', 16, 40, 64, ScalarKind.I8, 16],
  ['c16 ea64 es128 i8 batch16', 16, 64, 128, ScalarKind.I8, 16],
  ['c16 ea64 es128 f16 batch16', 16, 64, 128, ScalarKind.F16, 16],
  ['c16 ea64 es128 f32 batch16', 16, 64, 128, ScalarKind.F32, 16],
];
for (const [name, connectivity, expansion_add, expansion_search, quantization, batch] of configs) {
  const ix = new usearch.Index({
    metric: usearch.MetricKind.Cos,
    dimensions: dim,
    quantization,
    connectivity,
    expansion_add,
    expansion_search,
    multi: false,
  });
  const n = texts.length;
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i += batch) {
    const m = Math.min(batch, n - i);
    const keys = new BigUint64Array(m);
    for (let j = 0; j < m; j++) keys[j] = BigInt(i + j);
    ix.add(keys, all.subarray(i * dim, (i + m) * dim), 1);
  }
  const c = process.cpuUsage(c0);
  const s0 = process.cpuUsage();
  let hit = 0;
  for (let q = 0; q < 200; q++) {
    const r = ix.search(queries.subarray(q * dim, (q + 1) * dim), 100, 1);
    const want = new Set(Array.from(exact.keys.subarray(q * 100, (q + 1) * 100), Number));
    for (const k of r.keys) if (want.has(Number(k))) hit++;
  }
  const s = process.cpuUsage(s0);
  console.log(
    `${name}: insert ${((c.user + c.system) / n).toFixed(1)} us cpu, search ${((s.user + s.system) / 200).toFixed(0)} us, recall@100 ${(hit / 20000).toFixed(3)}`,
  );
}
