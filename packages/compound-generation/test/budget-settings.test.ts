// The default optimizer's budget rule (src/optimize/budget-settings.ts): small budgets get a small start, an early
// surrogate and small batches; from 1,500 calls on the settings are MOL_GA_SETTINGS, so PMO's runs are unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  defaultPool,
  loadRDKit,
  loadScoringProfile,
  MOL_GA_SETTINGS,
  optimize,
  type OptimizeProgress,
} from '@evident/compound-generation';
import { FULL_SETTINGS_BUDGET, molGaSettingsFor } from '../src/optimize/budget-settings.js';

test('from the full-settings budget on (PMO: 10,000 calls), the settings are MOL_GA_SETTINGS field for field', () => {
  assert.ok(FULL_SETTINGS_BUDGET <= 2000, `${FULL_SETTINGS_BUDGET}`);
  for (const budget of [FULL_SETTINGS_BUDGET, 2000, 10_000, 1_000_000]) {
    assert.deepEqual(molGaSettingsFor(budget), { ...MOL_GA_SETTINGS }, `budget ${budget}`);
  }
});

test('a docking-sized budget starts small, trusts the surrogate before call 100 and scores small batches', () => {
  const s = molGaSettingsFor(200);
  assert.ok(s.start_size <= 30 && s.start_size >= 20, `start ${s.start_size}`);
  assert.ok(s.surrogate_warmup <= s.start_size, `warm-up ${s.surrogate_warmup} of start ${s.start_size}`);
  assert.ok(s.batch_size >= 5 && s.batch_size <= 10, `batch ${s.batch_size}`);
  assert.equal(s.oversample, MOL_GA_SETTINGS.oversample);
  // Only the three budget-scaled fields move.
  const { start_size, surrogate_warmup, batch_size, ...rest } = s;
  const { start_size: _a, surrogate_warmup: _b, batch_size: _c, ...baseRest } = MOL_GA_SETTINGS;
  assert.deepEqual(rest, baseRest);
});

test('the rule: start about a tenth of the budget (at least 20), warm-up within the start, all monotone in the budget', () => {
  let prev = molGaSettingsFor(1);
  for (let budget = 1; budget <= 2500; budget += 7) {
    const s = molGaSettingsFor(budget);
    assert.ok(s.start_size >= 20 && s.start_size <= MOL_GA_SETTINGS.start_size);
    if (budget >= 200 && budget < FULL_SETTINGS_BUDGET) assert.ok(Math.abs(s.start_size - budget / 10) <= 0.5);
    assert.ok(s.surrogate_warmup <= s.start_size && s.surrogate_warmup <= MOL_GA_SETTINGS.surrogate_warmup);
    assert.ok(s.batch_size >= 5 && s.batch_size <= MOL_GA_SETTINGS.batch_size);
    for (const k of ['start_size', 'surrogate_warmup', 'batch_size'] as const) {
      assert.ok(s[k] >= prev[k], `${k} falls from ${prev[k]} to ${s[k]} at budget ${budget}`);
    }
    prev = s;
  }
});

test('at 200 calls the default scores its first offspring right after its small start, in batches of the rule', async () => {
  const rd = await loadRDKit();
  const canonical = (smiles: string) => {
    const m = rd.get_mol(smiles);
    try {
      return m?.is_valid() ? m.get_smiles() : null;
    } finally {
      m?.delete();
    }
  };
  const pool = defaultPool().slice(0, 2000);
  const inPool = new Set(pool.map(canonical));
  const profile = await loadScoringProfile({
    scoring: { type: 'arithmetic_mean', component: [{ Qed: { endpoint: [{ name: 'qed' }] } }] },
  });
  const s = molGaSettingsFor(200);
  for (const seed of [0, 1]) {
    const progress: OptimizeProgress[] = [];
    const r = await optimize({
      profile,
      budget: { max_oracle_calls: 200 },
      seed,
      initial_pool: pool,
      onProgress: (p) => progress.push(p),
    });
    const firstOffspring = r.calls.findIndex((c) => !inPool.has(c.smiles)) + 1;
    // Before the rule: the 101st call at the earliest (150 starts).
    assert.ok(firstOffspring > s.start_size && firstOffspring <= s.start_size + s.batch_size, `${firstOffspring}`);
    assert.equal(progress[0]!.calls_used, s.start_size);
    assert.equal(progress[1]!.calls_used - progress[0]!.calls_used, s.batch_size);
    assert.equal(r.calls_used, 200);
    assert.ok(r.calls.slice(s.start_size).filter((c) => !inPool.has(c.smiles)).length > 150, 'offspring, not pool');
  }
  profile.dispose();
});

test("a small start counts scored molecules: the filter's refusals cost no call and do not shrink it", async () => {
  const profile = await loadScoringProfile({
    scoring: { type: 'arithmetic_mean', component: [{ Qed: { endpoint: [{ name: 'qed' }] } }] },
  });
  // Most pool molecules hold nitrogen: 20 plain draws would leave a start of a few molecules, or none.
  const noNitrogen = (s: string) => !/n/i.test(s);
  for (const seed of [0, 2]) {
    const progress: OptimizeProgress[] = [];
    const r = await optimize({
      profile,
      budget: { max_oracle_calls: 100 },
      seed,
      filter: noNitrogen,
      onProgress: (p) => progress.push(p),
    });
    assert.equal(progress[0]!.calls_used, molGaSettingsFor(100).start_size);
    assert.equal(r.calls_used, 100);
    assert.ok(r.calls.every((c) => noNitrogen(c.smiles)));
  }
  profile.dispose();
});
