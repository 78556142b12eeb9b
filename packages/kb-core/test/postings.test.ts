// BM25's posting lists as flat arrays (src/search/postings.ts) against a plain model (a map per term): the same
// documents in order, counts and bounds after random appends, insertions before later documents, repeats,
// lists growing from shared ranges into chunks of their own, and an exported state imported and grown again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lowerBound, PostingStore } from '../src/search/postings.js';

/** mulberry32 (seeded, so a failure can be replayed). */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Model {
  tf: Map<number, number>;
  maxTf: number;
  minLen: number;
}

function addTo(m: Model, doc: number, tf: number, len: number): void {
  const v = Math.min(0xffff, (m.tf.get(doc) ?? 0) + tf);
  m.tf.set(doc, v);
  m.maxTf = Math.max(m.maxTf, v);
  m.minLen = Math.min(m.minLen, len);
}

function check(store: PostingStore, models: Model[]): void {
  assert.equal(store.size, models.length);
  models.forEach((m, t) => {
    const l = store.list(t);
    const want = [...m.tf.entries()].sort((a, b) => a[0] - b[0]);
    assert.equal(store.length(t), want.length, `term ${t}`);
    assert.deepEqual(
      [...l.docs.subarray(l.start, l.end)],
      want.map(([d]) => d),
      `term ${t} docs`,
    );
    assert.deepEqual(
      [...l.tfs.subarray(l.start, l.end)],
      want.map(([, n]) => n),
      `term ${t} counts`,
    );
    assert.equal(l.maxTf, m.maxTf);
    assert.equal(l.minLen, m.minLen);
  });
}

/** Random adds: mostly the next document, some to older ones, a few terms common enough for own chunks. */
function feed(store: PostingStore, models: Model[], r: () => number, from: number, docs: number): void {
  for (let d = from; d < from + docs; d++) {
    const words = 1 + Math.floor(r() * 5);
    for (let w = 0; w < words; w++) {
      const common = r() < 0.3;
      // A new term one time in ten.
      const t = common ? Math.floor(r() * 3) : r() < 0.1 ? models.length : Math.floor(r() * models.length);
      while (t >= models.length) {
        assert.equal(store.addTerm(), models.length);
        models.push({ tf: new Map(), maxTf: 0, minLen: Number.POSITIVE_INFINITY });
      }
      const doc = r() < 0.05 ? Math.floor(r() * (d + 1)) : d;
      const tf = 1 + Math.floor(r() * 3);
      const len = 1 + Math.floor(r() * 40);
      store.add(t, doc, tf, len);
      addTo(models[t]!, doc, tf, len);
    }
  }
}

describe('BM25 posting lists', () => {
  it('hold what a map per term holds, through growth, insertions, export and import', () => {
    for (let seed = 1; seed <= 4; seed++) {
      const r = rng(seed);
      const store = new PostingStore(8);
      const models: Model[] = [];
      feed(store, models, r, 0, 3000);
      check(store, models);
      // The common terms outgrew the shared ranges.
      assert.ok(store.length(0) > 64);
      const again = PostingStore.fromArrays(store.exportArrays());
      check(again, models);
      feed(again, models, r, 3000, 1500);
      check(again, models);
      assert.deepEqual(PostingStore.fromArrays(again.exportArrays()).exportArrays(), again.exportArrays());
    }
  });

  it('a count saturates at 65,535', () => {
    const store = new PostingStore();
    const t = store.addTerm();
    store.add(t, 3, 0xfff0, 5);
    store.add(t, 3, 0x20, 4);
    const l = store.list(t);
    assert.equal(l.tfs[l.start], 0xffff);
    assert.equal(l.maxTf, 0xffff);
    assert.equal(l.minLen, 4);
  });

  it('refuses a state whose arrays do not fit together', () => {
    const st = new PostingStore();
    st.add(st.addTerm(), 1, 1, 1);
    const good = st.exportArrays();
    assert.throws(
      () => PostingStore.fromArrays({ ...good, docs: new Int32Array(2), tfs: new Uint16Array(2) }),
      RangeError,
    );
    assert.throws(() => PostingStore.fromArrays({ ...good, max_tf: new Int32Array(0) }), RangeError);
  });

  it('lowerBound finds the first position at or past a document within a range', () => {
    const docs = Int32Array.from([9, 1, 3, 3, 8, 20, 21, 0]);
    assert.equal(lowerBound(docs, 3, 1, 7), 2);
    assert.equal(lowerBound(docs, 4, 1, 7), 4);
    assert.equal(lowerBound(docs, 21, 3, 7), 6);
    assert.equal(lowerBound(docs, 22, 1, 7), 7);
    assert.equal(lowerBound(docs, 0, 1, 7), 1);
  });
});
