// The runs' binary records are written into buffers the SQLite writer thread gives back (store/record-buffers.ts):
// batches of different sizes, one after another, come back from the log as they went in.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import { open, type ClaimInput } from '../src/index.js';
import { spareRecordBuffers } from '../src/store/record-buffers.js';
import { claim, tempKb } from './helpers.js';

// Above the store's writer-thread threshold (sqlite.ts, THREAD_MIN_ENTRIES).
const SIZES = [6000, 2500, 4000, 2600, 3000];

const batch = (from: number, n: number, long: boolean): ClaimInput[] =>
  Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const name = long ? `a gene with a rather longer name, number ${i}` : `G${i}`;
    return claim(name, 'gene', 'associated_with', `D${i % 89}`, 'disease', `pmid:${i}`);
  });

test('records written into given-back buffers replay to the same claims', async () => {
  const t = tempKb();
  try {
    const db = await open(t.path);
    const ids: string[] = [];
    let from = 0;
    let cameBack = 0;
    for (const [k, n] of SIZES.entries()) {
      const r = await db.ingestBatch(batch(from, n, k % 2 === 0));
      assert.equal(r.ingested, n);
      ids.push(...r.claim_ids);
      from += n;
      // The writer's answer, with the buffer, arrives on a later turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      cameBack = Math.max(cameBack, spareRecordBuffers());
    }
    assert.ok(cameBack > 0, 'the writer thread gave buffers back');
    const claims = await Promise.all(ids.map((id) => db.getClaim(id)));
    await db.close();

    // Replayed from the log alone (the graph saved at close would be loaded instead).
    rmSync(`${t.path}.graph`, { force: true });
    await using again = await open(t.path);
    assert.equal((await again.stats()).claim_count, ids.length);
    const replayed = await Promise.all(ids.map((id) => again.getClaim(id)));
    assert.deepEqual(replayed, claims);
  } finally {
    t.cleanup();
  }
});
