// Figures of bench/docking-opt.ts: a run's top-10 curve in kcal/mol, and per target the strategies' means with
// standard errors over seeds and the paired differences default − baseline.
import { aucTopK, topKMean } from '../src/profile/auc.js';

/** One finished run, one line of the --partial JSONL file. */
export interface DockingRun {
  target: string;
  seed: number;
  strategy: string;
  budget: number;
  exhaustiveness: number;
  profile: string;
  /** The oracle's GridMode (bench/docking-opt-oracle.ts); absent in runs made before it existed: 'computed'. */
  grid?: string;
  calls_used: number;
  stop_reason: string;
  /** Every oracle call in order: [canonical SMILES, Vina score in kcal/mol or null when it could not be docked]. */
  calls: Array<[string, number | null]>;
  /** The top-10 mean (kcal/mol) after every `every` calls and at the end: [calls, mean]. */
  curve: Array<[number, number]>;
  /** PMO's AUC top-10 of the profile's score (in [0, 1]), read every `every` calls. */
  auc_top10: number;
  /** The same area on the kcal/mol curve (a call that could not be docked counts 0 kcal/mol): kcal/mol. */
  auc_top10_kcal: number;
  top10_kcal: number;
  top1_kcal: number;
  fresh_preparations: number;
  fresh_dockings: number;
  cached_scores: number;
  docking_failures: number;
  wall_s: number;
  /** CPU of this process and its finished children (Open Babel, Vina) during the run. */
  cpu_s: number;
  load_average: number[];
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

/** kcal/mol per call, best = most negative; an undockable call counts 0 (what it adds to a top-10: nothing). */
export function kcalFigures(calls: Array<[string, number | null]>, scores: number[], budget: number, every: number) {
  const neg = calls.map(([, s]) => (s === null ? 0 : -s));
  const curve: Array<[number, number]> = [];
  for (let i = every; i < neg.length; i += every) curve.push([i, r3(-topKMean(neg.slice(0, i), 10))]);
  curve.push([neg.length, r3(-topKMean(neg, 10))]);
  return {
    curve,
    auc_top10: r3(aucTopK(scores, 10, budget, { freq_log: every })),
    auc_top10_kcal: r3(-aucTopK(neg, 10, budget, { freq_log: every })),
    top10_kcal: r3(-topKMean(neg, 10)),
    top1_kcal: r3(-topKMean(neg, 1)),
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** Standard error of the mean (sample sd / √n); NaN below two values. */
function se(xs: number[]): number {
  if (xs.length < 2) return Number.NaN;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1) / xs.length);
}
const fig = (x: number) => (Number.isFinite(x) ? r3(x) : null);

type Measure = 'top10_kcal' | 'auc_top10_kcal';

/**
 * Per strategy mean ± SE of a measure over seeds, and default − baseline over the seeds both have (paired): its
 * mean, SE and how many SEs the default is better by (kcal/mol: negative differences are better, so
 * `ses_better` = −mean/SE).
 */
export function summarise(runs: DockingRun[], measure: Measure, strategies: string[]) {
  const by = (s: string) => new Map(runs.filter((r) => r.strategy === s).map((r) => [r.seed, r[measure]]));
  const per = Object.fromEntries(
    strategies.map((s) => {
      const v = [...by(s).values()];
      return [s, { seeds: v.length, mean: v.length ? fig(mean(v)) : null, se: fig(se(v)) }];
    }),
  );
  const base = by('default');
  const differences = Object.fromEntries(
    strategies
      .filter((s) => s !== 'default')
      .map((s) => {
        const other = by(s);
        const d = [...base.keys()].filter((k) => other.has(k)).map((k) => base.get(k)! - other.get(k)!);
        const m = d.length ? mean(d) : Number.NaN;
        const e = se(d);
        return [`default_minus_${s}`, { seeds: d.length, mean: fig(m), se: fig(e), ses_better: fig(-m / e) }];
      }),
  );
  return { per_strategy: per, differences };
}

/** Average ranks (ties share the mean of their positions), 1-based. */
function ranks(xs: number[]): number[] {
  const order = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const r = new Array<number>(xs.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    for (let k = i; k <= j; k++) r[order[k]![1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return r;
}

/**
 * How two oracles agree on the same molecules: Spearman's ρ (Pearson on ranks), mean Δ (b − a), its standard
 * deviation (the part of the disagreement a constant offset does not explain, which is what reorders molecules),
 * mean and max |Δ|.
 */
export function agreement(pairs: Array<[number, number]>) {
  const n = pairs.length;
  if (n < 2) return { n, spearman: null, mean_delta: null, sd_delta: null, mean_abs_delta: null, max_abs_delta: null };
  const ra = ranks(pairs.map((p) => p[0]));
  const rb = ranks(pairs.map((p) => p[1]));
  const m = (n + 1) / 2;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (ra[i]! - m) * (rb[i]! - m);
    saa += (ra[i]! - m) ** 2;
    sbb += (rb[i]! - m) ** 2;
  }
  const d = pairs.map(([a, b]) => b - a);
  const md = d.reduce((s, x) => s + x, 0) / n;
  return {
    n,
    spearman: saa && sbb ? r3(sab / Math.sqrt(saa * sbb)) : null,
    mean_delta: r3(md),
    sd_delta: r3(Math.sqrt(d.reduce((s, x) => s + (x - md) ** 2, 0) / (n - 1))),
    mean_abs_delta: r3(d.reduce((s, x) => s + Math.abs(x), 0) / n),
    max_abs_delta: r3(Math.max(...d.map(Math.abs))),
  };
}
