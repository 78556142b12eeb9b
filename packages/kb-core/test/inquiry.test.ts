import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, KbValidationError } from '../src/index.js';
import { tempKb } from './helpers.js';

test('an inquiry stays open until a claim links its subject and object (fitting the hint), then fires inquiry_matched', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    const q = await db.ingestInquiry('Does metformin affect mTOR?', 'Metformin', 'MTOR', 'inhibits');
    const any = await db.ingestInquiry('Is MTOR linked to metformin at all?', 'mtor', 'metformin');
    assert.equal(q.status, 'open');
    assert.match(q.inquiry_id, /^inq_/);
    assert.deepEqual(
      (await db.openInquiries()).map((x) => x.inquiry_id),
      [q.inquiry_id, any.inquiry_id],
    );
    assert.deepEqual((await db.checkInquiryMatches({ subject_id: 'metformin', object_id: 'MTOR' })).length, 2);
    assert.deepEqual(
      (await db.checkInquiryMatches({ subject_id: 'metformin', object_id: 'MTOR', predicate: 'activates' })).map(
        (x) => x.inquiry_id,
      ),
      [any.inquiry_id],
    );

    const matched: { inquiry_id: string; claim_id: string }[] = [];
    db.on('inquiry_matched', (e) => matched.push(e));
    // Unrelated claim and a claim with the wrong predicate: the hinted inquiry stays open.
    await db.ingest(['metformin', 'drug'], ['treats', 'pharmacology'], ['T2D', 'disease'], {
      source_type: 'db',
      source_id: 's1',
    });
    const c1 = await db.ingest(['MTOR', 'protein'], ['associated_with', 'association'], ['metformin', 'drug'], {
      source_type: 'lit',
      source_id: 's2',
    });
    assert.deepEqual(matched, [{ inquiry_id: any.inquiry_id, claim_id: c1 }]);
    const c2 = (
      await db.ingestBatch([
        {
          subject: ['metformin', 'drug'],
          predicate: ['inhibits', 'pharmacology'],
          object: ['mTOR', 'protein'],
          provenance: { source_type: 'exp', source_id: 's3' },
        },
      ])
    ).claim_ids[0]!;
    assert.deepEqual(matched[1], { inquiry_id: q.inquiry_id, claim_id: c2 });
    assert.deepEqual(await db.openInquiries(), []);
    const done = (await db.getInquiry(q.inquiry_id))!;
    assert.equal(done.status, 'matched');
    assert.deepEqual(done.answer_claim_ids, [c2]);
    assert.equal(done.subject_id, 'drug:metformin');
    await assert.rejects(
      db.ingestInquiry('', 'a', 'b'),
      (e: unknown) => e instanceof KbValidationError && e.field === 'question',
    );
  } finally {
    t.cleanup();
  }
});

test('inquiries and their answers are rebuilt from the log', async () => {
  const t = tempKb();
  try {
    let id: string;
    {
      await using db = await open(t.path);
      id = (await db.ingestInquiry('q?', 'A', 'B')).inquiry_id;
      await db.ingestInquiry('still open?', 'A', 'C');
      await db.ingest(['B', 'gene'], ['binds', 'molecular'], ['A', 'gene'], { source_type: 'x', source_id: 'y' });
    }
    await using db = await open(t.path);
    assert.equal((await db.getInquiry(id))!.status, 'matched');
    assert.deepEqual(
      (await db.openInquiries()).map((q) => q.question),
      ['still open?'],
    );
  } finally {
    t.cleanup();
  }
});
