import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open } from '../src/index.js';
import { tempKb, claim } from './helpers.js';

test('knowledgeHealth follows its documented formulas on a small hand-computed base', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    // Facts: A-x-B from s1 (lit) and s2 (db); C-x-D from s1 only; E-x-F from s3 (experiment), later, more confident.
    await db.ingestBatch([
      claim('A', 'gene', 'x', 'B', 'gene', 's1', { confidence: 0.4 }, 'literature'),
      claim('A', 'gene', 'x', 'B', 'gene', 's2', { confidence: 0.6 }, 'database'),
    ]);
    await db.ingestBatch([
      claim('C', 'gene', 'x', 'D', 'gene', 's1', { confidence: 0.8 }, 'literature'),
      claim('E', 'gene', 'x', 'F', 'gene', 's3', { confidence: 1.0 }, 'experiment'),
    ]);
    const h = await db.knowledgeHealth();
    // Entities: A and B have two sources; C, D, E, F one each -> 2/6.
    assert.ok(Math.abs(h.metrics.multi_source_ratio - 2 / 6) < 1e-12);
    // Claims in a fact with >= 2 distinct sources: the two A-B claims -> 2/4.
    assert.equal(h.metrics.corroboration_ratio, 0.5);
    // Everything was just written: freshness ~ 1.
    assert.ok(h.metrics.freshness > 0.999 && h.metrics.freshness <= 1);
    // Three source types out of a target of five.
    assert.ok(Math.abs(h.metrics.source_diversity - 3 / 5) < 1e-12);
    // Older half mean (0.4+0.6)/2 = 0.5, newer half (0.8+1.0)/2 = 0.9 -> 0.5 + 0.4 = 0.9.
    assert.ok(Math.abs(h.metrics.confidence_trend - 0.9) < 1e-12);
    const expected = 100 * (0.3 * (2 / 6) + 0.25 * 0.5 + 0.2 * h.metrics.freshness + 0.15 * 0.6 + 0.1 * 0.9);
    assert.ok(Math.abs(h.score - expected) <= 0.05, `${h.score} vs ${expected}`);

    // Retracting s2 removes the corroboration and A/B's second source.
    await db.retract('s2', 'test');
    const h2 = await db.knowledgeHealth();
    assert.equal(h2.metrics.multi_source_ratio, 0);
    assert.equal(h2.metrics.corroboration_ratio, 0);
    assert.ok(h2.score < h.score);
  } finally {
    t.cleanup();
  }
});

test('freshness decays with a 30-day half-life, read through at()', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    await db.ingest(['A', 'gene'], ['x', 'y'], ['B', 'gene'], { source_type: 'lit', source_id: 's' });
    const later = await db.at(Date.now() + 30 * 86_400_000);
    const h = await later.knowledgeHealth();
    assert.ok(Math.abs(h.metrics.freshness - 0.5) < 0.001, String(h.metrics.freshness));
  } finally {
    t.cleanup();
  }
});

test('qualityReport, findConfidenceAlerts, schema and stats describe the active graph', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    await db.ingestBatch([
      claim('BRCA1', 'gene', 'associated_with', 'breast cancer', 'disease', 'p1', { confidence: 0.9 }, 'literature'),
      claim('BRCA1', 'gene', 'associated_with', 'breast cancer', 'disease', 'omim', { confidence: 0.9 }, 'database'),
      claim('BRCA2', 'gene', 'associated_with', 'breast cancer', 'disease', 'p2', { confidence: 0.3 }, 'literature'),
      claim('olaparib', 'drug', 'treats', 'breast cancer', 'disease', 'fda', { confidence: 0.95 }, 'database'),
    ]);
    const q = await db.qualityReport();
    assert.equal(q.entity_count, 4);
    assert.equal(q.claim_count, 4);
    assert.deepEqual(q.single_source_entities.examples.map((e) => e.id).sort(), ['drug:olaparib', 'gene:brca2']);
    assert.deepEqual(q.source_distribution.by_source_type, { literature: 2, database: 2 });
    assert.equal(q.knowledge_density.claims_per_fact, 4 / 3);

    const alerts = await db.findConfidenceAlerts();
    const brca2 = alerts.find((a) => a.entity.id === 'gene:brca2')!;
    assert.deepEqual(brca2.alerts, ['single_source', 'low_confidence']);
    assert.ok(!alerts.some((a) => a.entity.id === 'gene:brca1'));
    const stale = await (await db.at(Date.now() + 400 * 86_400_000)).findConfidenceAlerts();
    assert.ok(stale.find((a) => a.entity.id === 'gene:brca1')!.alerts.includes('stale'));

    const s = await db.schema();
    assert.deepEqual(s.entity_types, [
      { type: 'gene', count: 2 },
      { type: 'disease', count: 1 },
      { type: 'drug', count: 1 },
    ]);
    assert.deepEqual(s.patterns[0], {
      subject_type: 'gene',
      predicate: 'associated_with',
      object_type: 'disease',
      count: 3,
    });
    const st = await db.stats();
    assert.equal(st.entity_count, 4);
    assert.equal(st.claim_count, 4);
    assert.equal(st.content_groups, 3);
    assert.equal(st.backend, 'sqlite');
    assert.ok(st.index_size.estimated_bytes > 0);
  } finally {
    t.cleanup();
  }
});

test('findGaps reports entities missing an expected relationship; findBridges predicts links between unlinked neighbours', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    await db.ingestBatch([
      claim('G1', 'gene', 'participates_in', 'P1', 'pathway', 's'),
      claim('G2', 'gene', 'participates_in', 'P1', 'pathway', 's'),
      claim('G3', 'gene', 'interacts_with', 'G1', 'gene', 's'),
      // G4 and G5 share three neighbours but are not linked: the strongest bridge.
      claim('G4', 'gene', 'interacts_with', 'H1', 'protein', 's'),
      claim('G4', 'gene', 'interacts_with', 'H2', 'protein', 's'),
      claim('G4', 'gene', 'interacts_with', 'H3', 'protein', 's'),
      claim('G5', 'gene', 'interacts_with', 'H1', 'protein', 's'),
      claim('G5', 'gene', 'interacts_with', 'H2', 'protein', 's'),
      claim('G5', 'gene', 'interacts_with', 'H3', 'protein', 's'),
    ]);
    const gaps = await db.findGaps([{ entity_type: 'gene', predicate: 'participates_in', direction: 'outgoing' }]);
    assert.deepEqual(gaps.map((g) => g.entity.id).sort(), ['gene:g3', 'gene:g4', 'gene:g5']);
    // Without patterns: 3 of the 5 genes interact with something (at least half), so the other two are gaps.
    const inferred = await db.findGaps();
    assert.deepEqual(inferred.map((g) => [g.entity.id, g.missing.predicate, g.missing.direction]).sort(), [
      ['gene:g1', 'interacts_with', 'outgoing'],
      ['gene:g2', 'interacts_with', 'outgoing'],
    ]);
    const bridges = await db.findBridges({ top_k: 3 });
    assert.equal(bridges.length, 3);
    assert.deepEqual([bridges[0]!.source.id, bridges[0]!.target.id].sort(), ['gene:g4', 'gene:g5']);
    assert.equal(bridges[0]!.suggested_predicate, 'interacts_with', 'the predicate seen between two genes (G3-G1)');
    assert.match(bridges[0]!.reason, /share 3 neighbours/);
    assert.ok(bridges[0]!.score > bridges[1]!.score);
  } finally {
    t.cleanup();
  }
});
