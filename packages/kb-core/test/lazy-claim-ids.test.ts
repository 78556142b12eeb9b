// ingestBatch's claim_ids made when first read (issue 41): whenever the caller reads them (at once, after later
// writes, after close, through JSON or a spread), they are the ids of the claims stored for each input, a
// duplicate's being the stored claim's; the result keeps its keys and their order, and the property can be set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open } from '../src/index.js';
import { claim, tempKb } from './helpers.js';

const inputs = () => [
  claim('EGFR', 'gene', 'associated_with', 'NSCLC', 'disease', 'pmid:1'),
  claim('KRAS', 'gene', 'associated_with', 'NSCLC', 'disease', 'pmid:2'),
  claim('kras', 'gene', 'associated_with', 'nsclc', 'disease', 'pmid:2'), // a duplicate of the one before
  claim('TP53', 'gene', 'associated_with', 'NSCLC', 'disease', 'pmid:3'),
];

test('claim ids read late are those of the stored claims, and the result looks as before', async () => {
  const t = tempKb();
  try {
    const db = await open(t.path);
    const first = await db.ingestBatch(inputs());
    const read = await db.ingestBatch(inputs()); // every claim a duplicate of the first batch's
    const eager = read.claim_ids; // read at once
    const later = await db.ingestBatch([...inputs(), claim('BRAF', 'gene', 'associated_with', 'CRC', 'disease', 'p4')]);
    assert.deepEqual(Object.keys(first), ['ingested', 'duplicates', 'claim_ids', 'warnings']);
    assert.equal(first.ingested, 3);
    assert.equal(first.duplicates, 1);
    const ids = first.claim_ids; // read after two more writes
    assert.equal(ids.length, 4);
    assert.equal(ids[1], ids[2]);
    assert.equal(new Set(ids).size, 3);
    assert.deepEqual(eager, ids);
    assert.strictEqual(first.claim_ids, ids, 'made once, then kept');
    for (const [i, id] of ids.entries()) {
      const c = await db.getClaim(id);
      assert.ok(c, id);
      assert.equal(c.subject[0].toLowerCase(), inputs()[i]!.subject[0].toLowerCase());
    }
    assert.deepEqual(JSON.parse(JSON.stringify(first)), { ...first, claim_ids: ids });
    assert.equal(later.ingested, 1);
    const newId = later.claim_ids[4]!;
    assert.ok(!ids.includes(newId));
    await db.close();
    // Read after the base closed: still the ids of that batch.
    const closedLate = later.claim_ids;
    assert.deepEqual(closedLate.slice(0, 4), ids);
    assert.equal({ ...later }.claim_ids[4], newId);
    const db2 = await open(t.path);
    assert.equal((await db2.getClaim(newId))?.subject[0], 'BRAF');
    await db2.close();
    // The property can be set, as a plain one could.
    const r = { ...first };
    first.claim_ids = ['x'];
    assert.deepEqual(first.claim_ids, ['x']);
    assert.deepEqual(r.claim_ids, ids);
  } finally {
    t.cleanup();
  }
});
