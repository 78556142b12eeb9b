// The default optimizer's settings, compared in one run: the default against itself with one setting changed
// (MOL_GA_SETTINGS is changed between runs in this process, then restored), on PMO tasks at a small budget. What
// the README's "Same run, 1,000 calls" table of the settings left off comes from.
//   npm run bench:pmo-settings [-- --tasks albuterol_similarity,amlodipine_mpo,celecoxib_rediscovery --seeds 2
//     --budget 1000 --variants ring_crossover,novelty_0.8,novelty_0.9,exploration_0.2]
// Prints one JSON document: per variant the AUC top-10 sum over the tasks (mean over seeds), the top-100 diversity
// (1 - mean pairwise Tanimoto, RDKit Morgan radius 2, 2048 bits) and CPU seconds per run; ratios to the default.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadRDKit, optimize, parseScoringProfile } from '@evident/compound-generation';
import { tanimoto } from '../src/chem/fingerprint.js';
// The same module optimize() reads its settings from (the package resolves to src/ here).
import { MOL_GA_SETTINGS, type MolGaSettings } from '../src/optimize/mol-ga.js';
import { parseSmiles } from '../src/rdkit.js';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: 'albuterol_similarity,amlodipine_mpo,celecoxib_rediscovery' },
    seeds: { type: 'string', default: '2' },
    budget: { type: 'string', default: '1000' },
    variants: { type: 'string', default: 'ring_crossover,novelty_0.8,novelty_0.9,exploration_0.2' },
  },
});
const VARIANTS: Record<string, Partial<MolGaSettings>> = {
  default: {},
  ring_crossover: { ring_crossover: true },
  'novelty_0.8': { novelty_similarity: 0.8 },
  'novelty_0.9': { novelty_similarity: 0.9 },
  'exploration_0.2': { exploration: 0.2 },
};
const tasks = values.tasks!.split(',');
const seeds = Array.from({ length: Number(values.seeds) }, (_, i) => i);
const budget = Number(values.budget);
const variants = ['default', ...values.variants!.split(',').filter((v) => v !== 'default')];
for (const v of variants) if (!VARIANTS[v]) throw new Error(`unknown variant ${v}; known: ${Object.keys(VARIANTS)}`);

const rd = await loadRDKit();
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
function diversity(smiles: string[]): number {
  const fps = smiles.map((s) => {
    const m = parseSmiles(rd, s)!;
    try {
      const u = m.get_morgan_fp_as_uint8array(JSON.stringify({ radius: 2, nBits: 2048 })) as Uint8Array;
      return new Uint32Array(u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength));
    } finally {
      m.delete();
    }
  });
  const sims: number[] = [];
  for (let i = 0; i < fps.length; i++) for (let j = i + 1; j < fps.length; j++) sims.push(tanimoto(fps[i]!, fps[j]!));
  return 1 - mean(sims);
}

const base = { ...MOL_GA_SETTINGS };
const settings = MOL_GA_SETTINGS as MolGaSettings;
const load = [loadavg()[0]!];
const runs: Array<{
  variant: string;
  task: string;
  seed: number;
  auc_top10: number;
  diversity: number;
  cpu_seconds: number;
}> = [];
for (const task of tasks) {
  const file = join(here, '..', 'profiles', 'pmo', `${task}.toml`);
  for (const seed of seeds) {
    for (const variant of variants) {
      Object.assign(settings, base, VARIANTS[variant]);
      const profile = await parseScoringProfile(readFileSync(file, 'utf8'), { source: file });
      const cpu = process.cpuUsage();
      try {
        const r = await optimize({ profile, budget: { max_oracle_calls: budget }, seed, strategy: 'surrogate_ga' });
        const used = process.cpuUsage(cpu);
        const run = {
          variant,
          task,
          seed,
          auc_top10: r4(r.auc_top10),
          diversity: r4(diversity(r.top.slice(0, 100).map((t) => t.smiles))),
          cpu_seconds: Math.round((used.user + used.system) / 1e5) / 10,
        };
        runs.push(run);
        process.stderr.write(`${JSON.stringify(run)}\n`);
      } finally {
        profile.dispose();
        Object.assign(settings, base);
      }
    }
  }
}
load.push(loadavg()[0]!);
const summary = Object.fromEntries(
  variants.map((v) => {
    const mine = runs.filter((r) => r.variant === v);
    return [
      v,
      {
        auc_top10_sum: r4(
          mean(seeds.map((s) => mine.filter((r) => r.seed === s).reduce((a, r) => a + r.auc_top10, 0))),
        ),
        diversity: r4(mean(mine.map((r) => r.diversity))),
        cpu_seconds_per_run: Math.round(mean(mine.map((r) => r.cpu_seconds)) * 10) / 10,
      },
    ];
  }),
);
const baseline = summary.default!;
console.log(
  JSON.stringify(
    {
      benchmark: 'surrogate_ga settings, same run',
      budget,
      tasks,
      seeds,
      baseline: 'default (MOL_GA_SETTINGS as shipped)',
      variants: Object.fromEntries(
        Object.entries(summary).map(([v, s]) => [
          v,
          { ...s, auc_ratio_to_default: r4(s.auc_top10_sum / baseline.auc_top10_sum) },
        ]),
      ),
      load_average: { before: load[0], after: load[1] },
      runs,
    },
    null,
    2,
  ),
);
