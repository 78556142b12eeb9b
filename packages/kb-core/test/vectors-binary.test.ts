// The local lane's vector set (src/embeddings/binary-set.ts): binary codes scanned flat, candidates ranked by the
// exact rows. Recall against an exact scan, keys replaced and deleted, save and load, damaged files refused, an
// i8 HNSW save's exact rows read, and the committed WebAssembly bytes being hamming.wat's.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '@evident/testkit';
import { seededRandom } from './vectors-fixtures.js';
import { BinaryVectorSet } from '../src/embeddings/binary-set.js';
import { HAMMING_WASM } from '../src/embeddings/hamming-wasm.js';
import { VectorSet } from '../src/embeddings/vectors.js';

const DIM = 256;

const random = seededRandom;

/** `n` unit vectors around `clusters` random centres (neighbours that mean something, as embedded texts have). */
function clustered(n: number, clusters: number, seed: number): Float32Array {
  const rnd = random(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
  const centres = Float32Array.from({ length: clusters * DIM }, gauss);
  const out = new Float32Array(n * DIM);
  for (let i = 0; i < n; i++) {
    const c = Math.floor(rnd() * clusters);
    let norm = 0;
    for (let d = 0; d < DIM; d++) {
      const x = centres[c * DIM + d]! + 0.8 * gauss();
      out[i * DIM + d] = x;
      norm += x * x;
    }
    for (let d = 0; d < DIM; d++) out[i * DIM + d]! /= Math.sqrt(norm);
  }
  return out;
}

function exactTop(all: Float32Array, q: Float32Array, k: number, skip = new Set<number>()): number[] {
  const scores: [number, number][] = [];
  for (let i = 0; i < all.length / DIM; i++) {
    if (skip.has(i)) continue;
    let s = 0;
    for (let d = 0; d < DIM; d++) s += all[i * DIM + d]! * q[d]!;
    scores.push([i, s]);
  }
  return scores
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([i]) => i);
}

const keysTo = (n: number) => Array.from({ length: n }, (_, i) => i);
const row = (all: Float32Array, i: number) => all.slice(i * DIM, (i + 1) * DIM);

describe('BinaryVectorSet', () => {
  // 20,000 vectors: more than the scan's floor of candidates (10,000), so the codes choose what is re-ranked.
  const N = 20000;
  const all = clustered(N, 400, 7);
  const set = new BinaryVectorSet(DIM);
  set.setMany(keysTo(N), all);
  const queries = clustered(50, 400, 7 ** 5);

  it('finds the exact scan’s nearest vectors, with their cosine', () => {
    let hits10 = 0;
    let hits100 = 0;
    for (let q = 0; q < 50; q++) {
      const v = row(queries, q);
      const got = set.nearest(v, 100);
      const want = exactTop(all, v, 100);
      hits10 += got.slice(0, 10).filter((h) => want.slice(0, 10).includes(h.key)).length;
      hits100 += got.filter((h) => want.includes(h.key)).length;
      const top = got[0]!;
      let s = 0;
      for (let d = 0; d < DIM; d++) s += all[top.key * DIM + d]! * v[d]!;
      assert.ok(Math.abs(top.similarity - s) < 1e-3, `${top.similarity} vs ${s}`);
    }
    assert.ok(hits10 / 500 >= 0.97, `recall@10 ${hits10 / 500}`);
    assert.ok(hits100 / 5000 >= 0.9, `recall@100 ${hits100 / 5000}`);
  });

  it('answers for a replaced key by its new vector, and no more for a deleted one', () => {
    const s = new BinaryVectorSet(DIM);
    s.setMany(keysTo(3000), all.subarray(0, 3000 * DIM));
    s.set(5, row(all, 4000));
    assert.equal(s.nearest(row(all, 4000), 1)[0]!.key, 5);
    assert.notEqual(s.nearest(row(all, 5), 1)[0]!.key, 5);
    s.delete(7);
    assert.equal(s.size, 2999);
    assert.equal(s.has(7), false);
    assert.ok(!s.nearest(row(all, 7), 50).some((h) => h.key === 7));
    assert.deepEqual(
      s.nearest(row(all, 7), 10).map((h) => h.key),
      exactTop(all.subarray(0, 3000 * DIM), row(all, 7), 10, new Set([5, 7])),
    );
  });

  it('saves and loads: same keys, same answers; a damaged or mismatched file is refused', () => {
    const d = tempDir('evident-binary-');
    try {
      const p = join(d.path, 'facts.codes');
      assert.deepEqual(set.save(p), [p, `${p}.rowkeys`, `${p}.rows`]);
      const back = new BinaryVectorSet(DIM);
      back.load(p, set.keyList());
      assert.equal(back.size, N);
      for (let q = 0; q < 5; q++)
        assert.deepEqual(back.nearest(row(queries, q), 20), set.nearest(row(queries, q), 20), `query ${q}`);

      assert.throws(() => new BinaryVectorSet(DIM).load(p, set.keyList().subarray(1)), /not the codes/);
      assert.throws(() => new BinaryVectorSet(128).load(p, set.keyList()), /not the codes/);
      const bytes = readFileSync(p);
      writeFileSync(p, bytes.subarray(0, bytes.length - 1));
      assert.throws(() => new BinaryVectorSet(DIM).load(p, set.keyList()), /bytes for/);
      // A flipped bit in a checked code (the first key's is always checked).
      const flipped = Buffer.from(bytes);
      flipped[16] = flipped[16]! ^ 1;
      writeFileSync(p, flipped);
      assert.throws(() => new BinaryVectorSet(DIM).load(p, set.keyList()), /is not its row/);
    } finally {
      d.cleanup();
    }
  });

  it('reads the exact rows of an i8 HNSW save (vectors.ts): the same vectors, the same similarities', () => {
    const d = tempDir('evident-binary-');
    try {
      const hnsw = new VectorSet(DIM);
      hnsw.setMany(keysTo(2000), all.subarray(0, 2000 * DIM));
      const p = join(d.path, 'facts.i8.usearch');
      hnsw.save(p);
      const codes = new BinaryVectorSet(DIM);
      codes.loadFromRows(p, hnsw.keyList());
      assert.equal(codes.size, 2000);
      for (let q = 0; q < 5; q++) {
        // Below the scan's floor of candidates every code is ranked: the exact scan's answer. Similarities come
        // from the same rows as the HNSW set's.
        const got = codes.nearest(row(queries, q), 10);
        assert.deepEqual(
          got.map((h) => h.key),
          exactTop(all.subarray(0, 2000 * DIM), row(queries, q), 10),
        );
        const before = new Map(hnsw.nearest(row(queries, q), 10).map((h) => [h.key, h.similarity]));
        for (const h of got) if (before.has(h.key)) assert.equal(h.similarity, before.get(h.key));
      }
      assert.throws(() => new BinaryVectorSet(DIM).loadFromRows(p, hnsw.keyList().subarray(1)), /other keys/);
    } finally {
      d.cleanup();
    }
  });

  it('runs the bytes assembled from hamming.wat', async () => {
    const wabt = await import('wabt').catch(() => null);
    if (wabt === null) return;
    const w = await wabt.default();
    const wat = readFileSync(new URL('../src/embeddings/hamming.wat', import.meta.url), 'utf8');
    const m = w.parseWat('hamming.wat', wat, { simd: true });
    const bytes = Buffer.from(m.toBinary({}).buffer).toString('base64');
    m.destroy();
    assert.equal(HAMMING_WASM, bytes, 'hamming-wasm.ts is out of date: assemble hamming.wat again');
  });
});
