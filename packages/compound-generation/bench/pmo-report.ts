// The PMO bench's summary of its runs (bench/pmo.ts), shared by a fresh run and by `--merge` of the partial files
// of several runs: per task and strategy the AUC top-10 mean ± sd over seeds, per strategy the sum of the per-task
// means with the per-seed sums and their sd, how many tasks are ahead of each published method's mean, and the
// top-100 diversity / novelty / SA (f-RAG's Table 2) averaged over the runs.
import { PUBLISHED_METHODS, publishedAuc } from './pmo-published.js';

export interface PmoRun {
  seed: number;
  auc_top10: number;
  top10_mean: number;
  calls_used: number;
  stop_reason: string;
  diversity: number;
  novelty: number;
  sa: number;
  seconds: number;
  /** CPU time of the process during the run (user + system): less sensitive to other load than wall time. */
  cpu_seconds: number;
}
/** task -> strategy -> runs (one per seed). */
export type PmoRuns = Record<string, Record<string, PmoRun[]>>;

export const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
/** Sample standard deviation (n - 1); 0 for fewer than two values. */
export const sd = (xs: number[]) => {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
};
/** PMO's oracle budget, at which the published figures were made. */
export const PMO_BUDGET = 10_000;
export const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
const r1 = (x: number) => Math.round(x * 10) / 10;

function taskSummary(runs: PmoRun[]) {
  return {
    seeds: runs.map((r) => r.seed),
    auc_top10_mean: r4(mean(runs.map((r) => r.auc_top10))),
    auc_top10_sd: r4(sd(runs.map((r) => r.auc_top10))),
    diversity: r4(mean(runs.map((r) => r.diversity))),
    novelty: r4(mean(runs.map((r) => r.novelty))),
    sa: r4(mean(runs.map((r) => r.sa))),
    seconds_per_run: r1(mean(runs.map((r) => r.seconds))),
    cpu_seconds_per_run: r1(mean(runs.map((r) => r.cpu_seconds))),
    runs,
  };
}

/** One strategy over the tasks it has runs on. */
function strategySummary(runs: PmoRuns, tasks: string[], strategy: string, budget: number) {
  const ran = tasks.filter((t) => (runs[t]?.[strategy]?.length ?? 0) > 0);
  const aucMean = (t: string) => mean(runs[t]![strategy]!.map((r) => r.auc_top10));
  // A seed's sum needs that seed on every task run; seeds missing somewhere are named instead of summed.
  const seedSets = ran.map((t) => new Set(runs[t]![strategy]!.map((r) => r.seed)));
  const allSeeds = [...new Set(seedSets.flatMap((s) => [...s]))].sort((a, b) => a - b);
  const complete = allSeeds.filter((s) => seedSets.every((set) => set.has(s)));
  const perSeed = complete.map((s) =>
    ran.reduce((a, t) => a + runs[t]![strategy]!.find((r) => r.seed === s)!.auc_top10, 0),
  );
  const ahead = Object.fromEntries(
    PUBLISHED_METHODS.map((m) => {
      const compared = ran.filter((t) => publishedAuc(t, m) !== undefined);
      const behind = compared.filter((t) => !(aucMean(t) > publishedAuc(t, m)!));
      return [m, { ahead: compared.length - behind.length, of: compared.length, not_ahead: behind }];
    }),
  );
  const all = ran.flatMap((t) => runs[t]![strategy]!);
  // The published figures are at PMO's 10,000 calls; AUC grows with the budget, so other budgets are not compared.
  const published = budget === PMO_BUDGET;
  return {
    tasks_run: ran.length,
    auc_top10_sum: r4(ran.reduce((a, t) => a + aucMean(t), 0)),
    per_seed_sums: Object.fromEntries(complete.map((s, i) => [s, r4(perSeed[i]!)])),
    auc_top10_sum_sd: r4(sd(perSeed)),
    seeds_incomplete: allSeeds.filter((s) => !complete.includes(s)),
    published_sums: !published
      ? `not compared: budget ${budget}, the published figures are at ${PMO_BUDGET}`
      : Object.fromEntries(
          PUBLISHED_METHODS.map((m) => [m, r4(ran.reduce((a, t) => a + (publishedAuc(t, m) ?? 0), 0))]),
        ),
    tasks_ahead_of_published: published ? ahead : undefined,
    top100: {
      diversity: r4(mean(all.map((r) => r.diversity))),
      novelty: r4(mean(all.map((r) => r.novelty))),
      sa: r4(mean(all.map((r) => r.sa))),
    },
    cpu_seconds_per_run: r1(mean(all.map((r) => r.cpu_seconds))),
  };
}

/** The bench's report of `runs` over `tasks` x `strategies`. */
export function pmoReport(runs: PmoRuns, tasks: string[], strategies: string[], budget: number) {
  const summaries = Object.fromEntries(strategies.map((s) => [s, strategySummary(runs, tasks, s, budget)]));
  const sum = (s: string) => summaries[s]?.auc_top10_sum;
  const ratio = (a: string, b: string) => (sum(a) !== undefined && sum(b) ? r4(sum(a)! / sum(b)!) : undefined);
  return {
    auc_top10_sum: Object.fromEntries(strategies.map((s) => [s, sum(s)])),
    ratio_default_to_graph_ga: ratio('default', 'graph_ga'),
    ratio_default_to_random_screen: ratio('default', 'random_screen'),
    by_strategy: summaries,
    per_task: Object.fromEntries(
      tasks.map((t) => [
        t,
        Object.fromEntries(strategies.filter((s) => runs[t]?.[s]?.length).map((s) => [s, taskSummary(runs[t]![s]!)])),
      ]),
    ),
  };
}

/** Runs of several partial files in one, refusing a task/strategy/seed found twice (two runs are not one). */
export function mergeRuns(sources: Array<{ file: string; runs: PmoRuns }>): PmoRuns {
  const merged: PmoRuns = {};
  const from = new Map<string, string>();
  for (const { file, runs } of sources) {
    for (const [task, byStrategy] of Object.entries(runs)) {
      for (const [strategy, list] of Object.entries(byStrategy)) {
        for (const run of list) {
          const key = `${task}/${strategy}/seed ${run.seed}`;
          if (from.has(key)) throw new Error(`${key} is in both ${from.get(key)} and ${file}`);
          from.set(key, file);
          const byTask = merged[task] ?? {};
          merged[task] = byTask;
          const into = byTask[strategy] ?? [];
          byTask[strategy] = into;
          into.push(run);
        }
      }
    }
  }
  for (const byStrategy of Object.values(merged))
    for (const list of Object.values(byStrategy)) list.sort((a, b) => a.seed - b.seed);
  return merged;
}
