// open(':memory:'): a base held in memory alone. Nothing may reach the disk (no file named ':memory:', no
// `:memory:.vectors/` or `:memory:.search/` beside it), whatever runs: a large batch (the writer thread's path),
// the search stage's catch-up, a close.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { open, type ClaimInput } from '../src/index.js';
import { tempDir } from '@evident/testkit';

const claims = (n: number, tag: string): ClaimInput[] =>
  Array.from({ length: n }, (_, k) => ({
    subject: [`drug${k}`, 'drug'],
    predicate: ['inhibits', 'pharmacology'],
    object: [`kinase${k % 37}`, 'protein'],
    provenance: { source_type: 'literature', source_id: `${tag}:${k}` },
  }));

test("open(':memory:') writes nothing to disk and each such base is its own", { timeout: 120_000 }, async () => {
  const d = tempDir('evident-memory-');
  const cwd = process.cwd();
  process.chdir(d.path);
  try {
    const a = await open(':memory:');
    const b = await open(':memory:');
    // Above the writer thread's threshold, so the large-append path runs too.
    await a.ingestBatch(claims(3000, 'a'));
    await b.ingestBatch(claims(5, 'b'));
    await a.embeddingsReady();
    const { results } = await a.search('drug12 kinase12', { k: 3, mode: 'hybrid' });
    assert.ok(results.length > 0);
    assert.equal((await a.stats()).claim_count, 3000);
    assert.equal((await b.stats()).claim_count, 5);
    await a.close();
    await b.close();
    assert.deepEqual(readdirSync(d.path), [], 'nothing written to the working directory');
    // Reopened, it is a new, empty base.
    await using c = await open(':memory:');
    assert.equal((await c.stats()).claim_count, 0);
  } finally {
    process.chdir(cwd);
    d.cleanup();
  }
});
