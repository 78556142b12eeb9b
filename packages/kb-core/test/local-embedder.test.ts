// The local embedder's per-token parts (src/embeddings/local.ts) are kept between texts: a text's vector must
// be the one computed afresh from what the learner holds at that moment, whatever was cached before it, as
// learning goes on, after a restore, and when the cache is full.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LocalEmbedder } from '../src/embeddings/local.js';

const WORDS = ['olaparib', 'parp1', 'brca', 'breast', 'cancer', 'nephritis', 'kinase', 'egfr', 'tp53', 'dna', 'repair'];

function randomTokens(rand: () => number, n: number): string[] {
  return Array.from({ length: n }, () => {
    const i = Math.floor(rand() * (WORDS.length + 40));
    return i < WORDS.length ? WORDS[i]! : `e${i}`;
  });
}

function seeded(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

test('kept token parts give the vectors of an embedder that keeps none, while learning goes on', () => {
  const seed = Math.floor(Math.random() * 2 ** 31);
  const rand = seeded(seed);
  const kept = new LocalEmbedder();
  const none = new LocalEmbedder(undefined, 0);
  const few = new LocalEmbedder(undefined, 5);
  for (let step = 0; step < 200; step++) {
    const fact = randomTokens(rand, 2 + Math.floor(rand() * 4));
    for (const e of [kept, none, few]) e.learn(fact);
    // Texts over the same words, so that parts kept from earlier steps are read after learning changed them.
    for (let q = 0; q < 3; q++) {
      const text = randomTokens(rand, 1 + Math.floor(rand() * 5));
      const v = kept.embedTokens(text);
      assert.deepEqual(v, none.embedTokens(text), `seed ${seed}, step ${step}: ${text.join(' ')}`);
      assert.deepEqual(v, few.embedTokens(text), `seed ${seed}, step ${step} (cache full): ${text.join(' ')}`);
    }
  }
  // A restore replaces what was learnt: nothing kept from before it may be read.
  const other = new LocalEmbedder();
  other.learn(['brca', 'olaparib', 'e7']);
  const fresh = new LocalEmbedder(undefined, 0);
  fresh.importState(other.exportState());
  for (const w of WORDS) kept.embedTokens([w]);
  kept.importState(other.exportState());
  for (const w of [...WORDS, 'e7', 'olaparb']) assert.deepEqual(kept.embedTokens([w]), fresh.embedTokens([w]), w);
});

test('a text vector is unit length and a misspelling stays near its word', () => {
  const e = new LocalEmbedder();
  e.learn(['olaparib', 'parp1', 'inhibit']);
  e.learn(['olaparib', 'breast', 'cancer']);
  const v = e.embedText('olaparib');
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  assert.ok(Math.abs(norm - 1) < 1e-5, `norm ${norm}`);
  const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
  assert.ok(cos(v, e.embedText('olaparb')) > cos(v, e.embedText('tp53')), 'the misspelling is nearer');
});

test('a restored learner (its rows taken over, not copied) learns on as the one it was saved from', () => {
  const rand = seeded(11);
  const fact = () => randomTokens(rand, 3).map((t, i) => (i === 0 ? `${t}x${Math.floor(rand() * 700)}` : t));
  const original = new LocalEmbedder();
  // Over 600 tokens: whole chunks of rows (256 each) and a part-filled last one.
  for (let i = 0; i < 900; i++) original.learn(fact());
  const restored = new LocalEmbedder();
  restored.importState(original.exportState());
  for (let i = 0; i < 400; i++) {
    const f = fact();
    original.learn(f);
    restored.learn(f);
  }
  const a = original.exportState();
  const b = restored.exportState();
  assert.ok(a.context_rows.length > 600, `${a.context_rows.length} rows`);
  assert.deepEqual(b, a);
  for (let q = 0; q < 50; q++) {
    const text = fact();
    assert.deepEqual(restored.embedTokens(text), original.embedTokens(text));
  }
});
