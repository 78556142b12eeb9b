// The reasoning calls over the PostgreSQL store: the same answers as on SQLite, a second handle's writes
// included, and whatIf replaying the shared log without writing to it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createTempDatabase, probePostgres, type TempDatabase } from '@evident/testkit';
import { KbNotFoundError, open } from '../src/index.js';
import { claim } from './helpers.js';

const probe = await probePostgres();

describe('reasoning over PostgreSQL', { skip: probe.skip }, () => {
  let db: TempDatabase;
  let admin: pg.Client;
  before(async () => {
    db = await createTempDatabase('kb_reasoning');
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
  });
  after(async () => {
    await admin?.end();
    await db?.drop();
  });

  test('impact, audit, consensus, predict, testHypothesis and whatIf', async () => {
    await using kb = await open(db.url);
    await using peer = await open(db.url);
    const r = await kb.ingestBatch([
      claim('M', 'drug', 'inhibits', 'K', 'gene', 's1', { confidence: 0.8 }),
      claim('K', 'gene', 'associated_with', 'Z', 'disease', 's2', { confidence: 0.5 }),
    ]);
    // The second handle's write is seen by the first one's reasoning reads.
    const derived = await peer.ingest(
      ['M', 'drug'],
      ['activates', 'association'],
      ['K', 'gene'],
      { source_type: 'inference', source_id: 's3', derived_from: [r.claim_ids[1]!] },
      { confidence: 1 },
    );
    const im = await kb.impact('s2');
    assert.deepEqual([im.retracted_claim_ids, im.degraded_claim_ids], [[r.claim_ids[1]], [derived]]);
    const a = await kb.audit(derived);
    assert.ok(a.kind === 'claim' && a.derived_from[0]!.claim_id === r.claim_ids[1]);
    assert.deepEqual(
      (await kb.consensus('M', 'K')).contradictions.map((c) => c.kind),
      ['opposite'],
    );
    const p = await kb.predict('M');
    assert.deepEqual(
      p.map((x) => [x.predicate, x.target.id, Math.round(x.score * 100) / 100]),
      [
        ['may_cause', 'disease:z', 0.5],
        ['may_treat', 'disease:z', 0.4],
      ],
    );
    // For: 0.5 x (0.8 x 0.5) = 0.2 through inhibits; against: 0.5 x (1 x 0.5) = 0.25 through activates.
    const h = await kb.testHypothesis('M', 'treats', 'Z');
    assert.equal(h.verdict, 'mixed');
    assert.ok(Math.abs(h.score + 0.05) < 1e-12);

    const seq = (await kb.stats()).log_seq;
    const v = await kb.whatIf({ retract_sources: ['s2'] });
    assert.equal((await v.getClaim(derived))!.status, 'degraded');
    // Z's only claim is gone in that view: nothing left to predict, and Z is unknown there.
    assert.deepEqual(await v.predict('M'), []);
    await assert.rejects(v.testHypothesis('M', 'treats', 'Z'), KbNotFoundError);
    assert.equal((await kb.getClaim(derived))!.status, 'active');
    assert.equal((await kb.stats()).log_seq, seq, 'nothing written');
  });
});
