// A large batch goes to the log whole, on the SQLite writer thread, while the index is updated (write-path.ts,
// appendEarly), as long as the last write found no duplicate; after one that did, batches are appended as kept
// until one is clean again. Either way the log replays to the index the live writes made: the same claims under
// the same ids, a duplicate dropped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { open, type ClaimInput } from '../src/index.js';
import type { ClaimStore } from '../src/store/types.js';
import { claim, storeOf, tempKb } from './helpers.js';

// Above the store's writer-thread threshold (sqlite.ts, THREAD_MIN_ENTRIES).
const LARGE = 2500;

/** Counts the writes that went to the log whole, on the writer thread. */
function spy(store: ClaimStore): { whole: number } {
  const seen = { whole: 0 };
  const onThread = store.appendOnThread!.bind(store);
  store.appendOnThread = (entries, ts, head) => {
    const started = onThread(entries, ts, head);
    if (started) seen.whole++;
    return started;
  };
  return seen;
}

const batch = (from: number, n: number, source: (i: number) => string): ClaimInput[] =>
  Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return claim(`G${i}`, 'gene', 'associated_with', `D${i % 97}`, 'disease', source(i));
  });

test('a batch written whole keeps its duplicate out of the index, and the log replays to the same claims and ids', async () => {
  const t = tempKb();
  try {
    const db = await open(t.path);
    const store = storeOf(db);
    const first = await db.ingestBatch(batch(0, LARGE, (i) => `pmid:${i}`));
    assert.equal(first.ingested, LARGE);
    const seen = spy(store);
    const seq0 = (await db.stats()).log_seq;

    // 500 repeat the first batch (same fact, same source), one repeats a claim earlier in the same batch.
    const repeat = [...batch(0, 500, (i) => `pmid:${i}`), ...batch(LARGE, LARGE - 500, (i) => `pmid:${i}`)];
    repeat.push(repeat[repeat.length - 1]!);
    const second = await db.ingestBatch(repeat);
    assert.deepEqual([second.ingested, second.duplicates], [LARGE - 500, 501]);
    assert.equal(seen.whole, 1, 'written whole: the last write had no duplicate');
    const seq1 = (await db.stats()).log_seq;
    assert.equal(seq1 - seq0, repeat.length, 'the log holds the whole batch, its duplicates too');
    for (let i = 0; i < 500; i++)
      assert.equal(second.claim_ids[i], first.claim_ids[i], 'a duplicate answers the stored id');
    assert.equal(second.claim_ids[repeat.length - 1], second.claim_ids[repeat.length - 2]);

    // After a write with duplicates, the next is appended as kept: its duplicates never reach the log.
    const third = await db.ingestBatch([
      ...batch(0, 100, (i) => `pmid:${i}`),
      ...batch(2 * LARGE, LARGE, (i) => `doi:${i}`),
    ]);
    assert.deepEqual([third.ingested, third.duplicates], [LARGE, 100]);
    assert.equal(seen.whole, 1);
    const seq2 = (await db.stats()).log_seq;
    assert.equal(seq2 - seq1, LARGE, 'only the kept claims are logged');

    // A clean write appended as kept lets the next go whole again.
    const fourth = await db.ingestBatch(batch(4 * LARGE, LARGE, (i) => `doi:${i}`));
    const fifth = await db.ingestBatch(batch(6 * LARGE, LARGE, (i) => `doi:${i}`));
    assert.deepEqual([fourth.duplicates, fifth.duplicates], [0, 0]);
    assert.equal(seen.whole, 2, 'the fourth appended as kept, the fifth whole');

    const ids = [first, second, third, fourth, fifth].flatMap((r) => r.claim_ids);
    const before = await db.stats();
    const claims = await Promise.all(ids.map((id) => db.getClaim(id)));
    await db.close();

    // Replayed from the log alone (the graph saved at close would be loaded instead).
    rmSync(`${t.path}.graph`, { force: true });
    await using again = await open(t.path);
    const after = await again.stats();
    assert.equal(after.claim_count, before.claim_count);
    assert.equal(after.claim_count, 5 * LARGE - 500);
    assert.equal(after.log_seq, before.log_seq);
    const replayed = await Promise.all(ids.map((id) => again.getClaim(id)));
    assert.deepEqual(replayed, claims, 'every id names the same claim after the replay');
  } finally {
    t.cleanup();
  }
});
