import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KbNotFoundError, KbValidationError, open } from '../src/index.js';
import { claim, tempKb } from './helpers.js';

const close = (a: number, b: number) => Math.abs(a - b) < 1e-12;

// X activates G (s1 0.8, s2 0.9 database); G associated_with D (s1 0.6); X inhibits G (s3 0.7);
// G not_associated_with D (s4 0.5); Y r Z (s5, retracted).
async function evidenceBase(path: string) {
  const db = await open(path);
  await db.ingestBatch([
    claim('X', 'drug', 'activates', 'G', 'gene', 's1', { confidence: 0.8 }),
    claim('G', 'gene', 'associated_with', 'D', 'disease', 's1', { confidence: 0.6 }),
    claim('X', 'drug', 'activates', 'G', 'gene', 's2', { confidence: 0.9 }, 'database'),
    claim('X', 'drug', 'inhibits', 'G', 'gene', 's3', { confidence: 0.7 }),
    claim('G', 'gene', 'not_associated_with', 'D', 'disease', 's4', { confidence: 0.5 }),
    claim('Y', 'gene', 'r', 'Z', 'gene', 's5'),
  ]);
  await db.retract('s5', 'fabricated');
  return db;
}

test('sourceReliability follows its documented fractions and score', async () => {
  const t = tempKb();
  try {
    await using db = await evidenceBase(t.path);
    const by = Object.fromEntries((await db.sourceReliability()).map((r) => [r.key, r]));
    const s1 = by.s1!;
    assert.deepEqual([s1.claims, s1.corroborated, s1.contradicted, s1.retracted], [2, 0.5, 1, 0]);
    assert.ok(close(s1.mean_confidence, 0.7));
    assert.ok(close(s1.reliability, 2 / 5));
    assert.equal(s1.source_type, 'literature');
    assert.ok(close(by.s2!.reliability, 2 / 4));
    assert.ok(close(by.s3!.reliability, 1 / 3));
    assert.deepEqual([by.s5!.retracted, by.s5!.reliability], [1, 1 / 3]);
    const types = Object.fromEntries((await db.sourceReliability({ by: 'source_type' })).map((r) => [r.key, r]));
    assert.equal(types.literature!.claims, 5);
    assert.ok(close(types.literature!.reliability, 2 / 8));
    assert.ok(close(types.database!.reliability, 2 / 4));
    await assert.rejects(
      db.sourceReliability({ by: 'author' as never }),
      (e: unknown) => e instanceof KbValidationError && e.field === 'by',
    );
  } finally {
    t.cleanup();
  }
});

test('consensus counts agreeing sources and finds opposites and negations', async () => {
  const t = tempKb();
  try {
    await using db = await evidenceBase(t.path);
    const x = await db.consensus('X');
    assert.deepEqual(
      x.assertions.map((a) => [a.predicate, a.source_count, a.source_ids]),
      [
        ['activates', 2, ['s1', 's2']],
        ['inhibits', 1, ['s3']],
      ],
    );
    assert.ok(close(x.assertions[0]!.confidence, 1 - 0.2 * 0.1));
    assert.deepEqual(
      x.contradictions.map((c) => [c.kind, c.sources_a + c.sources_b]),
      [['opposite', 3]],
    );
    const gd = await db.consensus('G', 'D');
    assert.equal(gd.other, 'disease:d');
    assert.deepEqual(
      gd.contradictions.map((c) => c.kind),
      ['negation'],
    );
    assert.deepEqual((await db.consensus('X', 'D')).assertions, []);
    await assert.rejects(db.consensus('X', 'nobody'), KbNotFoundError);
  } finally {
    t.cleanup();
  }
});

