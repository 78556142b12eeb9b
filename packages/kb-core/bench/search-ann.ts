// Profiling aid for the search stage's ANN index build (issue 41, point 2; not a benchmark of record): the
// workload's fact texts embedded by the local embedder after it has learnt them all (as a catch-up does), then
// inserted into usearch under several settings in one run. Per setting: CPU time per insert (process.cpuUsage,
// every thread of this process, so other jobs on the machine do not count), wall time, CPU per query, and
// recall@10 / recall@100 against an exact scan in f32, over 300 queries of two kinds (entity-and-predicate
// words, and fact texts with one entity swapped). `binary`: the flat scan of binary codes
// (src/embeddings/binary-codes.ts), candidate counts from BINARY_KS (K1/K2,...), BINARY_ROUNDS (rotation rounds,...; BINARY_PLAIN=1: none too).
// Usage: nice -n 10 node --conditions=evident-source --import tsx bench/search-ann.ts [claims=50000] [names]
import usearch, { type BatchMatches, MetricKind, ScalarKind } from 'usearch';
import { CodeTable, SignCoder } from '../src/embeddings/binary-codes.js';
import { annCorpus } from './ann-corpus.js';

const claims = Number(process.argv[2] ?? 50000);
const only = process.argv[3]?.split(',');
const { dim, n, all, Q, queries } = annCorpus(claims);

/** Each row scaled so its largest |value| is 127, rounded: cosine is blind to a row's scale. */
function toI8(rows: Float32Array): Int8Array {
  const out = new Int8Array(rows.length);
  for (let r = 0; r < rows.length; r += dim) {
    let m = 0;
    for (let i = r; i < r + dim; i++) m = Math.max(m, Math.abs(rows[i]!));
    if (m === 0) continue;
    const s = 127 / m;
    for (let i = r; i < r + dim; i++) out[i] = Math.round(rows[i]! * s);
  }
  return out;
}

