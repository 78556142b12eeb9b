// A write applies its entries to the index before its append settles (one pass finds duplicates and updates
// the index). These tests hold the append open, or make it fail or conflict, and check that no read ever sees
// what the log does not hold, and that the index is rebuilt to match the log after a failure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, type KbDB } from '../src/index.js';
import { KbConflictError } from '../src/errors.js';
import type { ClaimStore } from '../src/store/types.js';
import { claim, sleep, tempKb } from './helpers.js';

function storeOf(db: KbDB): ClaimStore {
  return (db as unknown as { store: ClaimStore }).store;
}

/** Makes the next append wait for `hold`, then run `then` (which may throw) instead of appending, or append. */
function interceptNextAppend(db: KbDB, hold: Promise<unknown>, then: (append: () => Promise<number>) => Promise<number>): void {
  const store = storeOf(db);
  const original = store.append.bind(store);
  store.append = async (entries, ts, expectedHead) => {
    store.append = original;
    await hold;
    return then(() => original(entries, ts, expectedHead));
  };
}

test('a read made while an append is pending waits for it and then sees the claims', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    await db.ingest(['EGFR', 'gene'], ['associated_with', 'association'], ['NSCLC', 'disease'], { source_type: 'literature', source_id: 'pmid:1' });
    let release!: () => void;
    interceptNextAppend(db, new Promise<void>((r) => (release = r)), (append) => append());
    const write = db.ingestBatch([claim('KRAS', 'gene', 'associated_with', 'NSCLC', 'disease', 'pmid:2')]);
    await sleep(30); // the write has applied and is waiting in its append
    let readDone = false;
    const read = db.stats().then((s) => ((readDone = true), s));
    await sleep(30);
    assert.equal(readDone, false, 'the read waits for the pending append');
    release();
    const [w, s] = await Promise.all([write, read]);
    assert.equal(w.ingested, 1);
    assert.equal(s.claim_count, 2);
  } finally {
    t.cleanup();
  }
});

test('a failed append leaves no trace: reads during and after it see only what the log holds', async () => {
  const t = tempKb();
  try {
    let before: unknown;
    {
      await using db = await open(t.path);
      await db.ingestBatch([
        claim('EGFR', 'gene', 'associated_with', 'NSCLC', 'disease', 'pmid:1'),
        claim('TP53', 'gene', 'associated_with', 'Glioma', 'disease', 'pmid:1'),
      ]);
      before = [await db.stats(), await db.query('EGFR'), await db.listEntities()];
      const ingested: string[] = [];
      db.on('claim_ingested', (e) => ingested.push(e.claim_id));
      let release!: () => void;
      interceptNextAppend(db, new Promise<void>((r) => (release = r)), async () => {
        throw new Error('disk full');
      });
      const write = db.ingestBatch([
        claim('EGFR', 'gene', 'associated_with', 'NSCLC', 'disease', 'db:7', {}, 'database'), // corroborates a stored fact
        claim('BRAF', 'gene', 'associated_with', 'Melanoma', 'disease', 'pmid:3'), // new entities
        claim('egfr ', 'gene', 'associated_with', 'Glioma', 'disease', 'pmid:3'), // a new spelling of a known entity
      ]);
      await sleep(30);
      const reads = Promise.all([db.stats(), db.query('EGFR'), db.listEntities(), db.resolve('BRAF')]);
      release();
      await assert.rejects(write, /disk full/);
      const [stats, frame, entities, braf] = await reads;
      assert.deepEqual([stats, frame, entities], before);
      assert.equal(braf, null);
      assert.deepEqual(ingested, [], 'no event for claims that were not committed');
      // The base keeps serving, and the same claims can be written now.
      const again = await db.ingestBatch([claim('BRAF', 'gene', 'associated_with', 'Melanoma', 'disease', 'pmid:3')]);
      assert.equal(again.ingested, 1);
      assert.equal((await db.stats()).claim_count, 3);
      before = [await db.stats(), await db.query('EGFR'), await db.listEntities()];
    }
    await using reopened = await open(t.path);
    const strip = (x: unknown) => JSON.parse(JSON.stringify(x, (k, v) => (k === 'freshness' || k === 'as_of' ? undefined : v)));
    assert.deepEqual(strip([await reopened.stats(), await reopened.query('EGFR'), await reopened.listEntities()]), strip(before));
  } finally {
    t.cleanup();
  }
});

test('another writer appending first: the write conflicts, the index is rebuilt from the log and the write retried', async () => {
  const t = tempKb();
  try {
    await using a = await open(t.path);
    await using b = await open(t.path);
    await a.ingest(['EGFR', 'gene'], ['associated_with', 'association'], ['NSCLC', 'disease'], { source_type: 'literature', source_id: 'pmid:1' });
    await b.refresh();
    let conflicts = 0;
    interceptNextAppend(a, Promise.resolve(), async (append) => {
      // b writes the very claim a is about to write (same fact, same source), and a second fact.
      await b.ingestBatch([
        claim('KRAS', 'gene', 'associated_with', 'NSCLC', 'disease', 'pmid:2'),
        claim('TP53', 'gene', 'associated_with', 'NSCLC', 'disease', 'pmid:9'),
      ]);
      try {
        return await append();
      } catch (e) {
        if (e instanceof KbConflictError) conflicts++;
        throw e;
      }
    });
    const corroborated: number[] = [];
    a.on('claim_corroborated', (e) => corroborated.push(e.count));
    const r = await a.ingestBatch([
      claim('KRAS', 'gene', 'associated_with', 'NSCLC', 'disease', 'pmid:2'), // now a duplicate of b's claim
      claim('KRAS', 'gene', 'associated_with', 'NSCLC', 'disease', 'db:1', {}, 'database'), // corroborates it
    ]);
    assert.equal(conflicts, 1, 'the first append conflicted');
    assert.deepEqual([r.ingested, r.duplicates], [1, 1]);
    assert.deepEqual(corroborated, [2]);
    assert.equal((await a.stats()).claim_count, 4);
    await b.refresh();
    assert.equal((await b.stats()).claim_count, 4);
    assert.deepEqual(await a.listEntities(), await b.listEntities());
  } finally {
    t.cleanup();
  }
});
