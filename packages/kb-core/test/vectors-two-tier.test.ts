// The local lanes' two-tier vector set (src/embeddings/two-tier.ts): binary codes for every key, HNSW built
// afterwards from the exact rows. At every stage of the build (nothing in HNSW, part, all) a search answers what an
// exact scan answers, keys replaced or deleted are honoured in both tiers, and a save mid-build loads and resumes.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '@evident/testkit';
import { seededRandom } from './vectors-fixtures.js';
import { TwoTierVectorSet } from '../src/embeddings/two-tier.js';

let DIM = 256;
/** Below the binary scan's floor of re-ranked candidates (2,000), so either tier alone is exact up to HNSW's recall. */
const N = 2000;

const random = seededRandom;

/** `n` random unit vectors (gaussian directions), or around `clusters` random centres when given. */
function vectors(n: number, seed: number, clusters = 0, noise = 0.8): Float32Array {
  const rnd = random(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
  const centres = Float32Array.from({ length: clusters * DIM }, gauss);
  const out = new Float32Array(n * DIM);
  for (let i = 0; i < n; i++) {
    const c = clusters > 0 ? Math.floor(rnd() * clusters) : -1;
    let norm = 0;
    for (let d = 0; d < DIM; d++) {
      const x = c >= 0 ? centres[c * DIM + d]! + noise * gauss() : gauss();
      out[i * DIM + d] = x;
      norm += x * x;
    }
    for (let d = 0; d < DIM; d++) out[i * DIM + d]! /= Math.sqrt(norm);
  }
  return out;
}

const row = (all: Float32Array, i: number) => all.slice(i * DIM, (i + 1) * DIM);

/**
 * The k nearest keys of `held` (key -> vector) by an exact scan, best first: over the vectors as the set stores
 * them (16-bit fixed point, exact-rows.ts), so that near-ties closer than that precision order alike.
 */
function exactTop(held: Map<number, Float32Array>, q: Float32Array, k: number): number[] {
  const scores: [number, number][] = [];
  for (const [key, v] of held) {
    let s = 0;
    for (let d = 0; d < DIM; d++) s += Math.round(v[d]! * 32767) * q[d]!;
    scores.push([key, s / 32767]);
  }
  return scores
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, k)
    .map(([key]) => key);
}

/** Builds until HNSW covers at least `share` of the keys. */
function buildTo(set: TwoTierVectorSet, share: number): void {
  while (set.unbuilt > 0 && set.coveredKeys < share * set.size) set.buildStep(32);
}

function assertExact(
  set: TwoTierVectorSet,
  held: Map<number, Float32Array>,
  queries: Float32Array,
  what: string,
): void {
  for (let q = 0; q < queries.length / DIM; q++) {
    const v = row(queries, q);
    assert.deepEqual(
      set.nearest(v, 10).map((h) => h.key),
      exactTop(held, v, 10),
      `${what}, query ${q}`,
    );
  }
}

function filled(all: Float32Array): { set: TwoTierVectorSet; held: Map<number, Float32Array> } {
  const set = new TwoTierVectorSet(DIM);
  const held = new Map<number, Float32Array>();
  for (let from = 0; from < N; from += 100) {
    const keys = Array.from({ length: 100 }, (_, i) => from + i);
    set.setMany(keys, all.subarray(from * DIM, (from + 100) * DIM));
    for (const k of keys) held.set(k, row(all, k));
  }
  return { set, held };
}