test('fragile ranks single-source relationships by the claims derived from them, then paths through them', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    const [c1] = (await db.ingestBatch([claim('A', 'gene', 'r', 'B', 'gene', 's1')])).claim_ids;
    const c2 = await db.ingest(['B', 'gene'], ['r', 'association'], ['C', 'gene'], {
      source_type: 'inference',
      source_id: 's2',
      derived_from: [c1!],
    });
    await db.ingest(['C', 'gene'], ['r', 'association'], ['D', 'gene'], {
      source_type: 'inference',
      source_id: 's3',
      derived_from: [c2],
    });
    await db.ingestBatch([claim('A', 'gene', 'r', 'E', 'gene', 's4'), claim('A', 'gene', 'r', 'E', 'gene', 's5')]);
    const f = await db.fragile();
    assert.deepEqual(
      f.map((x) => [x.subject_id, x.object_id, x.source_id, x.dependants, x.paths_through]),
      [
        ['gene:a', 'gene:b', 's1', 2, 1],
        ['gene:b', 'gene:c', 's2', 1, 1],
      ],
    );
    assert.equal((await db.fragile({ limit: 1 })).length, 1);
    await assert.rejects(
      db.fragile({ limit: 0 }),
      (e: unknown) => e instanceof KbValidationError && e.field === 'limit',
    );
    // Once s1 is retracted with cascade, nothing derived is left active.
    await db.retractCascade('s1', 'withdrawn');
    assert.deepEqual(await db.fragile(), []);
  } finally {
    t.cleanup();
  }
});

test('fragile without dependants ranks by paths_through, keeping only the best `limit`', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    // H-X1, H-X2, H-X3, X1-Y, Y-Z: deg(H) = 3, deg(X1) = 2, deg(Y) = 2, the others 1.
    await db.ingestBatch([
      claim('H', 'gene', 'r', 'X1', 'gene', 's1'),
      claim('H', 'gene', 'r', 'X2', 'gene', 's2'),
      claim('H', 'gene', 'r', 'X3', 'gene', 's3'),
      claim('X1', 'gene', 'r', 'Y', 'gene', 's4'),
      claim('Y', 'gene', 'r', 'Z', 'gene', 's5'),
    ]);
    const all = await db.fragile();
    assert.deepEqual(
      all.map((f) => [f.subject_id, f.object_id, f.paths_through]),
      [
        ['gene:h', 'gene:x1', 2],
        ['gene:x1', 'gene:y', 1],
      ],
    );
    assert.deepEqual(
      (await db.fragile({ limit: 1 })).map((f) => f.object_id),
      ['gene:x1'],
    );
  } finally {
    t.cleanup();
  }
});

test('blindspots finds thin vocabulary, one-predicate entities and one-source-type relationships', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    await db.registerVocabulary('mini', {
      entity_types: ['gene', 'disease', 'tissue'],
      predicates: { associated_with: { class: 'association' }, expressed_in: { class: 'expression' } },
    });
    await db.ingestBatch([
      claim('G1', 'gene', 'associated_with', 'D1', 'disease', 's1'),
      claim('G1', 'gene', 'associated_with', 'D2', 'disease', 's1'),
      claim('G2', 'gene', 'associated_with', 'D1', 'disease', 's2'),
      claim('G2', 'gene', 'associated_with', 'D1', 'disease', 's3'),
      claim('G3', 'gene', 'associated_with', 'D3', 'disease', 's5'),
      claim('G3', 'gene', 'associated_with', 'D3', 'disease', 's6', {}, 'database'),
    ]);
    const b = await db.blindspots({ min_claims: 1 });
    assert.deepEqual(b.thin_entity_types, [{ entity_type: 'tissue', claims: 0 }]);
    assert.deepEqual(b.thin_predicates, [{ predicate: 'expressed_in', claims: 0 }]);
    assert.deepEqual(b.single_predicate_entities.entities.map((e) => e.id).sort(), ['disease:d1', 'gene:g1']);
    assert.deepEqual(
      b.single_source_type_relationships.relationships.map((r) => [r.subject_id, r.source_type, r.sources]),
      [['gene:g2', 'literature', 2]],
    );
    // With a higher bar, genes (6 claims) are still fine and diseases (6) too; associated_with has 6.
    assert.deepEqual(
      (await db.blindspots({ min_claims: 7 })).thin_predicates.map((p) => p.predicate),
      ['expressed_in', 'associated_with'],
    );
  } finally {
    t.cleanup();
  }
});
