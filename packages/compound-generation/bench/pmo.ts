// The PMO benchmark (Gao et al., NeurIPS 2022) on this package's profiles of the 20 RDKit objectives
// (profiles/pmo/*.toml): per task and seed, the default optimizer and two same-run baselines (Graph GA with its
// published settings, a random screen of the ZINC pool) each get the same oracle budget; the figure is PMO's
// AUC top-10 (mean ± sd over seeds per task, and the sum over tasks). As f-RAG's Table 2 (Lee et al., NeurIPS
// 2024), each run's top-100 also gets its diversity (1 - mean pairwise Tanimoto, Morgan radius 2, 2048 bits),
// novelty (share not in the starting pool) and mean SA score.
//   npm run bench:pmo [-- --tasks 3|qed,median1 --seeds 3|1,2 --budget 10000 --strategies default,graph_ga,random_screen
//     --partial FILE]
//   npm run bench:pmo -- --merge A.json,B.json   (the partial files of several runs, reported as one; nothing runs)
// Prints one JSON document (progress on stderr). The full run (20 tasks x 3 seeds x 3 strategies x 10,000 calls)
// takes hours on a 2-core machine, so it is often made as several processes (seeds or strategies apart) and merged.
import { execFileSync } from 'node:child_process';
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
import { mean, mergeRuns, pmoReport, r4, type PmoRun, type PmoRuns } from './pmo-report.js';

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
    merge: { type: 'string' },
  },
});

/** The commit the code ran at (with a mark when src/ has uncommitted changes), recorded with the runs. */
function commitOf(): string | null {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: here, encoding: 'utf8' }).trim();
    const dirty = git('status', '--porcelain', '--', join(here, '..', 'src')) !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' (src modified)' : ''}`;
  } catch {
    return null;
  }
}

const order = values.strategies!.split(',');
if (values.merge) {
  const files = values.merge.split(',').filter((f) => f !== '');
  const sources = files.map((file) => {
    const state = JSON.parse(readFileSync(file, 'utf8')) as { budget?: number; runs?: PmoRuns; [k: string]: unknown };
    if (!state.runs || typeof state.runs !== 'object') throw new Error(`${file}: no "runs" (not a --partial file)`);
    return { file, state, runs: state.runs };
  });
  const budgets = new Set(sources.map((s) => s.state.budget));
  if (budgets.size !== 1 || typeof sources[0]!.state.budget !== 'number')
    throw new Error(`--merge: the files ran different budgets (${[...budgets].join(', ')})`);
  const runs = mergeRuns(sources);
  const tasks = Object.keys(runs).sort();
  const present = new Set(tasks.flatMap((t) => Object.keys(runs[t]!)));
  const strategies = [...order.filter((s) => present.has(s)), ...[...present].filter((s) => !order.includes(s))];
  console.log(
    JSON.stringify(
      {
        benchmark: 'pmo',
        // Each file's own record (commit, seeds, load averages), without its runs.
        merged_from: sources.map(({ file, state }) => ({ file, ...state, runs: undefined })),
        tasks: tasks.length,
        task_names: tasks,
        budget: sources[0]!.state.budget,
        strategies,
        ...pmoReport(runs, tasks, strategies, sources[0]!.state.budget!),
      },
      null,
      2,
    ),
  );
  process.exit(0);
}

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
const strategies = order as StrategyName[];
for (const s of strategies) if (!STRATEGIES.includes(s)) throw new Error(`unknown strategy ${s}`);

const rd = await loadRDKit();

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

const started = performance.now();
const loadBefore = loadavg();
const commit = commitOf();
const results: PmoRuns = {};
for (const task of tasks) {
  const profile = await parseScoringProfile(readFileSync(join(profileDir, `${task}.toml`), 'utf8'), {
    source: `${task}.toml`,
  });
  results[task] = {};
  for (const strategy of strategies) {
    const runs: PmoRun[] = [];
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
      } as PmoRun);
      process.stderr.write(
        `${task} ${strategy} seed ${seed}: auc_top10 ${r.auc_top10.toFixed(4)} (${r.calls_used} calls, ${seconds.toFixed(1)} s, ${cpuSeconds.toFixed(1)} s CPU)\n`,
      );
    }
    results[task]![strategy] = runs;
    if (values.partial) {
      const state = {
        budget,
        seeds,
        strategies,
        commit,
        load_average_start: loadBefore.map(r4),
        load_average: loadavg().map(r4),
        runs: results,
      };
      writeFileSync(values.partial, `${JSON.stringify(state, null, 2)}\n`);
    }
  }
  profile.dispose();
}

console.log(
  JSON.stringify(
    {
      benchmark: 'pmo',
      tasks: tasks.length,
      task_names: tasks,
      seeds,
      budget,
      strategies,
      commit,
      ...pmoReport(results, tasks, strategies, budget),
      load_average: { before: loadBefore.map(r4), after: loadavg().map(r4) },
      wall_seconds: Math.round((performance.now() - started) / 100) / 10,
    },
    null,
    2,
  ),
);
