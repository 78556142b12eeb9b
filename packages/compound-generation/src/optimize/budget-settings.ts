// The default optimizer's settings as a function of the oracle budget. MOL_GA_SETTINGS were made for PMO's
// 10,000 calls: 150 random starts, the surrogate trusted after 100 calls, batches of 25. Under an expensive oracle
// (docking: a few hundred calls) that spends most of the budget on a random sample of the pool before the first
// offspring is scored, so the run cannot differ from a random screen. The rule below scales the three settings
// that decide when the search starts to learn, and saturates at MOL_GA_SETTINGS, so every budget of
// FULL_SETTINGS_BUDGET calls or more runs exactly as before (the PMO results stand).
// - Start population: a tenth of the budget, at least 20. Sequential model-based optimisation does better overall
//   with a small initial design than a large one (Bossek, Doerr and Kerschke, "Initial design strategies and their
//   effects on sequential model-based optimization", GECCO 2020). A tenth meets PMO's 150 at 1,500 calls; 20
//   keeps Mol GA's quantile sampling and the kNN (k = 10) fed.
// - Surrogate warm-up: PMO's ratio, two thirds of the start, so as at 10,000 calls the surrogate screens from the
//   first generation even when hard filters refuse a third of the starts.
// - Batch: the budget over 40, 5 to 25, so a small budget still gets about 40 rounds of feedback. A batch's
//   members are chosen without each other's scores; the fewer molecules per round, the closer to sequential
//   search, which is the more sample-efficient (batch GP-UCB's regret grows with the batch: Desautels, Krause and
//   Burdick, JMLR 15, 2014). Five keeps the surrogate choosing 5 of 20 offspring (oversample 4, unchanged).
import { MOL_GA_SETTINGS, type MolGaSettings } from './mol-ga.js';

/** Share of the budget spent on the random start. */
const START_SHARE = 0.1;
const MIN_START = 20;
/** Rounds of feedback a small budget gets: batch = budget / this. */
const TARGET_GENERATIONS = 40;
const MIN_BATCH = 5;

/** The budget from which the rule gives MOL_GA_SETTINGS unchanged (start 150 = 10% of 1,500). */
export const FULL_SETTINGS_BUDGET = Math.ceil(MOL_GA_SETTINGS.start_size / START_SHARE);

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/**
 * The settings `surrogate_ga` (the default) and `mol_ga` run with for a budget of `maxOracleCalls`: `base` with
 * start_size, surrogate_warmup and batch_size scaled to the budget (see the file's comment); `base` itself, all
 * fields equal, from FULL_SETTINGS_BUDGET calls on.
 */
export function molGaSettingsFor(
  maxOracleCalls: number,
  base: Readonly<MolGaSettings> = MOL_GA_SETTINGS,
): MolGaSettings {
  if (maxOracleCalls >= FULL_SETTINGS_BUDGET) return { ...base };
  const start_size = clamp(Math.round(maxOracleCalls * START_SHARE), MIN_START, base.start_size);
  const warmupShare = base.surrogate_warmup / base.start_size;
  return {
    ...base,
    start_size,
    surrogate_warmup: Math.min(base.surrogate_warmup, Math.round(start_size * warmupShare)),
    batch_size: clamp(Math.round(maxOracleCalls / TARGET_GENERATIONS), MIN_BATCH, base.batch_size),
  };
}
