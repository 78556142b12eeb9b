import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KbNotFoundError, KbValidationError, open } from '../src/index.js';
import { claim, tempKb } from './helpers.js';

const close = (a: number, b: number) => Math.abs(a - b) < 1e-12;

async function inferenceBase(path: string) {
  const db = await open(path);
  const r = await db.ingestBatch([
    claim('M', 'drug', 'inhibits', 'K', 'gene', 's1', { confidence: 0.8 }),
    claim('K', 'gene', 'associated_with', 'Z', 'disease', 's2', { confidence: 0.5 }),
    claim('M', 'drug', 'inhibits', 'L', 'gene', 's3', { confidence: 0.5 }),
    claim('L', 'gene', 'associated_with', 'Z', 'disease', 's4', { confidence: 1 }),
    claim('M', 'drug', 'activates', 'Q', 'gene', 's5', { confidence: 0.9 }),
    claim('Q', 'gene', 'associated_with', 'W', 'disease', 's6', { confidence: 1 }),
    claim('N', 'drug', 'inhibits', 'K', 'gene', 's7', { confidence: 1 }),
    claim('N', 'drug', 'treats', 'Z', 'disease', 's8', { confidence: 1 }),
  ]);
  return { db, ids: r.claim_ids };
}

test('predict composes two hops by the table, scores by noisy-OR over paths, leaves out what is stated', async () => {
  const t = tempKb();
  try {
    const { db, ids } = await inferenceBase(t.path);
    await using _ = db;
    const p = await db.predict('M');
    assert.deepEqual(
      p.map((x) => [x.predicate, x.target.id]),
      [
        ['may_cause', 'disease:w'],
        ['may_treat', 'disease:z'],
      ],
    );
    assert.ok(close(p[0]!.score, 0.9));
    assert.ok(close(p[1]!.score, 1 - (1 - 0.8 * 0.5) * (1 - 0.5 * 1)));
    assert.deepEqual(
      p[1]!.paths.map((q) => [q.via, q.first, q.second, q.claim_ids]),
      [
        ['gene:l', 'inhibits', 'associated_with', [ids[2], ids[3]]],
        ['gene:k', 'inhibits', 'associated_with', [ids[0], ids[1]]],
      ],
    );
    assert.equal((await db.predict('M', { top_k: 1 })).length, 1);
    // N already treats Z: nothing new to predict.
    assert.deepEqual(await db.predict('N'), []);
    await assert.rejects(db.predict('nobody'), KbNotFoundError);
    await assert.rejects(
      db.predict('M', { top_k: 0 }),
      (e: unknown) => e instanceof KbValidationError && e.field === 'top_k',
    );
  } finally {
    t.cleanup();
  }
});

test('testHypothesis weighs direct, contradicting and indirect evidence into a verdict', async () => {
  const t = tempKb();
  try {
    const { db } = await inferenceBase(t.path);
    await using _ = db;
    const mz = await db.testHypothesis('M', 'treats', 'Z');
    assert.equal(mz.verdict, 'supported');
    assert.ok(close(mz.support, 0.5 * 0.7) && mz.opposition === 0);
    assert.equal(mz.indirect_support.length, 2);
    const mw = await db.testHypothesis('M', 'treats', 'W');
    assert.equal(mw.verdict, 'contradicted');
    assert.ok(close(mw.opposition, 0.5 * 0.9) && close(mw.score, -0.45));
    const nz = await db.testHypothesis('N', 'treats', 'Z');
    assert.deepEqual([nz.verdict, nz.direct.length, nz.support], ['supported', 1, 1]);
    assert.equal((await db.testHypothesis('K', 'treats', 'W')).verdict, 'unknown');

    await db.ingest(
      ['N', 'drug'],
      ['causes', 'association'],
      ['Z', 'disease'],
      { source_type: 'literature', source_id: 's9' },
      { confidence: 0.9 },
    );
    const mixed = await db.testHypothesis('N', 'treats', 'Z');
    assert.equal(mixed.verdict, 'mixed');
    assert.ok(close(mixed.opposition, 0.9) && mixed.support === 1);
    assert.deepEqual(
      mixed.contradicting.map((c) => c.contradiction),
      ['opposite'],
    );
    await assert.rejects(
      db.testHypothesis('N', '', 'Z'),
      (e: unknown) => e instanceof KbValidationError && e.field === 'predicate',
    );
    await assert.rejects(db.testHypothesis('N', 'treats', 'nobody'), KbNotFoundError);
  } finally {
    t.cleanup();
  }
});
