import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StringTable } from '../src/graph/string-table.js';

test('StringTable agrees with a Map over many keys, growth, overwrites and non-ASCII keys', () => {
  const t = new StringTable();
  const m = new Map<string, number>();
  let seed = 12345;
  const rnd = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  const alphabet = ['a', 'B', '0', ' ', '-', 'α', 'β', '\u0000', '😀', 'é', '\ud800'];
  const key = () => {
    let s = '';
    // Up to 40 units: keys kept whole in the slot (16 or fewer) and keys with a tail beyond it.
    const len = rnd(4) === 0 ? rnd(41) : rnd(12);
    for (let i = 0; i < len; i++) s += alphabet[rnd(alphabet.length)];
    return s;
  };
  for (let i = 0; i < 50_000; i++) {
    const k = i % 3 === 0 ? `E${rnd(20_000)}` : key();
    const v = rnd(1 << 30);
    t.set(k, v);
    m.set(k, v);
  }
  assert.equal(t.size, m.size);
  for (const [k, v] of m) assert.equal(t.get(k), v, `key ${JSON.stringify(k)}`);
  // Absent keys, including prefixes and extensions of present ones and the empty string when absent.
  for (let i = 0; i < 20_000; i++) {
    const k = `${key()}zz`;
    assert.equal(t.get(k), m.has(k) ? m.get(k) : -1);
  }
  assert.equal(t.get('E1x'), -1);
  // Keys that differ only past the slot's inline part, or only in its last inline unit.
  const long = 'ENSG00000139618.1-transcript-';
  t.set(`${long}a`, 1);
  t.set(`${long}b`, 2);
  t.set('abcdefghijklmnop', 3);
  t.set('abcdefghijklmnoq', 4);
  assert.deepEqual([t.get(`${long}a`), t.get(`${long}b`), t.get(`${long}c`)], [1, 2, -1]);
  assert.deepEqual([t.get('abcdefghijklmnop'), t.get('abcdefghijklmnoq'), t.get('abcdefghijklmnor')], [3, 4, -1]);
  // Short keys, kept whole in the slot, differing only in their last unit (odd and even lengths).
  t.set('abcde', 5);
  t.set('abcdefgh', 6);
  assert.deepEqual(
    [t.get('abcde'), t.get('abcdf'), t.get('abcdefgh'), t.get('abcdefgi'), t.get('abcdefghi')],
    [5, -1, 6, -1, -1],
  );
});

test('StringTable: fresh string objects with the same characters find the entry; values are replaced', () => {
  const t = new StringTable();
  t.set(['pm', 'id:1'].join(''), 7);
  assert.equal(t.get(`pmid:${1}`), 7);
  t.set('pmid:1', 9);
  assert.equal(t.get('pmid:1'), 9);
  assert.equal(t.size, 1);
  assert.equal(t.get('pmid:10'), -1);
  assert.equal(t.get('pmid:'), -1);
  t.set('', 3);
  assert.equal(t.get(''), 3);
});

test('StringTable: a lookup with its hash made beforehand answers as get does; peek changes nothing', () => {
  const t = new StringTable();
  const keys = Array.from({ length: 5000 }, (_, i) =>
    i % 3 === 0 ? `E${i}` : i % 3 === 1 ? `名前-${i}` : `ENSG${i}-long-name`,
  );
  const hashes = keys.map((k) => StringTable.hash(k));
  // Peeking before anything is stored, and at every size the table grows through, leaves it as it was.
  for (const h of hashes) t.peek(h);
  assert.equal(t.size, 0);
  keys.forEach((k, i) => {
    if (i % 2 === 0) t.set(k, i);
    t.peek(hashes[i]!);
  });
  assert.equal(t.size, 2500);
  keys.forEach((k, i) => {
    assert.equal(t.getHashed(k, hashes[i]!), t.get(k), k);
    assert.equal(t.get(k), i % 2 === 0 ? i : -1, k);
  });
  // A miss found through getHashed is where the set that follows it goes.
  assert.equal(t.getHashed('E1', StringTable.hash('E1')), -1);
  t.set('E1', 42);
  assert.equal(t.get('E1'), 42);
});
