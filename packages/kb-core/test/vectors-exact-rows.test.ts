// The vector set's i8 index and its exact rows (src/embeddings/vectors.ts, exact-rows.ts): candidates are ranked
// by exact similarity, not by i8's coarse inner products; an f16 index saved by earlier code still loads and
// answers; an i8 index saved without its rows is refused (the caller rebuilds).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import usearch from 'usearch';
import { ExactRows } from '../src/embeddings/exact-rows.js';
import { VectorSet } from '../src/embeddings/vectors.js';
import { tempDir } from '@evident/testkit';

const DIM = 32;
function unit(v: Float32Array): Float32Array {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}
/** Axis a with a pull towards axis b. */
function vec(a: number, b: number, pull: number): Float32Array {
  const v = new Float32Array(DIM);
  v[a] = 1;
  v[b] = v[b]! + pull;
  return unit(v);
}
function rows(vs: Float32Array[]): Float32Array {
  const out = new Float32Array(vs.length * DIM);
  for (const [i, v] of vs.entries()) out.set(v, i * DIM);
  return out;
}
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('VectorSet: i8 index, exact rows', () => {
  it('ranks near-ties by their exact similarity, which it reports as the cosine', () => {
    // Eight vectors whose values differ by less than i8's step (1/127 of the vector's length, about 0.0088 of
    // the pull here), closer to the query as the pull grows: cosines 5e-4 apart.
    const q = vec(0, 1, 1);
    const near = Array.from({ length: 8 }, (_, i) => vec(0, 1, 0.5 + 0.002 * i));
    const s = new VectorSet(DIM);
    // Keys in the reverse of the exact order, so that an order by key or by insertion would be wrong.
    s.setMany(
      near.map((_, i) => 7 - i),
      rows(near),
    );
    const got = s.nearest(q, 8);
    assert.deepEqual(
      got.map((h) => h.key),
      [0, 1, 2, 3, 4, 5, 6, 7],
    );
    for (const h of got) assert.ok(Math.abs(h.similarity - dot(q, near[7 - h.key]!)) < 1e-4, `${h.similarity}`);
  });

  it('loads an f16 index saved by earlier code, takes vectors beside it, and saves and loads the mix', () => {
    const d = tempDir('evident-vectors-');
    try {
      const old = new usearch.Index({
        metric: usearch.MetricKind.IP,
        dimensions: DIM,
        quantization: usearch.ScalarKind.F16,
        connectivity: 16,
        expansion_add: 64,
        expansion_search: 128,
        multi: false,
      });
      const vs = [vec(0, 1, 0.1), vec(2, 3, 0.1), vec(4, 5, 0.1)];
      old.add(BigUint64Array.from([0n, 1n, 2n]), rows(vs));
      const p = join(d.path, 'old.usearch');
      old.save(p);

      const s = new VectorSet(DIM);
      s.load(p, Int32Array.from([0, 1, 2]));
      const hit = s.nearest(vs[1]!, 1)[0]!;
      assert.equal(hit.key, 1);
      assert.ok(Math.abs(hit.similarity - 1) < 1e-3, `${hit.similarity}`);
      s.setMany([3, 0], rows([vec(6, 7, 0.1), vec(8, 9, 0.1)]));
      assert.equal(s.nearest(vec(6, 7, 0.1), 1)[0]!.key, 3);
      assert.equal(s.nearest(vec(8, 9, 0.1), 1)[0]!.key, 0);

      const p2 = join(d.path, 'mixed.usearch');
      s.save(p2);
      const t = new VectorSet(DIM);
      t.load(p2, s.keyList());
      for (const [v, k] of [
        [vec(2, 3, 0.1), 1],
        [vec(6, 7, 0.1), 3],
        [vec(8, 9, 0.1), 0],
      ] as const) {
        const h = t.nearest(v, 1)[0]!;
        assert.equal(h.key, k);
        assert.ok(Math.abs(h.similarity - 1) < 1e-3, `${k}: ${h.similarity}`);
      }
    } finally {
      d.cleanup();
    }
  });

  it('saves and loads exact rows of dense and scattered keys alike', () => {
    const d = tempDir('evident-vectors-');
    try {
      // A dense run across a chunk's end (4,096 keys a chunk), a gap, scattered keys, and a run in a chunk's middle.
      const keys = Int32Array.from([
        ...Array.from({ length: 5000 }, (_, i) => i),
        9000,
        9001,
        12_300,
        ...Array.from({ length: 50 }, (_, i) => 20_000 + i),
      ]);
      const a = new ExactRows(DIM);
      const vs = Array.from(keys, (k) => vec(k % DIM, (k * 7 + 3) % DIM, (k % 13) / 10));
      a.setMany(Array.from(keys), rows(vs));
      const p = join(d.path, 'r.rows');
      a.save(p, keys);
      const b = new ExactRows(DIM);
      b.load(p, keys);
      const q = vec(3, 5, 0.3);
      for (const [i, k] of keys.entries()) {
        assert.ok(b.has(k));
        assert.equal(b.similarity(q, k), a.similarity(q, k));
        assert.ok(Math.abs(b.similarity(q, k) - dot(q, vs[i]!)) < 1e-4);
      }
      assert.ok(!b.has(5000) && !b.has(9002));
    } finally {
      d.cleanup();
    }
  });

  it('refuses an i8 index whose exact rows are missing', () => {
    const d = tempDir('evident-vectors-');
    try {
      const s = new VectorSet(DIM);
      s.setMany([0, 1], rows([vec(0, 1, 0.1), vec(2, 3, 0.1)]));
      const p = join(d.path, 'i8.usearch');
      s.save(p);
      rmSync(`${p}.rows`);
      rmSync(`${p}.rowkeys`);
      assert.throws(() => new VectorSet(DIM).load(p, s.keyList()), /i8 index without the exact rows/);
    } finally {
      d.cleanup();
    }
  });
});
