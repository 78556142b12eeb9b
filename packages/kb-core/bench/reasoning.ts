// The reasoning calls (src/reasoning, db/what-if.ts) timed once each on the benchmark's base, in ms, with a
// same-run baseline: knowledgeHealth, an existing call that also reads the whole base once.
import { performance } from 'node:perf_hooks';
import type { KbDB } from '../src/index.js';

async function ms(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return Math.round((performance.now() - t0) * 10) / 10;
}

export async function timeReasoning(db: KbDB) {
  const claimId = (await db.claimsFor('E1'))[0]!.claim_id;
  // The id -> claim map is built on the first lookup by id (any call's); audit is timed without that one-off.
  await db.getClaim(claimId);
  const hour = Date.now() - 3_600_000;
  const out: Record<string, number> = {
    impact: await ms(() => db.impact('pmid:1')),
    audit: await ms(() => db.audit(claimId)),
    drift: await ms(() => db.drift({ since: hour })),
    fragile: await ms(() => db.fragile()),
    stale: await ms(() => db.stale({ days: 0 })),
    source_reliability: await ms(() => db.sourceReliability()),
    consensus: await ms(() => db.consensus('E1')),
    predict: await ms(() => db.predict('E1')),
    evolution: await ms(() => db.evolution('E1')),
    blindspots: await ms(() => db.blindspots()),
    test_hypothesis: await ms(() => db.testHypothesis('E1', 'rel_1', 'E2')),
    what_if_retract: await ms(() => db.whatIf({ retract_sources: ['pmid:1'] })),
    // With a claim to add, whatIf applies it to an in-memory copy of the index (db/what-if.ts).
    what_if_add: await ms(() =>
      db.hypothetical([
        {
          subject: ['E1', 'gene'],
          predicate: ['rel_1', 'class_1'],
          object: ['E2', 'gene'],
          provenance: { source_type: 'literature', source_id: 'what-if' },
        },
      ]),
    ),
  };
  const baseline = await ms(() => db.knowledgeHealth());
  const slowest = Math.max(...Object.values(out));
  return {
    reasoning_ms: out,
    reasoning_baseline_knowledge_health_ms: baseline,
    reasoning_slowest_ratio: Math.round((slowest / baseline) * 100) / 100,
    reasoning_under_1s:
      Object.entries(out)
        .filter(([, v]) => v >= 1000)
        .map(([k]) => k).length === 0,
  };
}
