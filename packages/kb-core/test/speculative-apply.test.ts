// A write applies its entries to the index before its append settles (one pass finds duplicates and updates
// the index). These tests hold the append open, or make it fail or conflict, and check that no read ever sees
// what the log does not hold, and that the index is rebuilt to match the log after a failure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, type KbDB } from '../src/index.js';
import { KbConflictError } from '../src/errors.js';
import { claim, sleep, storeOf, tempKb } from './helpers.js';

/**
 * Makes the next append wait for `hold`, then run `then` (which may throw) instead of appending, or append.
 * Resolves once the write has reached its append (its entries are applied): a test waits for that, not for a
 * fixed time that a slow machine may not be done in.
 */
function interceptNextAppend(
  db: KbDB,
  hold: Promise<unknown>,
  then: (append: () => Promise<number>) => Promise<number>,
): Promise<void> {
  const store = storeOf(db);
  const original = store.append.bind(store);
  let reached!: () => void;
  const appending = new Promise<void>((r) => (reached = r));
  store.append = async (entries, ts, expectedHead) => {
    store.append = original;
    reached();
    await hold;
    return then(() => original(entries, ts, expectedHead));
  };
  return appending;
}

test('a read made while an append is pending waits for it and then sees the claims', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    await db.ingest(['EGFR', 'gene'], ['associated_with', 'association'], ['NSCLC', 'disease'], {
      source_type: 'literature',
      source_id: 'pmid:1',
    });
    let release!: () => void;
    const appending = interceptNextAppend(db, new Promise<void>((r) => (release = r)), (append) => append());
    const write = db.ingestBatch([claim('KRAS', 'gene', 'associated_with', 'NSCLC', 'disease', 'pmid:2')]);
    await appending; // the write has applied and is waiting in its append
    let readDone = false;
    const read = db.stats().then((s) => {
      readDone = true;
      return s;
    });
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
      const appending = interceptNextAppend(db, new Promise<void>((r) => (release = r)), async () => {
        throw new Error('disk full');
      });
      const write = db.ingestBatch([
        claim('EGFR', 'gene', 'associated_with', 'NSCLC', 'disease', 'db:7', {}, 'database'), // corroborates a stored fact
        claim('BRAF', 'gene', 'associated_with', 'Melanoma', 'disease', 'pmid:3'), // new entities
        claim('egfr ', 'gene', 'associated_with', 'Glioma', 'disease', 'pmid:3'), // a new spelling of a known entity
      ]);
      await appending;
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
    const strip = (x: unknown) =>
      JSON.parse(JSON.stringify(x, (k, v) => (k === 'freshness' || k === 'as_of' ? undefined : v)));
    assert.deepEqual(
      strip([await reopened.stats(), await reopened.query('EGFR'), await reopened.listEntities()]),
      strip(before),
    );
  } finally {
    t.cleanup();
  }
});

