// A vector set refuses a missing or cut-short index file itself (src/embeddings/vectors.ts, checkIndexFile):
// handed such a file, usearch's view throws after closing file descriptor 0, and the process later aborts when
// a thread or handle that took fd 0 is closed. The base's open treats the refusal as a damaged save (rebuilt).
import assert from 'node:assert/strict';
import { fstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { VectorSet } from '../src/embeddings/vectors.js';

test('a missing or cut-short index file is refused, and fd 0 stays open', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kb-vectors-guard-'));
  try {
    const stdin = fstatSync(0);
    const set = new VectorSet(8);
    for (let k = 0; k < 50; k++)
      set.set(
        k,
        Float32Array.from({ length: 8 }, (_, i) => Math.sin(k * 8 + i)),
      );
    const path = join(dir, 'facts.usearch');
    set.save(path);
    const keys = Int32Array.from({ length: 50 }, (_, i) => i);
    assert.throws(() => new VectorSet(8).load(join(dir, 'nothing.usearch'), keys), /missing/);
    writeFileSync(join(dir, 'short.usearch'), readFileSync(path).subarray(0, 100));
    assert.throws(() => new VectorSet(8).load(join(dir, 'short.usearch'), keys), /cut short/);
    const after = fstatSync(0);
    assert.equal(after.ino, stdin.ino, 'fd 0 is still what it was');
    assert.equal(after.dev, stdin.dev);
    const loaded = new VectorSet(8);
    loaded.load(path, keys);
    assert.equal(loaded.size, 50);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
