// optimize(): the budget by PMO's rules, determinism, hard constraints, abort, and PMO's AUC of the call log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadScoringProfile, optimize, type OptimizeProgress } from '@evident/compound-generation';

/** Total = the number of heavy atoms: easy to follow by hand. */
const atoms = () =>
  loadScoringProfile({
    scoring: { type: 'arithmetic_mean', component: [{ NumHeavyAtoms: { endpoint: [{ name: 'atoms' }] } }] },
  });

/** QED: cheap enough for small runs, and a score in 0..1. */
const qed = () =>
  loadScoringProfile({ scoring: { type: 'arithmetic_mean', component: [{ Qed: { endpoint: [{ name: 'qed' }] } }] } });

for (const strategy of ['graph_ga', 'random_screen', 'mol_ga', 'default'] as const) {
  test(`${strategy}: uses exactly the budget, each call a distinct molecule, numbered in order`, async () => {
    const progress: OptimizeProgress[] = [];
    const r = await optimize({
      profile: await qed(),
      budget: { max_oracle_calls: 230 },
      seed: 1,
      strategy,
      onProgress: (p) => progress.push(p),
    });
    assert.equal(r.calls_used, 230);
    assert.equal(r.stop_reason, 'budget_exhausted');
    assert.equal(r.calls.length, 230);
    assert.deepEqual(
      r.calls.map((c) => c.call),
      Array.from({ length: 230 }, (_, i) => i + 1),
    );
    assert.equal(new Set(r.calls.map((c) => c.smiles)).size, 230);
    assert.equal(r.calls[0]!.components[0]!.name, 'qed');
    assert.equal(progress.at(-1)!.calls_used, 230);
    assert.ok(progress.every((p, i) => i === 0 || p.calls_used > progress[i - 1]!.calls_used));
    const best = Math.max(...r.calls.map((c) => c.score));
    assert.equal(progress.at(-1)!.best, best);
    assert.equal(r.top[0]!.score, best);
    assert.equal(r.top1, best);
  });
}

test('a seed gives the same run; another seed another run', async () => {
  const profile = await qed();
  const run = (seed: number) =>
    optimize({ profile, budget: { max_oracle_calls: 200 }, seed, strategy: 'default' }).then((r) =>
      r.calls.map((c) => `${c.smiles} ${c.score}`),
    );
  const a = await run(7);
  assert.deepEqual(await run(7), a);
  assert.notDeepEqual(await run(8), a);
});

test('hard constraints: a molecule the filter refuses is never scored and costs nothing', async () => {
  const asked = new Set<string>();
  const r = await optimize({
    profile: await qed(),
    budget: { max_oracle_calls: 150 },
    seed: 2,
    strategy: 'default',
    filter: (s) => {
      asked.add(s);
      return !s.includes('N') && !s.includes('n');
    },
  });
  assert.equal(r.calls_used, 150);
  assert.ok(r.calls.every((c) => !/n/i.test(c.smiles)));
  assert.ok(
    [...asked].some((s) => /n/i.test(s)),
    'the filter saw molecules it refused',
  );
});

test('an abort rejects the run with code aborted at the next batch', async () => {
  const profile = await qed();
  const ac = new AbortController();
  let last = 0;
  await assert.rejects(
    optimize({
      profile,
      budget: { max_oracle_calls: 5000 },
      seed: 0,
      signal: ac.signal,
      onProgress: (p) => {
        last = p.calls_used;
        if (p.calls_used >= 100) ac.abort();
      },
    }),
    (e: { code?: string }) => e.code === 'aborted',
  );
  assert.ok(last >= 100 && last < 400, `stopped after ${last} calls`);
  await assert.rejects(
    optimize({ profile, budget: { max_oracle_calls: 100 }, seed: 0, signal: AbortSignal.abort() }),
    (e: { code?: string }) => e.code === 'aborted',
  );
});

test('bad options are refused before anything runs, naming the field', async () => {
  const profile = await qed();
  await assert.rejects(optimize({ profile, budget: { max_oracle_calls: 0 }, seed: 0 }), /max_oracle_calls/);
  await assert.rejects(optimize({ profile, budget: { max_oracle_calls: 10 }, seed: -1 }), /seed/);
  await assert.rejects(
    optimize({ profile, budget: { max_oracle_calls: 10 }, seed: 0, strategy: 'nope' as 'default' }),
    /strategy/,
  );
  await assert.rejects(
    optimize({ profile, budget: { max_oracle_calls: 10 }, seed: 0, initial_pool: [] }),
    /initial_pool/,
  );
});

