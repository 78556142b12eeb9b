// The vector set's key bitmap (src/embeddings/key-bits.ts) against a Set on random keys: membership, count,
// the ascending list, and clear.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KeyBits } from '../src/embeddings/key-bits.js';

test('KeyBits holds what a Set of the same keys holds, and lists them ascending', () => {
  const bits = new KeyBits();
  const ref = new Set<number>();
  const range = 1 + Math.floor(Math.random() * 5000);
  for (let i = 0; i < 3000; i++) {
    const k = Math.floor(Math.random() * range);
    bits.add(k);
    ref.add(k);
  }
  bits.add(31);
  ref.add(31);
  bits.add(32);
  ref.add(32);
  assert.equal(bits.size, ref.size);
  for (let k = -2; k < range + 70; k++) assert.equal(bits.has(k), ref.has(k), `key ${k}`);
  assert.deepEqual(
    [...bits.list()],
    [...ref].sort((a, b) => a - b),
  );
  bits.clear();
  assert.equal(bits.size, 0);
  assert.equal(bits.has(31), false);
  assert.deepEqual([...bits.list()], []);
  assert.throws(() => bits.add(-1), RangeError);
});