test('another writer appending first: the write conflicts, the index is rebuilt from the log and the write retried', async () => {
  const t = tempKb();
  try {
    await using a = await open(t.path);
    await using b = await open(t.path);
    await a.ingest(['EGFR', 'gene'], ['associated_with', 'association'], ['NSCLC', 'disease'], {
      source_type: 'literature',
      source_id: 'pmid:1',
    });
    await b.refresh();
    let conflicts = 0;
    void interceptNextAppend(a, Promise.resolve(), async (append) => {
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

/** `count` claims G{from}..: gene associated with a disease, all from `source`. */
function geneClaims(from: number, count: number, source: string) {
  return Array.from({ length: count }, (_, i) =>
    claim(`G${from + i}`, 'gene', 'associated_with', `D${(from + i) % 17}`, 'disease', source),
  );
}

test('a large batch is written by the writer thread while it is applied; reads wait for it; a reopen matches', async () => {
  const t = tempKb();
  try {
    const ids: string[] = [];
    let threaded = 0;
    {
      await using db = await open(t.path);
      const store = storeOf(db);
      // The first large batch starts the writer thread.
      await db.ingestBatch(geneClaims(0, 3000, 'pmid:0'));
      const onThread = store.appendOnThread!.bind(store);
      let release!: () => void;
      const hold = new Promise<void>((r) => (release = r));
      let started!: () => void;
      const applying = new Promise<void>((r) => (started = r));
      store.appendOnThread = (entries, ts, head) => {
        const p = onThread(entries, ts, head);
        if (!p) return p;
        threaded++;
        started();
        // Not known committed at the apply's end: the write waits for `done`.
        return { done: hold.then(() => p.done), committed: () => undefined };
      };
      const write = db.ingestBatch(geneClaims(3000, 5000, 'pmid:1'));
      // appendOnThread runs just before the (synchronous) apply, so this resumes once the batch is applied.
      await applying;
      let readDone = false;
      const read = db.stats().then((s) => {
        readDone = true;
        return s;
      });
      await sleep(30);
      assert.equal(readDone, false, 'the read waits for the pending commit');
      release();
      const [w, s] = await Promise.all([write, read]);
      assert.equal(w.ingested, 5000);
      assert.equal(s.claim_count, 8000, 'the read made during the write saw all of it');
      ids.push(...w.claim_ids);
      // A small write is not worth the thread: the store declines it.
      await db.ingestBatch(geneClaims(8000, 10, 'pmid:1'));
    }
    assert.equal(threaded, 1);
    await using again = await open(t.path);
    assert.equal((await again.stats()).claim_count, 8010);
    const held = new Set((await again.claimsFor('D3')).map((c) => c.claim_id));
    let checked = 0;
    for (let i = 0; i < 5000; i++) {
      if ((3000 + i) % 17 !== 3) continue;
      assert.ok(held.has(ids[i]!), `claim ${i} kept its id`);
      checked++;
    }
    assert.equal(checked, 294);
  } finally {
    t.cleanup();
  }
});

test('a large batch that conflicts in the writer thread is retried; the duplicate found then is dropped as on a replay', async () => {
  const t = tempKb();
  try {
    await using a = await open(t.path);
    await using b = await open(t.path);
    await a.ingest(['EGFR', 'gene'], ['associated_with', 'association'], ['NSCLC', 'disease'], {
      source_type: 'literature',
      source_id: 'pmid:0',
    });
    await a.ingestBatch(geneClaims(10_000, 3000, 'pmid:warm'));
    const store = storeOf(a);
    await b.refresh();
    const onThread = store.appendOnThread!.bind(store);
    let conflicts = 0;
    store.appendOnThread = (entries, ts, head) => {
      store.appendOnThread = onThread;
      // b commits first, so the thread's transaction finds a head it did not expect.
      const done = (async () => {
        await b.ingestBatch(geneClaims(0, 1, 'pmid:big'));
        const inner = onThread(entries, ts, head);
        assert.ok(inner, 'the thread takes the append');
        try {
          return await inner.done;
        } catch (e) {
          if (e instanceof KbConflictError) conflicts++;
          throw e;
        }
      })();
      return { done, committed: () => undefined };
    };
    const r = await a.ingestBatch(geneClaims(0, 3000, 'pmid:big'));
    assert.equal(conflicts, 1);
    assert.deepEqual([r.ingested, r.duplicates], [2999, 1]);
    assert.equal((await a.stats()).claim_count, 6001);
    await b.refresh();
    assert.equal((await b.stats()).claim_count, 6001);
    assert.deepEqual(await a.listEntities(), await b.listEntities());
    // The duplicate answers with b's claim id, and every id a returned is one b reads back.
    const bIds = new Set((await b.claimsFor('D0')).map((c) => c.claim_id));
    assert.ok(bIds.has(r.claim_ids[0]!));
    for (let i = 0; i < 3000; i += 17) assert.ok(bIds.has(r.claim_ids[i]!), `claim ${i}`);
  } finally {
    t.cleanup();
  }
});

test('the checkpointer thread copies the WAL into the database file as large appends accumulate', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    const pad = 'x'.repeat(400);
    // 50,000 claims of about 500 bytes: over the 16 MB between checkpoints.
    for (let b = 0; b < 10; b++) {
      await db.ingestBatch(
        Array.from({ length: 5000 }, (_, i) =>
          claim(`G${b}-${i}-${pad}`, 'gene', 'associated_with', `D${i % 17}`, 'disease', `pmid:${b}`),
        ),
      );
    }
    const { statSync } = await import('node:fs');
    let dbBytes = 0;
    // The checkpointer runs on its own thread: wait for it with a generous bound (a busy machine is slow to get
    // there, and only a checkpointer that never runs should fail this).
    for (const end = Date.now() + 60_000; dbBytes < 16 * 2 ** 20 && Date.now() < end; ) {
      dbBytes = statSync(t.path).size;
      if (dbBytes < 16 * 2 ** 20) await sleep(50);
    }
    assert.ok(
      dbBytes >= 16 * 2 ** 20,
      `the database file holds ${dbBytes} bytes before close: nothing was checkpointed`,
    );
  } finally {
    t.cleanup();
  }
});