test("AUC top-1/10/100 follow PMO's curve: points every 100 calls, the last to the calls used, flat to the budget", async () => {
  // 150 n-alkanes scored by their atom count, screened in a random order: the pool runs out at 150 calls of 400.
  const pool = Array.from({ length: 150 }, (_, i) => 'C'.repeat(i + 1));
  const r = await optimize({
    profile: await atoms(),
    budget: { max_oracle_calls: 400 },
    seed: 5,
    strategy: 'random_screen',
    initial_pool: pool,
  });
  assert.equal(r.stop_reason, 'pool_exhausted');
  assert.equal(r.calls_used, 150);
  const scores = r.calls.map((c) => c.score);
  assert.deepEqual(
    [...scores].sort((a, b) => a - b),
    pool.map((_, i) => i + 1),
  );
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const topAfter = (n: number, k: number) =>
    mean(
      scores
        .slice(0, n)
        .sort((a, b) => b - a)
        .slice(0, k),
    );
  for (const [k, auc] of [
    [1, r.auc_top1],
    [10, r.auc_top10],
    [100, r.auc_top100],
  ] as const) {
    const at100 = topAfter(100, k);
    const at150 = topAfter(150, k);
    // (0,0)-(100,at100), (100,at100)-(150,at150), then at150 held to 400; divided by 400.
    const expected = (50 * at100 + 25 * (at100 + at150) + 250 * at150) / 400;
    assert.ok(Math.abs(auc - expected) < 1e-9, `k=${k}: ${auc} vs ${expected}`);
  }
  // Top-10 of 1..150 is 141..150, and the screen has seen them all by the end.
  assert.equal(r.top10_mean, 145.5);
  assert.equal(r.top1, 150);
});

test('the default optimizer beats the random screen by a wide margin on an easy objective (logP, 300 calls)', async () => {
  // Random ZINC molecules' top-10 logP is about 5; growing lipophilic molecules is easy for a GA. Two random
  // screens differ by a few tenths.
  const profile = await loadScoringProfile({
    scoring: { type: 'arithmetic_mean', component: [{ SlogP: { endpoint: [{ name: 'logp' }] } }] },
  });
  const run = (strategy: 'default' | 'random_screen') =>
    optimize({ profile, budget: { max_oracle_calls: 300 }, seed: 11, strategy });
  const screen = await run('random_screen');
  const designed = await run('default');
  assert.ok(
    designed.top10_mean > screen.top10_mean + 2,
    `top-10 logP: default ${designed.top10_mean}, random screen ${screen.top10_mean}`,
  );
  assert.ok(designed.auc_top10 > screen.auc_top10 + 0.5, `AUC: ${designed.auc_top10} vs ${screen.auc_top10}`);
});

test("Mol GA's quantile-uniform sampling: as many parents per quantile 1 - 10^x, each uniform above it", async () => {
  const { quantileUniformSample } = await import('../src/optimize/mol-ga.js');
  const { Random } = await import('../src/generation/prng.js');
  // 1,000 molecules scored 0.999 down to 0 (best first); 25,000 draws, 1,000 per quantile.
  const population = Array.from({ length: 1000 }, (_, i) => ({
    smiles: `m${i}`,
    score: (999 - i) / 1000,
    call: i + 1,
  }));
  const draws = quantileUniformSample(population, 25_000, new Random(3));
  assert.equal(draws.length, 25_000);
  const rank = (s: string) => Number(s.slice(1));
  // Share of draws from the best 1% (ranks 0-9): quantile j keeps the top 10^(-3 + 3j/24) of the molecules, so
  // its draws fall in the best 1% with probability min(1, 0.01 / that share) (about 0.48 in all); the worst
  // half with probability max(0, 1 - 0.5 / that share) (about 0.038).
  let expected = 0;
  for (let j = 0; j < 25; j++) expected += Math.min(1, 0.01 / 10 ** (-3 + (3 * j) / 24)) / 25;
  const share = draws.filter((s) => rank(s) < 10).length / draws.length;
  assert.ok(Math.abs(share - expected) < 0.02, `best 1%: ${share} vs ${expected}`);
  // The whole population is reachable (the last quantile is 0), the worst half rarely.
  assert.ok(draws.some((s) => rank(s) > 990));
  const worstHalf = draws.filter((s) => rank(s) >= 500).length / draws.length;
  assert.ok(worstHalf > 0.02 && worstHalf < 0.06, `worst half: ${worstHalf}`);
});
