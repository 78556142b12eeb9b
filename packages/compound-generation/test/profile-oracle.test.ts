// The oracle budget by PMO's rules and PMO's AUC top-k, against hand-computed small cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aucTopK, InvalidRequestError, loadScoringProfile, Oracle, topKMean } from '@evident/compound-generation';

/** Total = the number of heavy atoms: easy to follow by hand. */
const atoms = () =>
  loadScoringProfile({
    scoring: { type: 'arithmetic_mean', component: [{ NumHeavyAtoms: { endpoint: [{ name: 'atoms' }] } }] },
  });

test('distinct molecules by canonical SMILES use the budget; repeats and invalid SMILES are free; the budget is never exceeded', async () => {
  const oracle = new Oracle(await atoms(), { max_oracle_calls: 3 });
  const r = await oracle.score(['CCO', 'OCC', 'C1CC', 'CCCC', 'CCO', 'c1ccccc1', 'CCCCC']);
  assert.deepEqual(
    r.map((x) => [x.status, x.score, x.call]),
    [
      ['scored', 3, 1],
      ['repeat', 3, 1],
      ['invalid', 0, null],
      ['scored', 4, 2],
      ['repeat', 3, 1],
      ['scored', 6, 3],
      ['budget_exhausted', 0, null],
    ],
  );
  assert.equal(r[1]!.canonical_smiles, 'CCO');
  assert.equal(oracle.used, 3);
  assert.ok(oracle.exhausted);
  assert.deepEqual(
    oracle.log.map((c) => [c.call, c.smiles, c.score]),
    [
      [1, 'CCO', 3],
      [2, 'CCCC', 4],
      [3, 'c1ccccc1', 6],
    ],
  );
  // A molecule scored before is still answered when the budget is spent.
  const [again] = await oracle.score(['C(C)CC']);
  assert.deepEqual([again!.status, again!.score, again!.call], ['repeat', 4, 2]);
  assert.equal(oracle.lookup('CCCC')?.call, 2);
});

test('the call log as CSV: call, SMILES, score and each endpoint transformed and raw', async () => {
  const profile = await loadScoringProfile({
    scoring: {
      type: 'arithmetic_mean',
      component: [
        { NumHeavyAtoms: { endpoint: [{ name: 'atoms, heavy', transform: { type: 'step', low: 3, high: 3 } }] } },
        {
          GroupCount: {
            endpoint: [
              {
                name: 'amides',
                weight: 0,
                params: { smarts: 'C(=O)N' },
                transform: { type: 'value_mapping', mapping: { '0': 0.5 } },
              },
            ],
          },
        },
      ],
    },
  });
  const oracle = new Oracle(profile, { max_oracle_calls: 10 });
  await oracle.score(['CCO', 'CC(=O)N']);
  assert.equal(
    oracle.toCsv(),
    [
      'call,smiles,score,"atoms, heavy","atoms, heavy (raw)",amides,amides (raw)',
      '1,CCO,1,1,3,0.5,0',
      '2,CC(N)=O,0,0,4,,1',
      '',
    ].join('\n'),
  );
});

test("PMO's AUC top-k: trapezoids every freq_log calls from (0, 0), the last segment to the end, held flat to the budget", () => {
  // freq 2, budget 6, k 2: point at 2 calls = mean(0.1, 0.5) = 0.3 → 2 × 0.3 / 2 = 0.3; last segment to 4 calls
  // with top-2 0.7: 2 × (0.7 + 0.3) / 2 = 1; flat to 6: 2 × 0.7 = 1.4; total 2.7 / 6.
  const s = [0.1, 0.5, 0.3, 0.9];
  assert.ok(Math.abs(aucTopK(s, 2, 6, { freq_log: 2 }) - 2.7 / 6) < 1e-15);
  assert.ok(Math.abs(aucTopK(s, 2, 6, { freq_log: 2, finish: false }) - 1.3 / 6) < 1e-15);
  // One molecule past the budget (PMO's runs can end at max + 1): points stop below the budget, the last
  // segment takes the whole log. freq 2, budget 4, k 1: 0.4 at 2 → 0.4; to 5 calls with 0.9: 3 × 1.3 / 2.
  assert.ok(Math.abs(aucTopK([0.2, 0.4, 0.1, 0.8, 0.9], 1, 4, { freq_log: 2 }) - (0.4 + 1.95) / 4) < 1e-15);
  assert.equal(aucTopK([], 10, 100), 0);
  assert.equal(topKMean([0.2, 0.9, 0.5], 2), 0.7);
  assert.equal(topKMean([0.2], 10), 0.2);
});

test("an oracle's AUC and top-k come from its log", async () => {
  const oracle = new Oracle(await atoms(), { max_oracle_calls: 3 });
  await oracle.score(['CCO', 'CCCC', 'c1ccccc1']);
  // freq 1, k 1: 3 at call 1 → 1.5; 4 at call 2 → 3.5; last segment to 3 calls with 6: (6 + 4) / 2 = 5.
  assert.ok(Math.abs(oracle.aucTopK(1, { freq_log: 1 }) - 10 / 3) < 1e-12);
  assert.equal(oracle.topKMean(2), 5);
  assert.equal(oracle.topKMean(2, 2), 3.5);
});

test('concurrent batches cannot both spend the last call', async () => {
  const oracle = new Oracle(await atoms(), { max_oracle_calls: 1 });
  const [a, b] = await Promise.all([oracle.score(['CCO']), oracle.score(['CCCC'])]);
  assert.deepEqual([a![0]!.status, b![0]!.status], ['scored', 'budget_exhausted']);
  assert.equal(oracle.used, 1);
});

test('a budget must be a whole number of calls', async () => {
  const profile = await atoms();
  for (const max of [0, 1.5, -3, Number.NaN, 10_000_000]) {
    assert.throws(() => new Oracle(profile, { max_oracle_calls: max }), InvalidRequestError);
  }
});
