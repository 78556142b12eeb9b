// The PMO benchmark (Gao et al., NeurIPS 2022) on this package's profiles of the 20 RDKit objectives
// (profiles/pmo/*.toml): per task and seed, the default optimizer and two same-run baselines (Graph GA with its
// published settings, a random screen of the ZINC pool) each get the same oracle budget; the figure is PMO's
// AUC top-10 (mean ± sd over seeds per task, and the sum over tasks). As f-RAG's Table 2 (Lee et al., NeurIPS
// 2024), each run's top-100 also gets its diversity (1 - mean pairwise Tanimoto, Morgan radius 2, 2048 bits),
// novelty (share not in the starting pool) and mean SA score.
//   npm run bench:pmo [-- --tasks 3|qed,median1 --seeds 3|1,2 --budget 10000 --strategies default,graph_ga,random_screen]
// Prints one JSON document (progress on stderr). The full run (20 tasks x 3 seeds x 3 strategies x 10,000 calls)
// takes hours on a 2-core machine.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  defaultPool,
  loadRDKit,
  optimize,
  parseScoringProfile,
  STRATEGIES,
  type OptimizeResult,
  type StrategyName,
} from '@evident/compound-generation';
import { analyseSmiles } from '../src/chem/describe.js';
import { foldMorgan, tanimoto } from '../src/chem/fingerprint.js';
import { molGraph } from '../src/chem/graph.js';
import { morganCounts } from '../src/chem/morgan.js';
import { parseSmiles } from '../src/rdkit.js';

const here = dirname(fileURLToPath(import.meta.url));
const profileDir = join(here, '..', 'profiles', 'pmo');
const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: '20' },
    seeds: { type: 'string', default: '3' },
    budget: { type: 'string', default: '10000' },
    strategies: { type: 'string', default: 'default,graph_ga,random_screen' },
    // After each task, the runs so far as JSON to this file: a long run that is stopped still leaves its figures.
    partial: { type: 'string' },
  },
});

const allTasks = readdirSync(profileDir)
  .filter((f) => f.endsWith('.toml'))
  .map((f) => f.slice(0, -5))
  .sort();
const tasks = /^\d+$/.test(values.tasks!)
  ? allTasks.slice(0, Number(values.tasks))
  : values.tasks!.split(',').map((t) => {
      if (!allTasks.includes(t)) throw new Error(`unknown task ${t}; known: ${allTasks.join(', ')}`);
      return t;
    });
// `--seeds 3` runs seeds 0-2; `--seeds 1,2` runs those seeds (more seeds for a run already made).
const seeds = values.seeds!.includes(',')
  ? values
      .seeds!.split(',')
      .filter((s) => s !== '')
      .map(Number)
  : Array.from({ length: Number(values.seeds) }, (_, i) => i);
const budget = Number(values.budget);
const strategies = values.strategies!.split(',') as StrategyName[];
for (const s of strategies) if (!STRATEGIES.includes(s)) throw new Error(`unknown strategy ${s}`);

const rd = await loadRDKit();
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const sd = (xs: number[]) => {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
};
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

const canonical = (s: string) => {
  const m = parseSmiles(rd, s);
  if (!m) return null;
  try {
    return m.get_smiles();
  } finally {
    m.delete();
  }
};
const startPool = new Set(defaultPool().map(canonical));

function fingerprint(smiles: string) {
  const m = parseSmiles(rd, smiles)!;
  try {
    return foldMorgan(morganCounts(molGraph(m), 2).keys());
  } finally {
    m.delete();
  }
}

/** f-RAG Table 2's measures of a run's top 100. */
function topMeasures(r: OptimizeResult) {
  const top = r.top.slice(0, 100).map((t) => t.smiles);
  const fps = top.map(fingerprint);
  const sims: number[] = [];
  for (let i = 0; i < fps.length; i++) for (let j = i + 1; j < fps.length; j++) sims.push(tanimoto(fps[i]!, fps[j]!));
  return {
    diversity: 1 - mean(sims),
    novelty: mean(top.map((s) => (startPool.has(s) ? 0 : 1))),
    sa: mean(top.map((s) => analyseSmiles(rd, s).properties.sa_score)),
  };
}