describe('TwoTierVectorSet', () => {
  // HNSW's recall is what limits the equality: at 256 random dimensions a query's neighbours are barely nearer
  // than the rest (similarities 0.15-0.2) and HNSW misses some; at 32, or clustered as embedded texts are, it is
  // exact at this size.
  for (const [name, dim, clusters] of [
    ['random directions, 32 dimensions', 32, 0],
    ['clustered, 256 dimensions', 256, 40],
  ] as const)
    it(`answers as an exact scan with nothing, part and all of it in HNSW (${name})`, () => {
      DIM = dim;
      // Data and queries from the same centres.
      const both = vectors(N + 30, 11, clusters);
      const all = both.subarray(0, N * DIM);
      const queries = both.subarray(N * DIM);
      const { set, held } = filled(all);
      assert.equal(set.size, N);
      assert.equal(set.unbuilt, N);
      assertExact(set, held, queries, 'nothing built');
      for (const share of [0.3, 0.5, 0.8]) {
        buildTo(set, share);
        assert.ok(set.coveredKeys >= share * N && set.unbuilt > 0, `${set.coveredKeys} built`);
        assertExact(set, held, queries, `${set.coveredKeys} built`);
      }
      buildTo(set, 1);
      assert.equal(set.unbuilt, 0);
      assertExact(set, held, queries, 'all built');
    });

  it('honours replaced and deleted keys in both tiers, before and after the build takes them again', () => {
    DIM = 256;
    const both = vectors(N + 220, 17, 40);
    const all = both.subarray(0, (N + 200) * DIM);
    const queries = both.subarray((N + 200) * DIM);
    const { set, held } = filled(all);
    buildTo(set, 0.6);
    const built = set.coveredKeys;
    // Keys in HNSW (below the frontier) and in the binary tail alike: replaced by other vectors, or deleted.
    const replaced = [3, 500, built - 1, built + 5, N - 1];
    const deleted = [7, 600, built + 9, N - 2];
    for (const [i, k] of replaced.entries()) {
      set.set(k, row(all, N + i));
      held.set(k, row(all, N + i));
    }
    for (const k of deleted) {
      set.delete(k);
      held.delete(k);
    }
    assert.equal(set.size, N - deleted.length);
    for (const k of deleted) assert.equal(set.has(k), false);
    // Each replaced key is found first for its new vector; no deleted key is found for its old one.
    for (const [i, k] of replaced.entries()) assert.equal(set.nearest(row(all, N + i), 1)[0]!.key, k);
    for (const k of deleted) assert.ok(!set.nearest(row(all, k), 20).some((h) => h.key === k));
    assertExact(set, held, queries, 'after replacing and deleting');
    for (const k of replaced) assertExact(set, held, row(all, k), `old vector of ${k}`);
    buildTo(set, 1);
    assert.equal(set.unbuilt, 0);
    for (const [i, k] of replaced.entries()) assert.equal(set.nearest(row(all, N + i), 1)[0]!.key, k);
    for (const k of deleted) assert.ok(!set.nearest(row(all, k), 20).some((h) => h.key === k));
    assertExact(set, held, queries, 'built again');
    // A key added below the frontier after the build passed it (a gap filled) is found at once.
    set.delete(42);
    set.set(42, row(all, N + 100));
    held.set(42, row(all, N + 100));
    assert.equal(set.unbuilt, 1);
    assert.equal(set.nearest(row(all, N + 100), 1)[0]!.key, 42);
    assertExact(set, held, queries, 'a key set again below the frontier');
  });

  it('saves mid-build and resumes the build after loading, ending with the same answers', () => {
    DIM = 256;
    const both = vectors(N + 30, 23, 40);
    const all = both.subarray(0, (N + 10) * DIM);
    const queries = both.subarray((N + 10) * DIM);
    const { set, held } = filled(all);
    buildTo(set, 0.55);
    set.set(10, row(all, N));
    held.set(10, row(all, N));
    set.delete(11);
    held.delete(11);
    const d = tempDir('evident-two-tier-');
    try {
      const p = join(d.path, 'facts.codes');
      const files = set.save(p);
      for (const f of [p, `${p}.rows`, `${p}.hnsw`, `${p}.hnsw.keys`, `${p}.hnsw.json`]) {
        assert.ok(files.includes(f), f);
        assert.ok(existsSync(f), f);
      }
      const back = new TwoTierVectorSet(DIM);
      back.load(p, set.keyList());
      assert.equal(back.size, set.size);
      assert.equal(back.coveredKeys, set.coveredKeys, 'the build resumes where it stopped');
      assert.equal(back.unbuilt, set.unbuilt);
      for (let q = 0; q < 20; q++)
        assert.deepEqual(back.nearest(row(queries, q), 10), set.nearest(row(queries, q), 10), `query ${q}`);
      buildTo(back, 1);
      buildTo(set, 1);
      assert.equal(back.unbuilt, 0);
      assertExact(back, held, queries, 'loaded, then built');
      for (let q = 0; q < 20; q++)
        assert.deepEqual(back.nearest(row(queries, q), 10), set.nearest(row(queries, q), 10), `query ${q}`);
      // A save before any build has no HNSW files: the load builds from nothing.
      const fresh = filled(all).set;
      const p2 = join(d.path, 'fresh.codes');
      assert.deepEqual(fresh.save(p2), [p2, `${p2}.rowkeys`, `${p2}.rows`]);
      const back2 = new TwoTierVectorSet(DIM);
      back2.load(p2, fresh.keyList());
      assert.equal(back2.unbuilt, N);
      // Files of other keys are refused (persist.ts then rebuilds).
      assert.throws(() => new TwoTierVectorSet(DIM).load(p, set.keyList().subarray(1)));
    } finally {
      d.cleanup();
    }
  });
});
