// The batch ingest's shortcuts (fact found at check time reused, facts known new within a batch, no
// corroboration events built without a listener) must give the same index, events and log as replay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open } from '../src/index.js';
import { tempKb, claim } from './helpers.js';

test('one batch: a new fact from two sources, the same source twice, and a stored fact from a new source', async () => {
  const t = tempKb();
  try {
    let snapshot: unknown;
    {
      await using db = await open(t.path);
      const first = await db.ingestBatch([claim('EGFR', 'gene', 'associated_with', 'NSCLC', 'disease', 'pmid:1')]);
      const seen: { content_id: string; count: number; claim_id: string }[] = [];
      db.on('claim_corroborated', (e) => seen.push(e));
      const r = await db.ingestBatch([
        claim('KRAS', 'gene', 'associated_with', 'NSCLC', 'disease', 'pmid:2'), // new fact
        claim('kras', 'gene', 'Associated With', 'nsclc', 'disease', 'db:9', {}, 'database'), // same new fact, new source
        claim('KRAS ', 'gene', 'associated_with', 'NSCLC', 'disease', 'pmid:2'), // duplicate inside the batch
        claim('egfr', 'gene', 'associated_with', 'nsclc', 'disease', 'db:9', {}, 'database'), // stored fact, new source
        claim('EGFR', 'gene', 'associated_with', 'NSCLC', 'disease', 'pmid:1'), // duplicate of the stored claim
        claim('KRAS', 'gene', 'associated_with', 'NSCLC', 'drug', 'pmid:2'), // another fact: object type differs
      ]);
      assert.equal(r.ingested, 4);
      assert.equal(r.duplicates, 2);
      assert.equal(r.claim_ids[2], r.claim_ids[0]);
      assert.equal(r.claim_ids[4], first.claim_ids[0]);
      const kras = (await db.getClaim(r.claim_ids[0]!))!;
      const egfr = (await db.getClaim(first.claim_ids[0]!))!;
      assert.deepEqual(seen, [
        { content_id: kras.content_id, count: 2, claim_id: r.claim_ids[1] },
        { content_id: egfr.content_id, count: 2, claim_id: r.claim_ids[3] },
      ]);
      assert.deepEqual(
        (await db.claimsByContentId(kras.content_id)).map((c) => c.claim_id),
        [r.claim_ids[0], r.claim_ids[1]],
      );
      assert.deepEqual(
        (await db.claimsByContentId(egfr.content_id)).map((c) => c.claim_id),
        [first.claim_ids[0], r.claim_ids[3]],
      );
      const drug = (await db.getClaim(r.claim_ids[5]!))!;
      assert.notEqual(drug.content_id, kras.content_id);
      snapshot = [await db.stats(), await db.query('KRAS', { depth: 2 }), await db.listEntities()];
      assert.equal((await db.stats()).total_claims, 5);
    }
    await using again = await open(t.path);
    const strip = (x: unknown) =>
      JSON.parse(JSON.stringify(x, (k, v) => (k === 'freshness' || k === 'as_of' ? undefined : v)));
    assert.deepEqual(
      strip([await again.stats(), await again.query('KRAS', { depth: 2 }), await again.listEntities()]),
      strip(snapshot),
    );
  } finally {
    t.cleanup();
  }
});

test('claim_corroborated fires for a listener added after ingests made without one', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    await db.ingestBatch([
      claim('TP53', 'gene', 'associated_with', 'Glioma', 'disease', 'pmid:1'),
      claim('TP53', 'gene', 'associated_with', 'Glioma', 'disease', 'db:1'),
    ]);
    const seen: { count: number }[] = [];
    db.on('claim_corroborated', (e) => seen.push(e));
    await db.ingestBatch([claim('TP53', 'gene', 'associated_with', 'Glioma', 'disease', 'lab:1', {}, 'experiment')]);
    assert.deepEqual(
      seen.map((e) => e.count),
      [3],
    );
  } finally {
    t.cleanup();
  }
});
