// The BM25 top-k walk (src/search/bm25-top.ts) against scoring every document and sorting: the same documents
// and scores, in the same order, on random corpora; documents given more words after later ones (a payload on
// an older fact); the filter; and the documented rule for common terms.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Bm25 } from '../src/search/bm25.js';
import { topDocs } from '../src/search/bm25-top.js';
import { TopK } from '../src/search/topk.js';

/** mulberry32 (seeded, so a failure can be replayed). */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A word drawn with a Zipf-like skew over `vocab` words, so some lists are long and most short. */
const word = (r: () => number, vocab: number) => `w${Math.floor(vocab ** r() - 1)}`;

function exact(bm: Bm25, q: string[], k: number, accept: (d: number) => boolean = () => true): [number, number][] {
  const all = bm.scoreDocs(
    q,
    Array.from({ length: bm.docCount }, (_, i) => i),
  );
  return [...all.entries()]
    .filter(([d]) => accept(d))
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, k);
}

function same(got: [number, number][], want: [number, number][]): void {
  assert.deepEqual(
    got.map(([d]) => d),
    want.map(([d]) => d),
  );
  for (let i = 0; i < got.length; i++) assert.ok(Math.abs(got[i]![1] - want[i]![1]) < 1e-9);
}

describe('BM25 top-k', () => {
  it('equals the full sort on random corpora, with and without a filter', () => {
    for (let seed = 1; seed <= 6; seed++) {
      const r = rng(seed);
      const bm = new Bm25();
      const docs = 3000;
      for (let d = 0; d < docs; d++)
        bm.add(
          d,
          Array.from({ length: 3 + Math.floor(r() * 12) }, () => word(r, 400)),
        );
      // More words for older documents, after newer ones exist (postings must stay in document order).
      for (let i = 0; i < 200; i++) bm.add(Math.floor(r() * docs), [word(r, 400), word(r, 400)]);
      for (let i = 0; i < 40; i++) {
        const q = Array.from({ length: 1 + Math.floor(r() * 4) }, () => word(r, 400));
        const k = 1 + Math.floor(r() * 60);
        same(topDocs(bm, q, k), exact(bm, q, k));
        const odd = (d: number) => d % 3 !== 0;
        same(topDocs(bm, q, k, odd), exact(bm, q, k, odd));
      }
    }
  });

  it('a common term adds to what other terms find, and generates candidates only when alone', () => {
    const bm = new Bm25();
    const docs = 50_000;
    for (let d = 0; d < docs; d++) bm.add(d, ['common', d % 1000 === 7 ? 'rare' : `x${d % 50}`]);
    const withRare = topDocs(bm, ['common', 'rare'], 100);
    assert.equal(withRare.length, docs / 1000, 'only the documents holding the rare term');
    assert.deepEqual(withRare, exact(bm, ['common', 'rare'], docs / 1000));
    const alone = topDocs(bm, ['common'], 10);
    assert.deepEqual(alone, exact(bm, ['common'], 10));
  });

  it('the heap keeps the k best, ties to the lower number', () => {
    const t = new TopK(3);
    for (const [d, s] of [
      [5, 1],
      [1, 2],
      [9, 2],
      [3, 1],
      [2, 2],
      [0, 0.5],
    ] as const)
      t.offer(d, s);
    assert.deepEqual(t.sorted(), [
      [1, 2],
      [2, 2],
      [9, 2],
    ]);
  });
});
