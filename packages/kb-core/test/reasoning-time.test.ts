import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KbNotFoundError, KbValidationError, open } from '../src/index.js';
import { claim, sleep, tempKb } from './helpers.js';

const close = (a: number, b: number) => Math.abs(a - b) < 1e-12;
const field = (name: string) => (e: unknown) => e instanceof KbValidationError && e.field === name;

test('drift lists what changed in (since, until], from the log', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    const t0 = Date.now();
    await sleep(5);
    const [c1] = (await db.ingestBatch([claim('A', 'gene', 'r', 'B', 'gene', 's1', { confidence: 0.5 })])).claim_ids;
    await sleep(5);
    const t1 = Date.now();
    await sleep(5);
    const [c2, c3] = (
      await db.ingestBatch([
        claim('A', 'gene', 'r', 'B', 'gene', 's2', { confidence: 0.6 }),
        claim('C', 'gene', 'r', 'D', 'gene', 's3'),
      ])
    ).claim_ids;
    await sleep(5);
    const t2 = Date.now();
    await sleep(5);
    await db.retract('s3', 'bad');

    const d = await db.drift({ since: t1, until: new Date(t2).toISOString() });
    assert.deepEqual(d.added_claim_ids, [c2, c3]);
    assert.deepEqual([d.retracted_claim_ids, d.degraded_claim_ids], [[], []]);
    assert.deepEqual(
      d.new_entities.map((e) => e.id),
      ['gene:c', 'gene:d'],
    );
    const ab = d.changed_relationships.find((r) => r.subject_id === 'gene:a')!;
    assert.deepEqual([ab.sources_before, ab.sources_after], [1, 2]);
    assert.ok(close(ab.confidence_before, 0.5) && close(ab.confidence_after, 1 - 0.5 * 0.4));
    assert.equal(d.counts.changed_relationships, 2);

    const late = await db.drift({ since: t2 });
    assert.deepEqual(late.retracted_claim_ids, [c3]);
    assert.deepEqual(late.added_claim_ids, []);
    const cd = late.changed_relationships[0]!;
    assert.deepEqual([cd.subject_id, cd.sources_before, cd.sources_after, cd.confidence_after], ['gene:c', 1, 0, 0]);

    // On a view, until stops at the view's moment.
    const then = await db.at(t1);
    assert.deepEqual((await then.drift({ since: t0 })).added_claim_ids, [c1]);

    await assert.rejects(db.drift({ since: t2, until: t1 }), field('since'));
    await assert.rejects(db.drift({ since: t0, until: 'not a date' }), field('until'));
    await assert.rejects(db.drift({} as never), field('since'));
  } finally {
    t.cleanup();
  }
});

test('stale lists relationships whose newest active claim is older than `days`', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    await db.ingestBatch([claim('A', 'gene', 'r', 'B', 'gene', 's1'), claim('C', 'gene', 'r', 'D', 'gene', 's1')]);
    await sleep(10);
    const tm = Date.now();
    await sleep(10);
    await db.ingest(['E', 'gene'], ['r', 'association'], ['F', 'gene'], { source_type: 'literature', source_id: 's2' });
    // A newer claim of A-r-B (another source) makes it fresh again.
    await db.ingest(['A', 'gene'], ['r', 'association'], ['B', 'gene'], { source_type: 'literature', source_id: 's3' });
    const view = await db.at(tm + 86_400_000);
    const st = await view.stale({ days: 1 });
    assert.equal(st.count, 1);
    assert.equal(st.facts[0]!.subject_id, 'gene:c');
    assert.ok(st.facts[0]!.age_days > 1 && st.facts[0]!.age_days < 1.01);
    assert.equal((await view.stale({ days: 0 })).count, 3);
    const two = await view.stale({ days: 0, limit: 2 });
    assert.deepEqual(
      [two.count, two.facts.map((f) => f.subject_id)],
      [3, ['gene:c', 'gene:e']],
      'the two oldest, oldest first',
    );
    assert.equal((await db.stale({ days: 1 })).count, 0);
    await assert.rejects(db.stale({ days: -1 }), field('days'));
    await assert.rejects(db.stale({} as never), field('days'));
  } finally {
    t.cleanup();
  }
});

test('evolution gives the timeline and each relationship confidence after every change', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    const [c1] = (await db.ingestBatch([claim('A', 'gene', 'r', 'B', 'gene', 's1', { confidence: 0.5 })])).claim_ids;
    await sleep(5);
    const [c2] = (await db.ingestBatch([claim('A', 'gene', 'r', 'B', 'gene', 's2', { confidence: 0.6 })])).claim_ids;
    await sleep(5);
    await db.retract('s1', 'gone');
    const ev = await db.evolution('A');
    assert.deepEqual(
      ev.events.map((e) => [e.event, e.claim_id]),
      [
        ['added', c1],
        ['added', c2],
        ['retracted', c1],
      ],
    );
    const series = ev.relationships[0]!.series;
    assert.deepEqual(
      series.map((p) => p.source_count),
      [1, 2, 1],
    );
    assert.ok(
      close(series[0]!.confidence, 0.5) && close(series[1]!.confidence, 0.8) && close(series[2]!.confidence, 0.6),
    );
    const first = await (await db.at(series[0]!.at)).evolution('A');
    assert.equal(first.events.length, 1);
    await assert.rejects(db.evolution('nobody'), KbNotFoundError);
  } finally {
    t.cleanup();
  }
});
