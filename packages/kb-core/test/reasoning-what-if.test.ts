import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KbNotFoundError, KbValidationError, open, type ClaimInput } from '../src/index.js';
import { claim, tempKb } from './helpers.js';

test('whatIf is a read-only view with the retractions and claims applied in memory only', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    const [c1] = (await db.ingestBatch([claim('A', 'gene', 'r', 'B', 'gene', 's1')])).claim_ids;
    const c2 = await db.ingest(['B', 'gene'], ['r', 'association'], ['C', 'gene'], {
      source_type: 'inference',
      source_id: 's2',
      derived_from: [c1!],
    });
    await db.ingest(['D', 'gene'], ['r', 'association'], ['E', 'gene'], { source_type: 'literature', source_id: 's3' });
    const seq = (await db.stats()).log_seq;

    const v = await db.whatIf({ retract_sources: ['s1'], add_claims: [claim('A', 'gene', 'r', 'X', 'gene', 's9')] });
    assert.equal((await v.getClaim(c1!))!.status, 'retracted');
    assert.equal((await v.getClaim(c2))!.status, 'degraded');
    assert.ok(await v.getEntity('X'));
    assert.equal(await v.getEntity('C'), null);
    assert.deepEqual(
      (await v.query('A', { depth: 1 })).direct_relationships.map((r) => r.target.id),
      ['gene:x'],
    );
    assert.equal((await v.stats()).claim_count, 2, 'active claims: D-E and the added A-X');
    // Every read works on it, the reasoning ones too.
    assert.equal((await v.impact('s9')).retracted_claim_ids.length, 1);
    assert.equal((await v.drift({ since: 0 })).counts.retracted, 1);

    // The base is untouched, and nothing was written.
    assert.equal((await db.getClaim(c1!))!.status, 'active');
    assert.equal(await db.getEntity('X'), null);
    assert.equal((await db.stats()).log_seq, seq);
    assert.equal((await db.stats()).claim_count, 3);

    // hypothetical(claims) is whatIf({ add_claims }); a duplicate of a stored claim adds nothing, as in ingest.
    const h = await db.hypothetical([claim('A', 'gene', 'r', 'B', 'gene', 's1')]);
    assert.equal((await h.stats()).claim_count, 3);
    const h2 = await db.hypothetical([claim('A', 'gene', 'r', 'B', 'gene', 's7')]);
    assert.equal((await h2.consensus('A', 'B')).assertions[0]!.source_count, 2);
  } finally {
    t.cleanup();
  }
});

test('whatIf refuses bad changes with the errors ingest gives, and writes nothing', async () => {
  const t = tempKb();
  try {
    // Strict: the vocabulary's constraints refuse, as ingest does on a strict base (non-strict would store them).
    await using db = await open(t.path, { strict: true });
    await db.registerVocabulary('bio');
    await db.ingest(['aspirin', 'drug'], ['treats', 'pharmacology'], ['pain', 'phenotype'], {
      source_type: 'literature',
      source_id: 's1',
    });
    const seq = (await db.stats()).log_seq;
    const sameAsIngest = async (bad: unknown) => {
      const ingestErr = await db.ingestBatch([bad as ClaimInput]).then(
        () => assert.fail('ingest accepted it'),
        (e: KbValidationError) => e,
      );
      await assert.rejects(db.hypothetical([bad as ClaimInput]), (e: unknown) => {
        assert.ok(e instanceof KbValidationError);
        assert.equal(e.code, ingestErr.code);
        assert.equal(e.field, `add_claims[0].${ingestErr.field}`);
        return true;
      });
    };
    await sameAsIngest({ subject: ['x'], predicate: ['treats', 'pharmacology'], object: ['y', 'disease'] });
    // A registry constraint: genes do not `treat` in the bio vocabulary.
    await sameAsIngest(claim('TP53', 'gene', 'treats', 'pain', 'phenotype', 's2'));
    await assert.rejects(db.whatIf({ retract_sources: ['nope'] }), KbNotFoundError);
    await assert.rejects(
      db.whatIf({ retract_sources: 's1' as never }),
      (e: unknown) => e instanceof KbValidationError && e.field === 'retract_sources',
    );
    await assert.rejects(db.whatIf(null as never), KbValidationError);
    assert.equal((await db.stats()).log_seq, seq);
  } finally {
    t.cleanup();
  }
});

test('whatIf with retractions only (the overlay) reads exactly as the base does after those retractions', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    const r = await db.ingestBatch([
      claim('A', 'gene', 'r', 'B', 'gene', 's1'),
      claim('A', 'gene', 'r', 'B', 'gene', 's2', { confidence: 0.7 }),
      claim('B', 'gene', 'r', 'C', 'gene', 's1'),
      claim('C', 'gene', 'r', 'D', 'gene', 's3'),
      claim('D', 'gene', 'r', 'E', 'gene', 's4'),
    ]);
    await db.ingest(['E', 'gene'], ['q', 'association'], ['F', 'gene'], {
      source_type: 'inference',
      source_id: 's5',
      derived_from: [r.claim_ids[2]!],
    });
    const v = await db.whatIf({ retract_sources: ['s1', 's3'] });
    const read = async (x: typeof db | typeof v) => ({
      stats: (({ claim_count, entity_count }) => ({ claim_count, entity_count }))(await x.stats()),
      entities: await x.listEntities(),
      frames: await Promise.all(['A', 'B', 'D', 'E'].map((e) => x.query(e, { depth: 2 }).then((f) => f.entities))),
      claims: await Promise.all(r.claim_ids.map((id) => x.getClaim(id).then((c) => c!.status))),
      fragile: await x.fragile(),
      consensus: await x.consensus('A'),
    });
    const hypothetical = await read(v);
    // Later writes to the base do not reach the view.
    await db.ingest(['G', 'gene'], ['r', 'association'], ['H', 'gene'], { source_type: 'literature', source_id: 's6' });
    assert.equal(await v.getEntity('G'), null);
    await db.retractCascade('s1', 'x');
    await db.retractCascade('s3', 'x');
    await db.retract('s6', 'x');
    assert.deepEqual(hypothetical, await read(db));
    assert.deepEqual(hypothetical.claims, ['retracted', 'active', 'retracted', 'retracted', 'active']);
    // The view's audit shows the hypothetical retraction.
    const a = await v.audit(r.claim_ids[2]!);
    assert.ok(a.kind === 'claim' && a.events.at(-1)!.reason === 'what-if');
  } finally {
    t.cleanup();
  }
});

