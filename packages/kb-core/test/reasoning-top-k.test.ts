// TopK ranks the candidates of stale and fragile in place of a sort of all of them: with many tied keys it
// must keep exactly the first k of the full (key, index) order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TopK } from '../src/reasoning/top-k.js';

test('TopK keeps the k smallest by key then index, as a full sort would, ties included', () => {
  let seed = 7;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (const n of [0, 1, 7, 200, 1000]) {
    // Few distinct keys (many ties), offered in a shuffled index order.
    const pairs = Array.from({ length: n }, (_, i) => ({ key: Math.floor(rand() * 10) - 5, index: i }));
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [pairs[i], pairs[j]] = [pairs[j]!, pairs[i]!];
    }
    const expected = [...pairs].sort((a, b) => a.key - b.key || a.index - b.index).map((p) => p.index);
    for (const k of [0, 1, 3, 20, n, n + 3]) {
      const top = new TopK(k);
      for (const p of pairs) top.offer(p.key, p.index);
      assert.deepEqual(top.sorted(), expected.slice(0, k), `n=${n} k=${k}`);
    }
  }
});
