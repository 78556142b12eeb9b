// optimize(): a sample-efficient search for molecules that score high under a scoring profile, within an oracle
// budget counted as PMO counts it. The strategy proposes molecules; everything scored goes through one Oracle,
// whose call log, AUCs and best molecules are the result.
import { GenerationAbortedError, InvalidRequestError, type FieldProblem } from '../errors.js';
import { Random } from '../generation/prng.js';
import { loadRDKit } from '../rdkit.js';
import { Oracle } from '../profile/oracle.js';
import { topKMean } from '../profile/auc.js';
import { runGraphGa } from './graph-ga.js';
import { molGaSettingsFor } from './budget-settings.js';
import { runMolGa } from './mol-ga.js';
import { defaultPool } from './pool.js';
import { runRandomScreen } from './random-screen.js';
import { Search } from './search.js';
import { STRATEGIES, type OptimizeOptions, type OptimizeResult, type OptimizeStopReason } from './types.js';

/** What `strategy: 'default'` runs. */
export const DEFAULT_STRATEGY = 'surrogate_ga' as const;
const DEFAULT_TOP_N = 100;

function validate(options: OptimizeOptions): void {
  const problems: FieldProblem[] = [];
  const { seed, strategy, initial_pool, top_n, filter, profile } = options;
  if (!profile || typeof profile.score !== 'function') {
    problems.push({ path: '/profile', message: 'must be a loaded scoring profile' });
  }
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    problems.push({ path: '/seed', message: 'must be a whole number from 0 to 4294967295' });
  }
  if (strategy !== undefined && !STRATEGIES.includes(strategy)) {
    problems.push({ path: '/strategy', message: `must be one of ${STRATEGIES.join(', ')}` });
  }
  if (initial_pool !== undefined) {
    if (!Array.isArray(initial_pool) || initial_pool.length === 0) {
      problems.push({ path: '/initial_pool', message: 'must be a non-empty list of SMILES' });
    } else {
      const bad = initial_pool.findIndex((s) => typeof s !== 'string');
      if (bad >= 0) problems.push({ path: `/initial_pool/${bad}`, message: 'must be a SMILES string' });
    }
  }
  if (top_n !== undefined && (!Number.isInteger(top_n) || top_n < 1 || top_n > 100_000)) {
    problems.push({ path: '/top_n', message: 'must be a whole number from 1 to 100000' });
  }
  if (filter !== undefined && typeof filter !== 'function') {
    problems.push({ path: '/filter', message: 'must be a function' });
  }
  if (problems.length) throw new InvalidRequestError(problems);
}

export async function optimize(options: OptimizeOptions): Promise<OptimizeResult> {
  validate(options);
  const t0 = performance.now();
  // The budget is checked here, before any work.
  const oracle = new Oracle(options.profile, options.budget);
  const strategy =
    options.strategy === undefined || options.strategy === 'default' ? DEFAULT_STRATEGY : options.strategy;
  if (options.signal?.aborted) throw new GenerationAbortedError();
  const rd = await loadRDKit();
  const pool = options.initial_pool ?? defaultPool();
  const search = new Search(rd, oracle, options.filter, options.signal, options.onProgress);
  const rng = new Random(options.seed);
  let stop: OptimizeStopReason;
  switch (strategy) {
    case 'random_screen':
      stop = await runRandomScreen(search, pool, rng);
      break;
    case 'graph_ga':
      stop = await runGraphGa(search, pool, rng);
      break;
    // Both scale start, warm-up and batch to the budget; from 1,500 calls on they run MOL_GA_SETTINGS as tuned.
    case 'mol_ga':
      stop = await runMolGa(search, pool, rng, { ...molGaSettingsFor(oracle.maxOracleCalls), oversample: 1 });
      break;
    case 'surrogate_ga':
      stop = await runMolGa(search, pool, rng, molGaSettingsFor(oracle.maxOracleCalls));
      break;
  }
  const calls = [...oracle.log];
  const scores = calls.map((c) => c.score);
  const top = [...calls]
    .sort((a, b) => b.score - a.score || a.call - b.call)
    .slice(0, options.top_n ?? DEFAULT_TOP_N)
    .map((c) => ({ smiles: c.smiles, score: c.score, call: c.call }));
  return {
    strategy,
    seed: options.seed,
    max_oracle_calls: oracle.maxOracleCalls,
    calls_used: oracle.used,
    stop_reason: stop,
    endpoints: [...options.profile.endpoints],
    calls,
    top,
    auc_top1: oracle.aucTopK(1),
    auc_top10: oracle.aucTopK(10),
    auc_top100: oracle.aucTopK(100),
    top1: topKMean(scores, 1),
    top10_mean: topKMean(scores, 10),
    top100_mean: topKMean(scores, 100),
    elapsed_ms: Math.round(performance.now() - t0),
  };
}