interface Run {
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

const started = performance.now();
const loadBefore = loadavg();
const results: Record<string, Record<string, Run[]>> = {};
for (const task of tasks) {
  const profile = await parseScoringProfile(readFileSync(join(profileDir, `${task}.toml`), 'utf8'), {
    source: `${task}.toml`,
  });
  results[task] = {};
  for (const strategy of strategies) {
    const runs: Run[] = [];
    for (const seed of seeds) {
      const t = performance.now();
      const cpu = process.cpuUsage();
      const r = await optimize({ profile, budget: { max_oracle_calls: budget }, seed, strategy });
      const seconds = (performance.now() - t) / 1000;
      const used = process.cpuUsage(cpu);
      const cpuSeconds = (used.user + used.system) / 1e6;
      runs.push({
        seed,
        auc_top10: r4(r.auc_top10),
        top10_mean: r4(r.top10_mean),
        calls_used: r.calls_used,
        stop_reason: r.stop_reason,
        ...Object.fromEntries(Object.entries(topMeasures(r)).map(([k, v]) => [k, r4(v)])),
        seconds: Math.round(seconds * 10) / 10,
        cpu_seconds: Math.round(cpuSeconds * 10) / 10,
      } as Run);
      process.stderr.write(
        `${task} ${strategy} seed ${seed}: auc_top10 ${r.auc_top10.toFixed(4)} (${r.calls_used} calls, ${seconds.toFixed(1)} s, ${cpuSeconds.toFixed(1)} s CPU)\n`,
      );
    }
    results[task]![strategy] = runs;
    if (values.partial) {
      const state = { budget, seeds: seeds.length, load_average: loadavg().map(r4), runs: results };
      writeFileSync(values.partial, `${JSON.stringify(state, null, 2)}\n`);
    }
  }
  profile.dispose();
}

const summary = (runs: Run[]) => ({
  auc_top10_mean: r4(mean(runs.map((r) => r.auc_top10))),
  auc_top10_sd: r4(sd(runs.map((r) => r.auc_top10))),
  diversity: r4(mean(runs.map((r) => r.diversity))),
  novelty: r4(mean(runs.map((r) => r.novelty))),
  sa: r4(mean(runs.map((r) => r.sa))),
  seconds_per_run: Math.round(mean(runs.map((r) => r.seconds)) * 10) / 10,
  cpu_seconds_per_run: Math.round(mean(runs.map((r) => r.cpu_seconds)) * 10) / 10,
});
const perTask = Object.fromEntries(
  tasks.map((t) => [
    t,
    Object.fromEntries(strategies.map((s) => [s, { ...summary(results[t]![s]!), runs: results[t]![s] }])),
  ]),
);
const sums = Object.fromEntries(
  strategies.map((s) => [s, r4(tasks.reduce((a, t) => a + mean(results[t]![s]!.map((r) => r.auc_top10)), 0))]),
);
const overall = Object.fromEntries(
  strategies.map((s) => {
    const all = tasks.flatMap((t) => results[t]![s]!);
    return [
      s,
      {
        diversity: r4(mean(all.map((r) => r.diversity))),
        novelty: r4(mean(all.map((r) => r.novelty))),
        sa: r4(mean(all.map((r) => r.sa))),
      },
    ];
  }),
);
const ratio = (a: string, b: string) => (sums[a] !== undefined && sums[b] ? r4(sums[a]! / sums[b]!) : undefined);
console.log(
  JSON.stringify(
    {
      benchmark: 'pmo',
      tasks: tasks.length,
      task_names: tasks,
      seeds: seeds.length,
      budget,
      strategies,
      auc_top10_sum: sums,
      ratio_default_to_graph_ga: ratio('default', 'graph_ga'),
      ratio_default_to_random_screen: ratio('default', 'random_screen'),
      top100: overall,
      per_task: perTask,
      load_average: { before: loadBefore.map(r4), after: loadavg().map(r4) },
      wall_seconds: Math.round((performance.now() - started) / 100) / 10,
    },
    null,
    2,
  ),
);