test('whatIf with claims to add (a copy of the index) reads as the base does after that ingest, and shares nothing', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    const r = await db.ingestBatch([
      claim('A', 'gene', 'r', 'B', 'gene', 's1'),
      claim('B', 'gene', 'r', 'C', 'gene', 's1'),
      claim('C', 'gene', 'r', 'D', 'gene', 's3'),
    ]);
    await db.ingest(['D', 'gene'], ['q', 'association'], ['E', 'gene'], {
      source_type: 'inference',
      source_id: 's5',
      derived_from: [r.claim_ids[1]!],
    });
    const added = [
      claim('A', 'gene', 'r', 'B', 'gene', 's2', { confidence: 0.7 }),
      claim('E', 'gene', 'r', 'X', 'gene', 's2'),
      claim('X', 'gene', 'p', 'A', 'gene', 's6'),
    ];
    const v = await db.whatIf({ add_claims: added, retract_sources: ['s1'] });
    const read = async (x: typeof db | typeof v) => ({
      stats: (({ claim_count, entity_count }) => ({ claim_count, entity_count }))(await x.stats()),
      entities: await x.listEntities(),
      frames: await Promise.all(['A', 'B', 'E', 'X'].map((e) => x.query(e, { depth: 2 }).then((f) => f.entities))),
      claims: await Promise.all(r.claim_ids.map((id) => x.getClaim(id).then((c) => c!.status))),
      fragile: await x.fragile(),
      // Claim ids carry the log position, which the real writes below shift: compared by count.
      consensus: JSON.stringify(await x.consensus('A'), (k, val) => (k === 'claim_ids' ? val.length : val)),
      stale: (await x.stale({ days: 0 })).facts.map((f) => [f.content_id, f.source_count]),
    });
    const hypothetical = await read(v);
    // The base is untouched, and its later writes do not reach the view.
    assert.equal(await db.getEntity('X'), null);
    assert.equal((await db.getClaim(r.claim_ids[0]!))!.status, 'active');
    await db.ingest(['G', 'gene'], ['r', 'association'], ['H', 'gene'], { source_type: 'literature', source_id: 's7' });
    assert.equal(await v.getEntity('G'), null);
    assert.deepEqual(await read(v), hypothetical);
    // The same changes made for real: the same answers.
    await db.retractCascade('s1', 'x');
    await db.ingestBatch(added);
    await db.retract('s7', 'x');
    assert.deepEqual(hypothetical, await read(db));
    assert.deepEqual(hypothetical.claims, ['retracted', 'retracted', 'active']);
    assert.equal(hypothetical.stats.claim_count, 4);
  } finally {
    t.cleanup();
  }
});

test('a what-if view with claims added stays as it was while the base takes writes that touch what it holds', async () => {
  // The view's maps read through to the base's until the base changes (copy-on-write, graph/clone.ts): the
  // base's writes below reuse the view's new entity, add spellings and facts to its entities, and retract.
  const t = tempKb();
  try {
    await using db = await open(t.path);
    await db.ingestBatch([claim('A', 'gene', 'r', 'B', 'gene', 's1'), claim('B', 'gene', 'r', 'C', 'gene', 's2')]);
    const v = await db.hypothetical([
      claim('X', 'gene', 'p', 'A', 'gene', 's3'),
      claim('a', 'gene', 'r', 'B', 'gene', 's4'),
    ]);
    const read = async (x: typeof db | typeof v) => ({
      stats: (({ claim_count, entity_count }) => ({ claim_count, entity_count }))(await x.stats()),
      entities: await x.listEntities(),
      x: await x.getEntity('X'),
      frame: (await x.query('A', { depth: 2 })).entities,
      consensus: (await x.consensus('A')).assertions.map((a) => [a.content_id, a.source_count]),
    });
    const before = await read(v);
    await db.ingestBatch([
      claim('x', 'gene', 'q', ' a ', 'gene', 's5'),
      claim('Y', 'gene', 'r', 'B', 'gene', 's5'),
      claim('A', 'gene', 'r', 'B', 'gene', 's6'),
    ]);
    await db.retractCascade('s2', 'x');
    assert.deepEqual(await read(v), before);
    assert.equal(before.x!.name, 'X');
    assert.equal((await db.getEntity('X'))!.name, 'x');
    // a second view of the changed base sees the base's writes and its own claims
    const w = await db.hypothetical([claim('X', 'gene', 'p', 'A', 'gene', 's3')]);
    assert.equal((await w.stats()).claim_count, (await db.stats()).claim_count + 1);
    assert.deepEqual(await read(v), before);
  } finally {
    t.cleanup();
  }
});
