// The ANN index's set (src/embeddings/vectors.ts): saved, then loaded by mapping the file; vectors added or
// replaced after a load sit beside the mapped base, are searched with it, and are saved and loaded again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { VectorSet } from '../src/embeddings/vectors.js';
import { tempDir } from '@evident/testkit';

const DIM = 16;
/** A unit vector near axis `a` (a small pull towards axis b tells near ones apart). */
function vec(a: number, b = (a + 1) % DIM, pull = 0.1): Float32Array {
  const v = new Float32Array(DIM);
  v[a % DIM] = 1;
  v[b] = pull;
  return v;
}
function rows(vs: Float32Array[]): Float32Array {
  const out = new Float32Array(vs.length * DIM);
  for (const [i, v] of vs.entries()) out.set(v, i * DIM);
  return out;
}
const nearestKey = (s: VectorSet, q: Float32Array) => s.nearest(q, 1)[0]?.key;

describe('VectorSet', () => {
  it('a loaded set keeps what was saved, takes new and replaced vectors, and saves and loads them again', () => {
    const d = tempDir('evident-vectors-');
    try {
      const a = new VectorSet(DIM);
      a.setMany([0, 1, 2, 3], rows([vec(0), vec(1), vec(2), vec(3)]));
      const p1 = join(d.path, 'one.usearch');
      // The index, and the exact rows its candidates are ranked by (exact-rows.ts).
      assert.deepEqual(a.save(p1), [p1, `${p1}.rowkeys`, `${p1}.rows`]);

      const b = new VectorSet(DIM);
      b.load(p1, a.keyList());
      assert.equal(b.size, 4);
      assert.equal(nearestKey(b, vec(2)), 2);
      // New keys, and key 1 moved next to axis 9: the base's old vector for 1 must no longer answer.
      b.setMany([4, 1], rows([vec(7), vec(9)]));
      assert.equal(b.size, 5);
      assert.equal(nearestKey(b, vec(7)), 4);
      assert.equal(nearestKey(b, vec(9)), 1);
      assert.notEqual(nearestKey(b, vec(1)), 1);
      const all = b.nearest(vec(0), 10).map((h) => h.key);
      assert.deepEqual([...all].sort(), [0, 1, 2, 3, 4], 'each key once');
      // Replaced again: now in the writable part.
      b.setMany([1], rows([vec(11)]));
      assert.equal(nearestKey(b, vec(11)), 1);

      const p2 = join(d.path, 'two.usearch');
      const files = b.save(p2);
      assert.ok(files.includes(`${p2}.delta`) && files.includes(`${p2}.shadowed`), files.join(' '));
      const c = new VectorSet(DIM);
      c.load(p2, b.keyList());
      assert.equal(c.size, 5);
      for (const [q, k] of [
        [vec(0), 0],
        [vec(11), 1],
        [vec(2), 2],
        [vec(7), 4],
      ] as const)
        assert.equal(nearestKey(c, q), k);
      assert.ok(existsSync(p2));
      // The mapped file replaced under the set (another handle's close): the mapping is written out instead.
      const p3 = join(d.path, 'three.usearch');
      const other = new VectorSet(DIM);
      other.setMany([0], rows([vec(5)]));
      rmSync(p2);
      other.save(p2);
      c.save(p3);
      const e = new VectorSet(DIM);
      e.load(p3, c.keyList());
      assert.equal(nearestKey(e, vec(2)), 2);
      assert.equal(nearestKey(e, vec(0)), 0);
      // Keys that do not fit the files are refused.
      assert.throws(() => new VectorSet(DIM).load(p3, Int32Array.from([0, 1])), /holds 5 vectors, 2 keys/);
    } finally {
      d.cleanup();
    }
  });

  it('release() empties a set, written or mapped, which still takes vectors afterwards; the saved file is untouched', () => {
    const d = tempDir('evident-vectors-');
    try {
      const a = new VectorSet(DIM);
      a.setMany([0, 1, 2], rows([vec(0), vec(1), vec(2)]));
      const p = join(d.path, 'r.usearch');
      a.save(p);
      const b = new VectorSet(DIM);
      b.load(p, a.keyList());
      b.setMany([3], rows([vec(3)]));
      for (const s of [a, b]) {
        s.release();
        assert.equal(s.size, 0);
        assert.deepEqual(s.nearest(vec(1), 3), []);
        s.setMany([7], rows([vec(5)]));
        assert.equal(nearestKey(s, vec(5)), 7);
      }
      const c = new VectorSet(DIM);
      c.load(p, Int32Array.from([0, 1, 2]));
      assert.equal(nearestKey(c, vec(2)), 2);
    } finally {
      d.cleanup();
    }
  });
});
