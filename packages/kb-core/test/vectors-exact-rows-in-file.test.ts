// Exact rows left in their file after a reopen (exact-rows.ts, load's `keepInFile`): every read equals a whole
// load's; rows stored or deleted afterwards are held over the file's; a save writes the same bytes as a whole
// load's save; clear() closes the file.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '@evident/testkit';
import { ExactRows } from '../src/embeddings/exact-rows.js';

const DIM = 16;

function unitRows(n: number, seed: number): Float32Array {
  const out = new Float32Array(n * DIM);
  let x = seed;
  for (let i = 0; i < out.length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out[i] = x / 2147483648 - 0.5;
  }
  for (let r = 0; r < n; r++) {
    const v = out.subarray(r * DIM, (r + 1) * DIM);
    const norm = Math.hypot(...v);
    for (let d = 0; d < DIM; d++) v[d] = v[d]! / norm;
  }
  return out;
}

/** Keys 0..39,999 (whole chunks) then every third key to 60,000 (runs read through a block). */
const KEYS = Int32Array.from([
  ...Array.from({ length: 40_000 }, (_, i) => i),
  ...Array.from({ length: 6_667 }, (_, i) => 40_000 + 3 * i),
]);

function saved(dir: string): { path: string; whole: ExactRows } {
  const whole = new ExactRows(DIM);
  whole.setMany([...KEYS], unitRows(KEYS.length, 7));
  const path = join(dir, 'rows');
  whole.save(path, KEYS);
  return { path, whole };
}

function assertSame(a: ExactRows, b: ExactRows, keys: Int32Array, label: string): void {
  const q = unitRows(1, 99);
  const got = new Float64Array(keys.length);
  const want = new Float64Array(keys.length);
  a.similarities(q, keys, got);
  b.similarities(q, keys, want);
  assert.deepEqual(got, want, label);
  const ra = new Float32Array(DIM);
  const rb = new Float32Array(DIM);
  for (const k of [keys[0]!, keys[keys.length >> 1]!, keys[keys.length - 1]!]) {
    a.rowInto(k, ra, 0);
    b.rowInto(k, rb, 0);
    assert.deepEqual(ra, rb, `${label}: row ${k}`);
    assert.equal(a.similarity(q, k), b.similarity(q, k), `${label}: similarity ${k}`);
  }
}

test('rows kept in their file answer every read as a whole load does, nothing of them held in memory', () => {
  const d = tempDir('evident-exact-rows-');
  try {
    const { path, whole } = saved(d.path);
    const inFile = new ExactRows(DIM);
    inFile.load(path, KEYS, { keepInFile: true });
    assert.equal(inFile.inFile, KEYS.length);
    for (const k of [0, 39_999, 40_000, 59_998]) assert.equal(inFile.has(k), true, `held ${k}`);
    assert.equal(inFile.has(40_001), false);
    assertSame(inFile, whole, KEYS, 'in the file');
    const loaded = new ExactRows(DIM);
    loaded.load(path, KEYS);
    assert.equal(loaded.inFile, 0);
    assertSame(loaded, whole, KEYS, 'loaded');
  } finally {
    d.cleanup();
  }
});

test('rows stored, replaced or deleted over the file; a save; a clear', () => {
  const d = tempDir('evident-exact-rows-');
  try {
    const { path, whole } = saved(d.path);
    const rows = new ExactRows(DIM);
    rows.load(path, KEYS, { keepInFile: true });
    // A new key, a replaced one in a whole chunk, one in the block-read part, and a deleted one.
    const fresh = unitRows(3, 3);
    for (const s of [rows, whole]) {
      s.setMany([70_000, 12, 59_998], fresh);
      s.delete(40_003);
    }
    assert.equal(rows.has(40_003), false);
    assert.equal(rows.inFile, KEYS.length - 3);
    const now = Int32Array.from([...KEYS.filter((k) => k !== 40_003), 70_000]);
    assertSame(rows, whole, now, 'changed');

    // A save writes what a whole load's save writes, rows from the file and from memory interleaved.
    rows.save(join(d.path, 'again'), now);
    whole.save(join(d.path, 'want'), now);
    assert.deepEqual(readFileSync(join(d.path, 'again')), readFileSync(join(d.path, 'want')));
    // Saved over the very file its rows are read from: a new file, the kept one still read.
    rows.save(path, now);
    assert.deepEqual(readFileSync(path), readFileSync(join(d.path, 'want')));
    assertSame(rows, whole, now, 'after a save over its own file');
    const back = new ExactRows(DIM);
    back.load(join(d.path, 'again'), now, { keepInFile: true });
    assertSame(back, whole, now, 'saved and kept in the file again');

    // A clear forgets everything and closes the file.
    rows.clear();
    assert.equal(rows.has(0), false);
    assert.equal(rows.inFile, 0);
    back.clear();
  } finally {
    d.cleanup();
  }
});
