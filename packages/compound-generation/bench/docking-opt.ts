// Docking as the objective, measured as PMO measures an optimizer (issue 38, point 7): per target, seed and
// strategy, optimize() gets the same budget of docking calls under profiles/docking/vina.toml (the Vina score in
// the target's pocket) with hard property filters applied before scoring (a refused molecule costs no call).
// Each run records its calls in order, the top-10 mean (kcal/mol) every N calls, PMO's AUC top-10 and the final
// top-10 mean; per target: mean ± SE over seeds per strategy, and the paired difference default − each baseline
// with its SE and how many SEs it is.
//   npm run bench:pmo:docking -- --targets 2src,1lee --seeds 5 --budget 50 --partial runs.jsonl
// Flags (or env): --targets (BENCH_TARGETS) 2src,1lee; --seeds (BENCH_SEEDS) 5 = seeds 0-4, or a list 5,6;
// --budget (BENCH_BUDGET) 50; --exhaustiveness (BENCH_EXHAUSTIVENESS) 1; --concurrency (BENCH_CONCURRENCY) cores;
// --strategies default,graph_ga,random_screen; --every (curve and AUC step) 10; --partial FILE: JSONL of
// finished runs, read first (runs already there are not run again) and appended to, so runs accumulate across
// sessions; --cache FILE (default FILE.cache.jsonl beside --partial): prepared ligands and scores (see
// ./docking-opt-oracle.ts); --ligand-cache FILE: the prepared ligands elsewhere (default: in --cache); --grid
// computed|maps (BENCH_GRID, default computed): how Vina gets its grid (GridMode in ./docking-opt-oracle.ts). Prints one JSON document; progress on stderr. Needs `vina` and `obabel`
// (apt-get install autodock-vina openbabel); reports them missing otherwise.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadRDKit, optimize, parseScoringProfile, STRATEGIES, type StrategyName } from '@evident/compound-generation';
import { findDockingTools } from '@evident/docking';
import { cachedPort, DockingCache, GRID_MODES, slots, type GridMode, type Pocket } from './docking-opt-oracle.js';
import { cpuSeconds, openPocket, TARGETS } from './docking-opt-pockets.js';
import { admitsFor, FILTERS } from './docking-opt-filters.js';
import { kcalFigures, summarise, type DockingRun } from './docking-opt-stats.js';

const env = process.env;
const { values } = parseArgs({
  options: {
    targets: { type: 'string', default: env.BENCH_TARGETS ?? '2src,1lee' },
    seeds: { type: 'string', default: env.BENCH_SEEDS ?? '5' },
    budget: { type: 'string', default: env.BENCH_BUDGET ?? '50' },
    exhaustiveness: { type: 'string', default: env.BENCH_EXHAUSTIVENESS ?? '1' },
    concurrency: { type: 'string', default: env.BENCH_CONCURRENCY ?? String(availableParallelism()) },
    strategies: { type: 'string', default: env.BENCH_STRATEGIES ?? 'default,graph_ga,random_screen' },
    every: { type: 'string', default: env.BENCH_EVERY ?? '10' },
    partial: { type: 'string', default: env.BENCH_PARTIAL },
    cache: { type: 'string', default: env.BENCH_CACHE },
    'ligand-cache': { type: 'string', default: env.BENCH_LIGAND_CACHE },
    grid: { type: 'string', default: env.BENCH_GRID ?? 'computed' },
  },
});

