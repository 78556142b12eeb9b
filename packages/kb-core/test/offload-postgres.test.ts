// The replica thread over the PostgreSQL store: fed through the base's own connection (readAfter), it answers what
// the caller's thread answers, a second process's writes included (the base catches up before each batch of jobs).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTempDatabase, probePostgres, type TempDatabase } from '@evident/testkit';
import { open } from '../src/index.js';
import { claim } from './helpers.js';

const probe = await probePostgres();

describe('off the thread over PostgreSQL', { skip: probe.skip }, () => {
  let db: TempDatabase;
  before(async () => {
    db = await createTempDatabase('kb_offload');
  });
  after(async () => {
    await db?.drop();
  });

  test("rawQuery and whatIfSummary off the thread see a second handle's writes and answer as on the thread", async () => {
    await using kb = await open(db.url, { embedding: false });
    await using peer = await open(db.url, { embedding: false });
    await kb.ingestBatch([
      claim('A', 'gene', 'binds', 'B', 'gene', 's1'),
      claim('B', 'gene', 'binds', 'C', 'gene', 's2'),
    ]);
    const q = 'MATCH (a)-[r]->(b) RETURN a.id, b.id, r.source_count ORDER BY a.id, b.id';
    assert.deepEqual((await kb.rawQuery(q, {}, { off_thread: true })).rows, (await kb.rawQuery(q)).rows);
    await peer.ingestBatch([
      claim('C', 'gene', 'binds', 'D', 'gene', 's3'),
      claim('A', 'gene', 'binds', 'B', 'gene', 's4'),
    ]);
    const there = await kb.rawQuery(q, {}, { off_thread: true });
    assert.deepEqual(there.rows, [
      ['gene:a', 'gene:b', 2],
      ['gene:b', 'gene:c', 1],
      ['gene:c', 'gene:d', 1],
    ]);
    assert.deepEqual(there.rows, (await kb.rawQuery(q)).rows);
    const input = { retract_sources: ['s2'], hypothesis: { subject: 'A', predicate: 'binds', object: 'B' } };
    assert.deepEqual(await kb.whatIfSummary(input, { off_thread: true }), await kb.whatIfSummary(input));
  });
});
