// drift, fragile and stale read the claim columns directly (src/reasoning/columns.ts) on two paths: the live
// base (status column) and an at(t) view (creation / retraction / degradation times). On a base with
// corroboration, derived claims, a cascade retraction and a plain retraction, the two paths must agree at
// the same moment, and drift's `limit` must cut the lists, not the counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open } from '../src/index.js';
import { claim, sleep, tempKb } from './helpers.js';

test('drift, fragile and stale answer the same on the live base and on an at(now) view', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    const t0 = Date.now();
    await sleep(5);
    const ids = (
      await db.ingestBatch([
        claim('A', 'gene', 'r', 'B', 'gene', 's1', { confidence: 0.4 }),
        claim('A', 'gene', 'r', 'B', 'gene', 's2', { confidence: 0.7 }),
        claim('B', 'gene', 'r', 'C', 'gene', 's1'),
        claim('C', 'gene', 'r', 'D', 'gene', 's3'),
        claim('D', 'gene', 'r', 'E', 'gene', 's3'),
        claim('A', 'gene', 'r', 'E', 'gene', 's4'),
        claim('B', 'gene', 'r', 'E', 'gene', 's5'),
      ])
    ).claim_ids;
    const derive = (s: string, o: string, src: string, from: string) =>
      db.ingest([s, 'gene'], ['r', 'association'], [o, 'gene'], {
        source_type: 'inference',
        source_id: src,
        derived_from: [from],
      });
    const d1 = await derive('C', 'E', 's6', ids[2]!);
    await derive('A', 'D', 's7', d1);
    await derive('B', 'D', 's8', ids[3]!);
    await sleep(5);
    const t1 = Date.now();
    await sleep(5);
    await db.retractCascade('s3', 'withdrawn');
    await db.retract('s2', 'duplicate');
    await db.ingest(['E', 'gene'], ['r', 'association'], ['F', 'gene'], { source_type: 'literature', source_id: 's9' });
    await sleep(5);
    const now = Date.now();
    const view = await db.at(now);

    // The same explicit window on both paths (the live base's default `until` is its clock).
    const window = { since: t0, until: now };
    assert.deepEqual(await view.drift(window), await db.drift(window));
    assert.deepEqual(await view.fragile({ limit: 50 }), await db.fragile({ limit: 50 }));
    // age_days is measured from each one's "now" (the view's moment, the live base's clock): compared apart.
    const noAge = ({ count, facts }: Awaited<ReturnType<typeof db.stale>>) => ({
      count,
      facts: facts.map(({ age_days: _, ...f }) => f),
    });
    const staleLive = await db.stale({ days: 0, limit: 50 });
    assert.deepEqual(noAge(await view.stale({ days: 0, limit: 50 })), noAge(staleLive));
    assert.equal(staleLive.count, 7);

    const full = await db.drift(window);
    assert.ok(full.counts.retracted >= 2 && full.counts.degraded >= 1 && full.counts.changed_relationships >= 3);
    const cut = await db.drift({ ...window, limit: 1 });
    assert.deepEqual(cut.counts, full.counts);
    assert.deepEqual(cut.added_claim_ids, full.added_claim_ids.slice(0, 1));
    assert.deepEqual(cut.retracted_claim_ids, full.retracted_claim_ids.slice(0, 1));
    assert.deepEqual(cut.degraded_claim_ids, full.degraded_claim_ids.slice(0, 1));
    assert.deepEqual(cut.new_entities, full.new_entities.slice(0, 1));
    assert.deepEqual(cut.changed_relationships, full.changed_relationships.slice(0, 1));
    // Before the retractions, A-r-B had both sources: the window after t1 sees it lose s2.
    const late = await db.drift({ since: t1, until: now });
    const ab = late.changed_relationships.find((r) => r.subject_id === 'gene:a' && r.object_id === 'gene:b')!;
    assert.deepEqual([ab.sources_before, ab.sources_after, ab.confidence_after], [2, 1, 0.4]);
    assert.ok(Math.abs(ab.confidence_before - (1 - 0.6 * 0.3)) < 1e-12);
    assert.deepEqual(late.added_claim_ids.length, 1);
  } finally {
    t.cleanup();
  }
});

test('relationship strength is noisy-OR over sources in first-claim order, to the bit, past the scratch size too', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    const t0 = Date.now() - 1;
    const few: [string, number][] = [
      ['s1', 0.3],
      ['s2', 0.5],
      ['s3', 0.6],
      ['s4', 0.2],
      ['s5', 0.4],
    ];
    // (A source's second claim of the same fact is a duplicate: one claim per source here.) Over the scratch
    // size of columns.ts (32 sources): the other path, same definition.
    const many: [string, number][] = Array.from({ length: 40 }, (_, i) => [`m${i}`, ((i * 7) % 10) / 11 + 0.01]);
    await db.ingestBatch(few.map(([src, confidence]) => claim('A', 'gene', 'r', 'B', 'gene', src, { confidence })));
    await db.ingestBatch(many.map(([src, confidence]) => claim('C', 'gene', 'r', 'D', 'gene', src, { confidence })));
    const expected = (claims: [string, number][]) => {
      const best = new Map<string, number>();
      for (const [src, conf] of claims) best.set(src, Math.max(conf, best.get(src) ?? -1));
      let miss = 1;
      for (const x of best.values()) miss *= 1 - x;
      return { confidence: 1 - miss, sources: best.size };
    };
    const d = await db.drift({ since: t0 });
    const got = (s: string) => d.changed_relationships.find((r) => r.subject_id === s)!;
    for (const [s, claims] of [
      ['gene:a', few],
      ['gene:c', many],
    ] as const) {
      const e = expected(claims as [string, number][]);
      assert.equal(got(s).confidence_after, e.confidence);
      assert.equal(got(s).sources_after, e.sources);
      assert.deepEqual([got(s).confidence_before, got(s).sources_before], [0, 0]);
    }
    assert.equal(got('gene:a').sources_after, 5);
    assert.equal(got('gene:c').sources_after, 40);
  } finally {
    t.cleanup();
  }
});
