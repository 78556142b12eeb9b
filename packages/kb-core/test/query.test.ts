import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, KbNotFoundError, KbValidationError } from '../src/index.js';
import { tempKb, claim } from './helpers.js';

async function sample(path: string) {
  const db = await open(path);
  await db.ingestBatch([
    claim('imatinib', 'drug', 'targets', 'ABL1', 'protein', 'chembl', { confidence: 0.9 }),
    claim('imatinib', 'drug', 'targets', 'ABL1', 'protein', 'drugbank', { confidence: 0.8 }),
    claim('imatinib', 'drug', 'targets', 'KIT', 'protein', 'chembl', { confidence: 0.7 }),
    claim('ABL1', 'protein', 'associated_with', 'CML', 'disease', 'omim', { confidence: 0.6 }),
    claim('KIT', 'protein', 'associated_with', 'GIST', 'disease', 'omim', { confidence: 0.5 }),
    claim('GIST', 'disease', 'subtype_of', 'sarcoma', 'disease', 'mondo', { confidence: 1 }),
    claim('dasatinib', 'drug', 'targets', 'ABL1', 'protein', 'chembl', { confidence: 0.95 }),
  ]);
  return db;
}

test('query returns the focal entity, grouped direct relationships and the entities within depth', async () => {
  const t = tempKb();
  try {
    await using db = await sample(t.path);
    const f = await db.query('Imatinib', { depth: 1 });
    assert.deepEqual(f.focal_entity, { id: 'drug:imatinib', name: 'imatinib', type: 'drug', claim_count: 3 });
    assert.equal(f.claim_count, 3);
    assert.equal(f.direct_relationships.length, 2);
    const abl = f.direct_relationships[0]!;
    assert.equal(abl.target.id, 'protein:abl1');
    assert.equal(abl.direction, 'outgoing');
    assert.equal(abl.source_count, 2);
    assert.equal(abl.claim_ids.length, 2);
    assert.ok(Math.abs(abl.confidence - (1 - 0.1 * 0.2)) < 1e-12, 'noisy-OR of 0.9 and 0.8');
    assert.deepEqual(f.entities.map((e) => e.id).sort(), ['protein:abl1', 'protein:kit']);
    assert.match(f.narrative, /imatinib \(drug\) appears in 3 active claims from 2 sources/);
    assert.match(f.narrative, /imatinib targets ABL1 \(2 sources, confidence 0\.98\)/);

    const f2 = await db.query('imatinib', { depth: 2 });
    const reached = new Map(f2.entities.map((e) => [e.id, e]));
    assert.equal(reached.get('disease:cml')!.distance, 2);
    assert.equal(reached.get('disease:cml')!.via, 'protein:abl1');
    assert.equal(reached.get('drug:dasatinib')!.distance, 2);
    assert.ok(!reached.has('disease:sarcoma'), 'sarcoma is 3 hops away');
    const f3 = await db.query('imatinib', { depth: 3 });
    assert.equal(f3.entities.find((e) => e.id === 'disease:sarcoma')!.distance, 3);

    const incoming = await db.query('ABL1', { depth: 1 });
    const fromDrug = incoming.direct_relationships.find((r) => r.target.id === 'drug:imatinib')!;
    assert.equal(fromDrug.direction, 'incoming');

    const started = performance.now();
    const ex = await db.explain('imatinib', { depth: 2 });
    const wall = performance.now() - started;
    // Measured phases: each inside the call's wall time, and together the total.
    const { resolve_ms, direct_ms, expand_ms, narrative_ms, total_ms } = ex.timing;
    assert.ok(total_ms > 0 && total_ms <= wall, `total ${total_ms} ms, wall ${wall} ms`);
    for (const phase of [resolve_ms, direct_ms, expand_ms, narrative_ms]) assert.ok(phase >= 0 && phase <= total_ms);
    assert.ok(Math.abs(resolve_ms + direct_ms + expand_ms + narrative_ms - total_ms) < 1e-6, JSON.stringify(ex.timing));
    assert.ok(ex.candidates.facts_examined >= 2 && ex.candidates.entities_examined === f2.entities.length + 1);
    await assert.rejects(db.query('nothing here'), KbNotFoundError);
    await assert.rejects(
      db.query('imatinib', { depth: -1 }),
      (e: unknown) => e instanceof KbValidationError && e.field === 'depth',
    );
  } finally {
    t.cleanup();
  }
});

test('pathExists and findPaths follow active facts in either direction, scored by confidence', async () => {
  const t = tempKb();
  try {
    await using db = await sample(t.path);
    assert.equal(await db.pathExists('imatinib', 'CML'), true);
    assert.equal(await db.pathExists('imatinib', 'sarcoma', { max_depth: 2 }), false);
    assert.equal(await db.pathExists('imatinib', 'sarcoma', { max_depth: 3 }), true);
    assert.equal(await db.pathExists('CML', 'dasatinib', { max_depth: 2 }), true);
    const paths = await db.findPaths('dasatinib', 'KIT', { max_depth: 3 });
    assert.equal(paths.length, 1);
    const p = paths[0]!;
    assert.deepEqual(p.entities, ['drug:dasatinib', 'protein:abl1', 'drug:imatinib', 'protein:kit']);
    assert.deepEqual(
      p.edges.map((e) => [e.predicate, e.direction]),
      [
        ['targets', 'outgoing'],
        ['targets', 'incoming'],
        ['targets', 'outgoing'],
      ],
    );
    assert.ok(Math.abs(p.score - 0.95 * 0.98 * 0.7) < 1e-9);
    assert.equal(p.edges[0]!.claim_ids.length, 1);
    // Two routes: the stronger one ranks first; top_k limits.
    await db.ingest(
      ['dasatinib', 'drug'],
      ['targets', 'association'],
      ['KIT', 'protein'],
      { source_type: 'literature', source_id: 'paper' },
      { confidence: 0.4 },
    );
    const two = await db.findPaths('dasatinib', 'KIT', { max_depth: 3 });
    assert.equal(two.length, 2);
    assert.ok(two[0]!.score >= two[1]!.score);
    assert.equal(two[0]!.edges.length, 3, '0.95*0.98*0.7 = 0.65 beats the direct 0.4');
    assert.equal((await db.findPaths('dasatinib', 'KIT', { top_k: 1 })).length, 1);
    // Retracting the only link breaks the path.
    await db.retract('mondo', 'withdrawn');
    assert.equal(await db.pathExists('imatinib', 'sarcoma', { max_depth: 4 }), false);
  } finally {
    t.cleanup();
  }
});