// Exact answers: an f32 scan by inner product (the vectors are unit length).
const exactK = 100;
const exact = usearch.exactSearch(all, queries, dim, exactK, MetricKind.IP, 1) as BatchMatches;
const truth = (q: number, k: number) => new Set(Array.from(exact.keys.subarray(q * exactK, q * exactK + k), Number));
console.log(
  `${claims} claims: ${n} vectors of ${dim}; load ${(await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);

interface Config {
  name: string;
  metric: MetricKind;
  quantization: ScalarKind;
  connectivity: number;
  ea: number;
  batch: number;
  threads: number;
  /** Our own i8 rows (max-abs scaling) instead of usearch's cast. */
  ownI8?: boolean;
}
const base = { metric: MetricKind.IP, quantization: ScalarKind.F16, connectivity: 16, ea: 64, batch: 32, threads: 1 };
const configs: Config[] = [
  { name: 'ip-f16 c16 ea64 (now)', ...base },
  { name: 'cos-i8 own c16 ea64', ...base, metric: MetricKind.Cos, quantization: ScalarKind.I8, ownI8: true },
  { name: 'ip-f16 c16 ea48', ...base, ea: 48 },
  { name: 'ip-f16 c16 ea32', ...base, ea: 32 },
  { name: 'cos-i8 own c16 ea48', ...base, metric: MetricKind.Cos, quantization: ScalarKind.I8, ownI8: true, ea: 48 },
  { name: 'ip-f16 c16 ea64 (now, again)', ...base },
  { name: 'cos-i8 own c16 ea64 (again)', ...base, metric: MetricKind.Cos, quantization: ScalarKind.I8, ownI8: true },
  { name: 'ip-f16 c16 ea64 2 threads', ...base, threads: 2 },
  {
    name: 'cos-i8 own c16 ea64 2 threads',
    ...base,
    metric: MetricKind.Cos,
    quantization: ScalarKind.I8,
    ownI8: true,
    threads: 2,
  },
];
/** Candidates asked of the index for 100 wanted (usearch searches with effort max(expansion_search, asked)). */
const ASKS = [100, 200, 400];

for (const c of configs) {
  if (only && !only.some((o) => c.name.includes(o))) continue;
  const ix = new usearch.Index({
    metric: c.metric,
    dimensions: dim,
    quantization: c.quantization,
    connectivity: c.connectivity,
    expansion_add: c.ea,
    expansion_search: 128,
    multi: false,
  });
  const rows = c.ownI8 ? toI8(all) : all;
  const qrows = c.ownI8 ? toI8(queries) : queries;
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  for (let i = 0; i < n; i += c.batch) {
    const m = Math.min(c.batch, n - i);
    const keys = new BigUint64Array(m);
    for (let j = 0; j < m; j++) keys[j] = BigInt(i + j);
    ix.add(keys, rows.subarray(i * dim, (i + m) * dim), c.threads);
  }
  const wall = performance.now() - w0;
  const cpu = process.cpuUsage(c0);
  const parts: string[] = [];
  for (const ask of ASKS) {
    const hits = { 10: 0, 100: 0 };
    const s0 = process.cpuUsage();
    for (let q = 0; q < Q; q++) {
      const r = ix.search(qrows.subarray(q * dim, (q + 1) * dim), ask, 1);
      const got = Array.from(r.keys, Number);
      for (const k of [10, 100] as const) {
        const want = truth(q, k);
        for (const g of got.slice(0, k)) if (want.has(g)) hits[k]++;
      }
    }
    const s = process.cpuUsage(s0);
    parts.push(
      `ask ${ask}: ${((s.user + s.system) / Q).toFixed(0)} us, r@10 ${(hits[10] / (Q * 10)).toFixed(3)}, r@100 ${(hits[100] / (Q * 100)).toFixed(3)}`,
    );
  }
  console.log(
    `${c.name}: insert ${((cpu.user + cpu.system) / n).toFixed(1)} us cpu (${((wall * 1000) / n).toFixed(1)} us wall); ${parts.join('; ')}`,
  );
}

// An inverted-file index (IVF-flat: Jégou, Douze & Schmid 2011's coarse quantizer without the product codes) as
// the structural alternative to HNSW: k-means centroids (sqrt(n) of them, 8 Lloyd rounds on a sample), each
// vector appended to its nearest centroid's list in f32, a query scans the lists of its `nprobe` nearest
// centroids exactly. Assignment and scans use usearch's exact (SIMD) search. Its cost per vector is one
// nearest-centroid search; its memory is the f32 rows (1 KiB a vector at 256 dimensions).
if (!only || only.some((o) => 'ivf'.includes(o))) {
  const C = Math.max(16, Math.round(Math.sqrt(n)));
  const c0 = process.cpuUsage();
  const sample = Math.min(n, 20 * C);
  const cent = all.slice(0, C * dim);
  const stride = Math.floor(n / sample);
  const train = new Float32Array(sample * dim);
  for (let i = 0; i < sample; i++) train.set(all.subarray(i * stride * dim, (i * stride + 1) * dim), i * dim);
  for (let round = 0; round < 8; round++) {
    const a = usearch.exactSearch(cent, train, dim, 1, MetricKind.IP, 1) as BatchMatches;
    const sum = new Float32Array(C * dim);
    for (let i = 0; i < sample; i++) {
      const c = Number(a.keys[i]);
      for (let d = 0; d < dim; d++) sum[c * dim + d]! += train[i * dim + d]!;
    }
    for (let c = 0; c < C; c++) {
      let norm = 0;
      for (let d = 0; d < dim; d++) norm += sum[c * dim + d]! ** 2;
      if (norm === 0) continue;
      const inv = 1 / Math.sqrt(norm);
      for (let d = 0; d < dim; d++) cent[c * dim + d] = sum[c * dim + d]! * inv;
    }
  }
  const trainCpu = process.cpuUsage(c0);
  const a0 = process.cpuUsage();
  const listOf = new Int32Array(n);
  for (let i = 0; i < n; i += 256) {
    const m = Math.min(256, n - i);
    const a = usearch.exactSearch(cent, all.slice(i * dim, (i + m) * dim), dim, 1, MetricKind.IP, 1) as BatchMatches;
    for (let j = 0; j < m; j++) listOf[i + j] = Number(a.keys[j]);
  }
  // Lists as contiguous rows (what an index would append to).
  const sizes = new Int32Array(C);
  for (const l of listOf) sizes[l]!++;
  const lists = Array.from({ length: C }, (_, c) => ({
    rows: new Float32Array(sizes[c]! * dim),
    keys: new Int32Array(sizes[c]!),
    n: 0,
  }));
  for (let i = 0; i < n; i++) {
    const L = lists[listOf[i]!]!;
    L.rows.set(all.subarray(i * dim, (i + 1) * dim), L.n * dim);
    L.keys[L.n++] = i;
  }
  const addCpu = process.cpuUsage(a0);
  const us = (c: NodeJS.CpuUsage) => (c.user + c.system) / n;
  const parts: string[] = [];
  for (const nprobe of [8, 16, 32, 64]) {
    const hits = { 10: 0, 100: 0 };
    const s0 = process.cpuUsage();
    for (let q = 0; q < Q; q++) {
      // A copy: usearch's exactSearch reads a subarray from the start of its buffer.
      const qv = queries.slice(q * dim, (q + 1) * dim);
      const near = usearch.exactSearch(cent, qv, dim, nprobe, MetricKind.IP, 1) as BatchMatches;
      const found: [number, number][] = [];
      for (const c of near.keys) {
        const L = lists[Number(c)]!;
        if (L.n === 0) continue;
        const r = usearch.exactSearch(L.rows, qv, dim, Math.min(100, L.n), MetricKind.IP, 1) as BatchMatches;
        for (let j = 0; j < r.keys.length; j++) found.push([L.keys[Number(r.keys[j])]!, r.distances[j]!]);
      }
      const got = found.sort((x, y) => x[1] - y[1]).map(([k]) => k);
      for (const k of [10, 100] as const) {
        const want = truth(q, k);
        for (const g of got.slice(0, k)) if (want.has(g)) hits[k]++;
      }
    }
    const s = process.cpuUsage(s0);
    parts.push(
      `nprobe ${nprobe}: ${((s.user + s.system) / Q).toFixed(0)} us, r@10 ${(hits[10] / (Q * 10)).toFixed(3)}, r@100 ${(hits[100] / (Q * 100)).toFixed(3)}`,
    );
  }
  console.log(
    `ivf-flat f32 ${C} lists: train ${(us(trainCpu)).toFixed(1)} us + add ${us(addCpu).toFixed(1)} us cpu per vector; ${parts.join('; ')}`,
  );
}

// Binary codes with an exact re-rank (binary-codes.ts): each vector's 256 sign bits, plain or after a random
// rotation; a flat Hamming scan over every code finds K1 candidates, the query's rotated values against their
// signs keep K2 of them (K1 = K2: the Hamming scan alone), ranked by their exact inner product. Build = making
// the codes; a query = its code, the scan, the re-rank. Queries are timed again over the codes tiled to
// 1,000,000 (what a base of a million vectors scans; the candidates there are copies, so only the time counts).
if (!only || only.some((o) => 'binary'.includes(o))) {
  const us = (c: NodeJS.CpuUsage, per: number) => ((c.user + c.system) / per).toFixed(0);
  const KS = (process.env.BINARY_KS ?? '200/200,2000/2000,10000/1000,10000/2000,20000/2000')
    .split(',')
    .map((p) => p.split('/').map(Number) as [number, number]);
  const rerank = (q: number, cand: Int32Array, rows: number) =>
    Array.from(cand, (k) => {
      const at = (k % rows) * dim;
      let s = 0;
      for (let d = 0; d < dim; d++) s += queries[q * dim + d]! * all[at + d]!;
      return [k, s] as const;
    }).sort((a, b) => b[1] - a[1]);
  const rounds = (process.env.BINARY_ROUNDS ?? '3').split(',').map(Number);
  for (const [rotate, r] of [
    ...(process.env.BINARY_PLAIN ? [[false, 0] as const] : []),
    ...rounds.map((x) => [true, x] as const),
  ]) {
    const coder = new SignCoder(dim, rotate, r);
    const table = new CodeTable();
    const c0 = process.cpuUsage();
    for (let i = 0; i < n; i++) coder.encode(all, i * dim, table.slot(i), 0);
    const build = process.cpuUsage(c0);
    const qcode = new Uint8Array(32);
    const big = new CodeTable();
    const tiles = Math.ceil(1_000_000 / n);
    const codes = table.bytes().slice();
    const tiled = new Uint8Array(codes.length * tiles);
    for (let t = 0; t < tiles; t++) tiled.set(codes, t * codes.length);
    big.setBytes(tiled);
    const parts: string[] = [];
    for (const [K1, K2] of KS) {
      const hits = { 10: 0, 100: 0 };
      const s0 = process.cpuUsage();
      for (let q = 0; q < Q; q++) {
        coder.encode(queries, q * dim, qcode, 0);
        const scored = rerank(q, table.nearest(qcode, coder.rotated(queries, q * dim), K1, K2), n);
        for (const k of [10, 100] as const) {
          const want = truth(q, k);
          for (const [g] of scored.slice(0, k)) if (want.has(g)) hits[k]++;
        }
      }
      const s = process.cpuUsage(s0);
      // At a million: the candidates (code, scan, asymmetric scores) and the exact re-rank timed apart.
      let candUs = 0;
      let rerankUs = 0;
      for (let q = 0; q < Q; q++) {
        const b0 = process.cpuUsage();
        coder.encode(queries, q * dim, qcode, 0);
        const cand = big.nearest(qcode, coder.rotated(queries, q * dim), K1, K2);
        const b1 = process.cpuUsage();
        rerank(q, cand, n);
        const b2 = process.cpuUsage(b1);
        candUs += b1.user + b1.system - b0.user - b0.system;
        rerankUs += b2.user + b2.system;
      }
      parts.push(
        `K ${K1}/${K2}: ${us(s, Q)} us (${big.length}: ${(candUs / Q).toFixed(0)} + ${(rerankUs / Q).toFixed(0)} us), r@10 ${(hits[10] / (Q * 10)).toFixed(3)}, r@100 ${(hits[100] / (Q * 100)).toFixed(3)}`,
      );
    }
    console.log(
      `binary ${rotate ? `rotated (${r} rounds)` : 'plain'} + exact: codes ${((build.user + build.system) / n).toFixed(1)} us cpu per vector; ${parts.join('; ')} (load ${(
        await import('node:os')
      )
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')})`,
    );
  }
}
