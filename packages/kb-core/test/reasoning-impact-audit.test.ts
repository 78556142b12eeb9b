import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KbNotFoundError, KbValidationError, open } from '../src/index.js';
import { claim, sleep, tempKb } from './helpers.js';

// A inhibits B (s1, s2); B associated_with D (s1); A x C derived from the B-D claim (s3); C y E derived from
// A-x-C (s4). Retracting s1 with cascade retracts two claims and degrades the two derived ones.
async function base(path: string) {
  const db = await open(path);
  const r1 = await db.ingestBatch([
    claim('A', 'gene', 'inhibits', 'B', 'gene', 's1'),
    claim('B', 'gene', 'associated_with', 'D', 'disease', 's1'),
    claim('A', 'gene', 'inhibits', 'B', 'gene', 's2', {}, 'database'),
  ]);
  const [ab1, bd, ab2] = r1.claim_ids as [string, string, string];
  const ac = await db.ingest(['A', 'gene'], ['x', 'association'], ['C', 'gene'], {
    source_type: 'inference',
    source_id: 's3',
    derived_from: [bd],
  });
  const ce = await db.ingest(['C', 'gene'], ['y', 'association'], ['E', 'gene'], {
    source_type: 'inference',
    source_id: 's4',
    derived_from: [ac],
  });
  return { db, ab1, bd, ab2, ac, ce };
}

test('impact predicts exactly what retractCascade then does, and writes nothing', async () => {
  const t = tempKb();
  try {
    const { db, ab1, bd, ac, ce } = await base(t.path);
    await using _ = db;
    const seq = (await db.stats()).log_seq;
    const im = await db.impact('s1');
    assert.deepEqual(im.retracted_claim_ids, [ab1, bd]);
    assert.deepEqual(im.degraded_claim_ids, [ac, ce]);
    // B keeps the s2 claim; C, D and E lose every claim.
    assert.deepEqual(
      im.orphaned_entities.map((e) => e.id),
      ['gene:c', 'disease:d', 'gene:e'].sort(),
    );
    const w = Object.fromEntries(
      im.weakened_relationships.map((r) => [`${r.subject_id} ${r.predicate} ${r.object_id}`, r]),
    );
    assert.equal(Object.keys(w).length, 4);
    assert.deepEqual([w['gene:a inhibits gene:b']!.sources_before, w['gene:a inhibits gene:b']!.sources_after], [2, 1]);
    assert.equal(w['gene:b associated_with disease:d']!.sources_after, 0);
    assert.equal((await db.stats()).log_seq, seq, 'nothing written');

    // Without cascade (what retract() does) nothing is degraded, and C and E keep their claims.
    const plain = await db.impact('s1', { cascade: false });
    assert.deepEqual([plain.retracted_claim_ids, plain.degraded_claim_ids], [[ab1, bd], []]);
    assert.deepEqual(
      plain.orphaned_entities.map((e) => e.id),
      ['disease:d'],
    );

    const done = await db.retractCascade('s1', 'paper withdrawn');
    assert.deepEqual(done.claim_ids, im.retracted_claim_ids);
    assert.deepEqual(done.degraded_claim_ids, im.degraded_claim_ids);
    for (const e of im.orphaned_entities) assert.equal(await db.getEntity(e.id), null);

    // Retracting s1 again would change nothing, but the source is still known.
    const again = await db.impact('s1');
    assert.deepEqual([again.retracted_claim_ids, again.degraded_claim_ids], [[], []]);
    await assert.rejects(db.impact('nope'), KbNotFoundError);
    await assert.rejects(db.impact(''), (e: unknown) => e instanceof KbValidationError && e.field === 'source_id');
  } finally {
    t.cleanup();
  }
});

test('impact on an at(t) view answers for that moment', async () => {
  const t = tempKb();
  try {
    const { db, ab1, bd } = await base(t.path);
    await using _ = db;
    const before = Date.now();
    await sleep(5);
    await db.ingest(['A', 'gene'], ['z', 'association'], ['F', 'gene'], { source_type: 'literature', source_id: 's1' });
    const then = await db.at(before);
    const im = await then.impact('s1');
    assert.deepEqual(im.retracted_claim_ids, [ab1, bd], 'the later s1 claim did not exist then');
    assert.equal((await db.impact('s1')).retracted_claim_ids.length, 3);
    // A source first seen later is unknown then.
    await db.ingest(['G', 'gene'], ['z', 'association'], ['H', 'gene'], { source_type: 'literature', source_id: 's9' });
    await assert.rejects(then.impact('s9'), KbNotFoundError);
  } finally {
    t.cleanup();
  }
});

test('audit gives the provenance trail of a claim and of an entity', async () => {
  const t = tempKb();
  try {
    const { db, ab1, bd, ab2, ac, ce } = await base(t.path);
    await using _ = db;
    const a = await db.audit(ac);
    assert.equal(a.kind, 'claim');
    if (a.kind !== 'claim') return;
    assert.deepEqual(a.source, { source_id: 's3', source_type: 'inference' });
    assert.deepEqual(
      a.derived_from.map((c) => [c.claim_id, c.depth]),
      [[bd, 1]],
    );
    assert.deepEqual(
      a.dependants.map((c) => [c.claim_id, c.depth, c.derived_via]),
      [[ce, 1, ac]],
    );
    assert.deepEqual(
      a.events.map((e) => e.event),
      ['ingested'],
    );
    const top = await db.audit(ce);
    assert.ok(top.kind === 'claim');
    if (top.kind === 'claim')
      assert.deepEqual(
        top.derived_from.map((c) => [c.claim_id, c.depth]),
        [
          [ac, 1],
          [bd, 2],
        ],
      );
    const ab = await db.audit(ab1);
    assert.ok(ab.kind === 'claim');
    if (ab.kind === 'claim')
      assert.deepEqual(
        ab.corroborating.map((c) => c.claim_id),
        [ab2],
      );

    await db.retractCascade('s1', 'paper withdrawn');
    const after = await db.audit(ac);
    assert.ok(after.kind === 'claim');
    if (after.kind === 'claim') {
      assert.equal(after.claim.status, 'degraded');
      const ev = after.events[1]!;
      assert.deepEqual([ev.event, ev.source_id, ev.reason], ['degraded', 's1', 'paper withdrawn']);
    }
    const r = await db.audit(bd);
    if (r.kind === 'claim')
      assert.deepEqual(
        r.events.map((e) => e.event),
        ['ingested', 'retracted'],
      );

    // D has only a retracted claim: still audited, by id or name.
    const d = await db.audit('D');
    assert.equal(d.kind, 'entity');
    if (d.kind === 'entity') {
      assert.equal(d.entity.id, 'disease:d');
      assert.deepEqual(
        d.claims.map((c) => [c.claim.claim_id, c.claim.status]),
        [[bd, 'retracted']],
      );
      assert.equal(d.claims[0]!.events[1]!.reason, 'paper withdrawn');
    }
    await assert.rejects(db.audit('clm_nope'), KbNotFoundError);
  } finally {
    t.cleanup();
  }
});