const positiveInt = (name: string, v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number ≥ 1 (got ${v})`);
  return n;
};
const targets = values.targets!.split(',').map((t) => {
  if (!TARGETS[t]) throw new Error(`--targets: unknown target ${t}; known: ${Object.keys(TARGETS).join(', ')}`);
  return t;
});
const seeds = values.seeds!.includes(',')
  ? values.seeds!.split(',').map((s) => positiveInt('seeds', String(Number(s) + 1)) - 1)
  : Array.from({ length: positiveInt('seeds', values.seeds!) }, (_, i) => i);
const budget = positiveInt('budget', values.budget!);
const exhaustiveness = positiveInt('exhaustiveness', values.exhaustiveness!);
const concurrency = positiveInt('concurrency', values.concurrency!);
const every = positiveInt('every', values.every!);
const strategies = values.strategies!.split(',') as StrategyName[];
for (const s of strategies) if (!STRATEGIES.includes(s)) throw new Error(`--strategies: unknown strategy ${s}`);
const PROFILE = 'profiles/docking/vina.toml';
const grid = values.grid as GridMode;
if (!GRID_MODES.includes(grid)) throw new Error(`--grid must be one of ${GRID_MODES.join(', ')} (got ${grid})`);

const tools = await findDockingTools().catch((e: Error) => e);
if (tools instanceof Error) {
  console.log(JSON.stringify({ benchmark: 'pmo docking', missing: tools.message }, null, 2));
  process.exit(0);
}

const admits = admitsFor(await loadRDKit());

// A run's oracle settings are part of its key: runs (and cached scores) of another grid mode never mix.
const runKey = (
  r: Pick<DockingRun, 'target' | 'seed' | 'strategy' | 'budget' | 'exhaustiveness' | 'profile' | 'grid'>,
) => `${r.target}|${r.seed}|${r.strategy}|${r.budget}|${r.exhaustiveness}|${r.profile}|${r.grid ?? 'computed'}`;
const finished: DockingRun[] = [];
if (values.partial && existsSync(values.partial)) {
  for (const line of readFileSync(values.partial, 'utf8').split('\n')) {
    if (line.trim()) finished.push(JSON.parse(line) as DockingRun);
  }
}
const done = new Set(finished.map(runKey));

const cacheFile = values.cache ?? (values.partial ? `${values.partial}.cache.jsonl` : undefined);
const cache = new DockingCache(tools, cacheFile, slots(concurrency), grid, values['ligand-cache'] ?? cacheFile);
const profileText = readFileSync(fileURLToPath(new URL(`../${PROFILE}`, import.meta.url)), 'utf8');
const started = performance.now();
const loadBefore = loadavg();
const pockets = new Map<string, Pocket>();
const r3 = (x: number) => Math.round(x * 1000) / 1000;

async function runOne(target: string, seed: number, strategy: StrategyName): Promise<DockingRun> {
  let pocket = pockets.get(target);
  if (!pocket) {
    pocket = await openPocket(target, tools as Exclude<typeof tools, Error>, {
      exhaustiveness,
      concurrency,
      reuseMaps: grid === 'maps',
    });
    pockets.set(target, pocket);
  }
  const profile = await parseScoringProfile(profileText, {
    source: PROFILE,
    docking: cachedPort(cache, pocket, exhaustiveness),
  });
  const before = { ...cache.counters };
  const cpu = cpuSeconds();
  const t = performance.now();
  try {
    const r = await optimize({ profile, budget: { max_oracle_calls: budget }, seed, strategy, filter: admits });
    const calls = r.calls.map((c): [string, number | null] => {
      const raw = c.components[0]?.raw;
      return [c.smiles, typeof raw === 'number' ? raw : null];
    });
    const c = cache.counters;
    return {
      target,
      seed,
      strategy,
      budget,
      exhaustiveness,
      profile: PROFILE,
      grid,
      calls_used: r.calls_used,
      stop_reason: r.stop_reason,
      calls,
      ...kcalFigures(
        calls,
        r.calls.map((x) => x.score),
        budget,
        every,
      ),
      fresh_preparations: c.fresh_preparations - before.fresh_preparations,
      fresh_dockings: c.fresh_dockings - before.fresh_dockings,
      cached_scores: c.cached_scores - before.cached_scores,
      docking_failures: c.failures - before.failures,
      wall_s: r3((performance.now() - t) / 1000),
      cpu_s: r3(cpuSeconds() - cpu),
      load_average: loadavg().map(r3),
    };
  } finally {
    profile.dispose();
  }
}

try {
  // Seed by seed across targets, so that a stopped run leaves whole seeds for every target.
  for (const seed of seeds) {
    for (const target of targets) {
      for (const strategy of strategies) {
        const key = { target, seed, strategy, budget, exhaustiveness, profile: PROFILE, grid };
        if (done.has(runKey(key))) continue;
        const run = await runOne(target, seed, strategy);
        finished.push(run);
        if (values.partial) appendFileSync(values.partial, `${JSON.stringify(run)}\n`);
        process.stderr.write(
          `${target} seed ${seed} ${strategy}: top-10 ${run.top10_kcal} kcal/mol, ${run.calls_used} calls ` +
            `(${run.fresh_dockings} docked now, ${run.fresh_preparations} prepared now), ${run.wall_s} s wall, ` +
            `${run.cpu_s} s CPU, load ${run.load_average[0]}\n`,
        );
      }
    }
  }
} finally {
  for (const p of pockets.values()) await p.session.close();
}

const mine = finished.filter(
  (r) =>
    r.budget === budget &&
    r.exhaustiveness === exhaustiveness &&
    r.profile === PROFILE &&
    (r.grid ?? 'computed') === grid,
);
const perTarget = Object.fromEntries(
  targets.map((t) => {
    const runs = mine.filter((r) => r.target === t && seeds.includes(r.seed));
    const sum = (k: 'fresh_dockings' | 'fresh_preparations' | 'cpu_s' | 'wall_s') =>
      r3(runs.reduce((a, r) => a + r[k], 0));
    return [
      t,
      {
        top10_kcal: summarise(runs, 'top10_kcal', strategies),
        auc_top10_kcal: summarise(runs, 'auc_top10_kcal', strategies),
        runs: runs.length,
        fresh_dockings: sum('fresh_dockings'),
        fresh_preparations: sum('fresh_preparations'),
        cpu_s: sum('cpu_s'),
        wall_s: sum('wall_s'),
      },
    ];
  }),
);
console.log(
  JSON.stringify(
    {
      benchmark: 'pmo docking: top-10 mean Vina score against docking calls',
      profile: PROFILE,
      filters: FILTERS,
      targets,
      seeds,
      budget,
      exhaustiveness,
      grid,
      concurrency,
      every,
      strategies,
      machine: { cores: availableParallelism(), vina: tools.vina.version, obabel: tools.obabel.version },
      per_target: perTarget,
      cache: cache.size,
      load_average: { before: loadBefore.map(r3), after: loadavg().map(r3) },
      wall_seconds: r3((performance.now() - started) / 1000),
    },
    null,
    2,
  ),
);
