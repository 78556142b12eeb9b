// The write path's hold on the event loop (graph/derived.ts, issue 41): background search work waits while a
// write holds the loop, and reads still see every claim.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { open, type ClaimInput } from '../src/index.js';
import { foreground } from '../src/graph/derived.js';
import { SEARCH_INDEX, type SearchIndex } from '../src/search/search-index.js';
import { tempKb } from './helpers.js';

function claims(n: number, from = 0): ClaimInput[] {
  return Array.from({ length: n }, (_, i) => ({
    subject: [`gene${from + i}`, 'gene'] as [string, string],
    predicate: ['associated_with', 'association'] as [string, string],
    object: [`disease${(from + i) % 7}`, 'disease'] as [string, string],
    provenance: { source_type: 'literature', source_id: `pmid:${from + i}` },
  }));
}

const searchIndexOf = (db: unknown) =>
  (db as { state: { derivedIndex(n: string): unknown } }).state.derivedIndex(SEARCH_INDEX) as SearchIndex;

test('writes give the loop back: the hold is released after a threaded write, a small one and a refused one', async () => {
  const t = tempKb();
  try {
    const db = await open(t.path, { embedding: false });
    await db.ingestBatch(claims(3000)); // the writer thread's path (sqlite.ts, THREAD_MIN_ENTRIES)
    assert.equal(foreground.writing, 0);
    await db.ingestBatch(claims(10, 5000));
    await assert.rejects(db.ingestBatch([{ subject: ['x', 'gene'] } as unknown as ClaimInput]));
    assert.equal(foreground.writing, 0);
    assert.equal((await db.stats()).claim_count, 3010);
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('background search intake waits while a write holds the loop; a search still finds every claim', async () => {
  const t = tempKb();
  try {
    const db = await open(t.path, { embedding: false });
    await db.ingestBatch(claims(300));
    const ix = searchIndexOf(db);
    foreground.writing++;
    try {
      const before = ix.intake.count;
      assert.ok(before > 0, 'the claims wait in the intake right after the write');
      await sleep(80);
      assert.equal(ix.intake.count, before, 'nothing was taken in while the loop was held');
      assert.equal(foreground.free(), false);
      assert.equal(foreground.yieldNow(), true);
      // A read drains the intake itself, hold or not.
      const hits = await db.search('gene17', 5);
      assert.ok(hits.results.length > 0, 'the search found the claim');
      assert.equal(ix.intake.count, 0);
    } finally {
      foreground.writing--;
    }
    await db.ingestBatch(claims(50, 1000));
    for (let i = 0; i < 100 && ix.intake.count > 0; i++) await sleep(10);
    assert.equal(ix.intake.count, 0, 'released, the background takes the claims in');
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('a stream of queued writes gives the event loop a turn at least every 50 ms', async () => {
  const t = tempKb();
  try {
    const db = await open(t.path, { embedding: false });
    // Small batches: appended on the base's own connection, so no write waits on the writer thread (a wait would
    // turn the loop anyway). Thirty of them take well over 50 ms.
    let done = 0;
    const writes = Array.from({ length: 30 }, (_, k) => db.ingestBatch(claims(1000, k * 1000)).then(() => done++));
    let turned = -1;
    const started = performance.now();
    await writes[0];
    setImmediate(() => {
      turned = done;
    });
    await Promise.all(writes);
    const ms = performance.now() - started;
    assert.ok(ms > 100, `the writes took ${ms.toFixed(0)} ms: too fast to tell`);
    assert.ok(turned >= 0 && turned < 30, `the loop turned only after ${turned} of 30 writes`);
    await db.close();
  } finally {
    t.cleanup();
  }
});
