// Exact rows read in the background after a reopen (exact-rows.ts, load's `background`): until a row's slice
// is read, it is read from the file; every read equals a whole load's, during and after; anything that changes
// the rows first reads the rest; clear() stops the load; a save during it writes the same bytes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '@evident/testkit';
import { ExactRows } from '../src/embeddings/exact-rows.js';

const DIM = 16;
const tick = () => new Promise((r) => setImmediate(r));

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

test('a background load answers every read as a whole load does, before, during and after its slices', async () => {
  const d = tempDir('evident-exact-rows-');
  try {
    const { path, whole } = saved(d.path);
    const bg = new ExactRows(DIM);
    bg.load(path, KEYS, { background: true });
    assert.equal(bg.loading, true);
    for (const k of [0, 39_999, 40_000, 59_998]) assert.equal(bg.has(k), true, `held ${k}`);
    assert.equal(bg.has(40_001), false);
    // Before any slice: every row from the file.
    assertSame(bg, whole, KEYS, 'before any slice');
    await tick();
    assertSame(bg, whole, KEYS, 'after a slice');
    for (let i = 0; bg.loading && i < 10_000; i++) await tick();
    assert.equal(bg.loading, false, 'the load ends');
    assertSame(bg, whole, KEYS, 'loaded');
  } finally {
    d.cleanup();
  }
});

test('a change, a save or a clear during a background load', async () => {
  const d = tempDir('evident-exact-rows-');
  try {
    const { path, whole } = saved(d.path);
    // A change reads the rest first, so the load cannot later overwrite it.
    const changed = new ExactRows(DIM);
    changed.load(path, KEYS, { background: true });
    const fresh = unitRows(1, 3);
    changed.setMany([59_998, 70_000], new Float32Array([...fresh, ...fresh]));
    whole.setMany([59_998, 70_000], new Float32Array([...fresh, ...fresh]));
    assert.equal(changed.loading, false);
    for (let i = 0; i < 20; i++) await tick();
    const all = Int32Array.from([...KEYS, 70_000]);
    assertSame(changed, whole, all, 'changed');

    // A save during the load writes what a whole load's save writes.
    const saving = new ExactRows(DIM);
    saving.load(path, KEYS, { background: true });
    saving.save(join(d.path, 'again'), KEYS);
    assert.deepEqual(readFileSync(join(d.path, 'again')), readFileSync(path));

    // A clear stops it: nothing is held, and no slice brings rows back.
    const cleared = new ExactRows(DIM);
    cleared.load(path, KEYS, { background: true });
    cleared.clear();
    assert.equal(cleared.loading, false);
    for (let i = 0; i < 20; i++) await tick();
    assert.equal(cleared.has(0), false);
  } finally {
    d.cleanup();
  }
});
