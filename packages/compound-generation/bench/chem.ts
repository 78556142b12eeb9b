// Benchmark of target-aware generation: c-Src (P12931) with its crystal structure 2SRC (the fixture of
// @evident/protein-structure), the seed's constraints (MW 300-500, logP 1-5, HBD <= 3, HBA <= 7), docked with
// AutoDock Vina. In the same run, two baselines get the same number of docking calls as the GA spent, all of them
// at the final exhaustiveness, for their final scoring:
//   (a) random enumeration from the same fragment library, same filters, same evaluations: its best diverse
//       candidates by the surrogate are docked and the best-scoring diverse set returned;
//   (b) the same GA without docking (surrogate only), its archive docked and selected the same way;
// and the GA with reference ligands (dasatinib). Every arm runs once per GA seed (BENCH_SEEDS): one seed's
// returned set of a few molecules moves its mean by tenths of a kcal/mol, so the verdict compares the arms' means
// over seeds, with their spread. Prints one JSON document.
//   npm run bench -w @evident/compound-generation      (root: npm run bench:chem)
// BENCH_NUM_MOLECULES (10), BENCH_EXHAUSTIVENESS (4), BENCH_BUDGET (3 x n + 10), BENCH_CONCURRENCY (cores),
// BENCH_SEEDS (comma-separated GA seeds, default 42,7,2026), BENCH_REFERENCE (0 skips the dasatinib arm, which runs
// on the first seed only) adjust it.
// Needs `vina` and `obabel` (apt-get install autodock-vina openbabel); reports them missing otherwise.
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import {
  analyseTarget,
  generateFromInput,
  loadRDKit,
  randomEnumerationBaseline,
  validateRequest,
  type DockingPort,
  type GenerationInput,
  type GenerationResult,
} from '@evident/compound-generation';
import { DockingSession, findDockingTools, smilesDockingPort } from '@evident/docking';
import { DockingRounds } from '../src/generation/docking-rounds.js';
import { runGeneticAlgorithm } from '../src/generation/ga.js';
import { applyDockingTerm, selectDiverse, type Evaluated } from '../src/scoring/evaluate.js';

const env = (k: string, d: number) => (process.env[k] ? Number(process.env[k]) : d);
const n = env('BENCH_NUM_MOLECULES', 10);
const exhaustiveness = env('BENCH_EXHAUSTIVENESS', 4);
const budget = env('BENCH_BUDGET', 3 * n + 10);
const concurrency = env('BENCH_CONCURRENCY', availableParallelism());
const seeds = (process.env.BENCH_SEEDS ?? '42,7,2026').split(',').map(Number);
const withReference = process.env.BENCH_REFERENCE !== '0';

const tools = await findDockingTools().catch((e: Error) => e);
if (tools instanceof Error) {
  console.log(JSON.stringify({ benchmark: 'compound-generation (docking)', missing: tools.message }, null, 2));
  process.exit(0);
}

const structure = readFileSync(
  fileURLToPath(new URL('../../protein-structure/test/fixtures/2src.pdb', import.meta.url)),
);
const request = {
  target_uniprot: 'P12931',
  binding_site: { residues: ['K297', 'T340', 'M343'] },
  constraints: { mw_range: [300, 500], logp_range: [1, 5], hbd_max: 3, hba_max: 7 },
  num_molecules: n,
  options: { seed: 42, docking_exhaustiveness: exhaustiveness, docking_budget: budget, include_svg: false },
};
const DASATINIB = 'Cc1nc(Nc2ncc(C(=O)Nc3c(C)cccc3Cl)s2)cc(N2CCN(CCO)CC2)n1';

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
const r3 = (x: number) => Math.round(x * 1000) / 1000;
function distribution(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))]!;
  return { n: s.length, mean: r3(mean(s)), best: s[0], p25: q(0.25), median: q(0.5), p75: q(0.75), worst: s.at(-1) };
}

const input = await validateRequest({ ...request, structure: structure.toString('base64') });
const site = analyseTarget(
  input.target.structure!,
  { uniprot: input.target_uniprot, residues: input.residues, target: input.target },
  { id: '2SRC', source: 'request' },
);
const session = await DockingSession.open({
  receptor: { pdb: site.receptorPdb },
  box: site.box,
  seed: 42,
  exhaustiveness,
  concurrency,
  tools,
});
const docking = smilesDockingPort(session, site.contacts);
const port: DockingPort = {
  dock: (s, signal, e) => docking.dock(s, signal, e),
  describe: () => ({
    engine: 'AutoDock Vina',
    version: tools.vina.version,
    exhaustiveness,
    seed: 42,
    preparation: 'Open Babel, pH 7.4',
  }),
};
const target = { port, summary: site.summary };

function figures(r: GenerationResult, seconds: number) {
  return {
    wall_time_s: r3(seconds),
    evaluations: r.summary.evaluations,
    docking_calls: r.docking?.calls ?? 0,
    // a failed call (e.g. Vina timed out on a loaded machine) drops its molecule from the field
    docking_failures: r.docking?.failures ?? 0,
    returned: r.summary.returned,
    docking_score: distribution(r.molecules.map((m) => m.docking_score!)),
    mean_qed: r.summary.mean_qed,
    // size is what Vina's score follows most: the arms' returned sets compared on it
    mean_heavy_atoms: r3(mean(r.molecules.map((m) => m.properties.heavy_atoms))),
    constraint_pass_rate: r.summary.constraint_pass_rate,
    internal_diversity: r.summary.internal_diversity,
    alerts_in_returned: r.molecules.filter((m) => m.alerts.length > 0).length,
    // each returned molecule, so that an outlying score can be looked at again (re-docked, re-scored)
    molecules: r.molecules.map((m) => ({ smiles: m.smiles, docking_score: m.docking_score })),
  };
}

/** A baseline's final scoring: its best diverse candidates by the surrogate docked (`calls` calls), then selected. */
async function dockAndSelect(
  archive: Evaluated[],
  base: GenerationInput,
  calls: number,
  seconds: number,
  evaluations: number,
) {
  const rd = await loadRDKit();
  const rounds = new DockingRounds(rd, port, calls, exhaustiveness);
  const t0 = performance.now();
  const candidates = selectDiverse(archive, calls, base.options.similarity_cap);
  await rounds.dock(candidates);
  for (const e of archive) if (rounds.isDocked(e)) applyDockingTerm(e, rounds.term(e).term);
  const chosen = selectDiverse(
    archive.filter((e) => rounds.isDocked(e)),
    n,
    base.options.similarity_cap,
  );
  const c = base.constraints;
  return {
    wall_time_s: r3(seconds + (performance.now() - t0) / 1000),
    evaluations,
    docking_calls: rounds.stats.calls,
    docking_failures: rounds.stats.failures,
    returned: chosen.length,
    docking_score: distribution(chosen.map((e) => rounds.records.get(e.smiles)!.score)),
    molecules: chosen.map((e) => ({ smiles: e.smiles, docking_score: rounds.records.get(e.smiles)!.score })),
    mean_qed: r3(mean(chosen.map((e) => e.properties.qed))),
    mean_heavy_atoms: r3(mean(chosen.map((e) => e.properties.heavy_atoms))),
    constraint_pass_rate:
      chosen.filter((e) => {
        const p = e.properties;
        return (
          p.mw >= c.mw_range[0] &&
          p.mw <= c.mw_range[1] &&
          p.logp >= c.logp_range[0] &&
          p.logp <= c.logp_range[1] &&
          p.hbd <= c.hbd_max &&
          p.hba <= c.hba_max
        );
      }).length / (chosen.length || 1),
  };
}

/** One seed: the GA with docking and both baselines at the GA's docking calls (and the dasatinib arm). */
async function runSeed(seed: number, reference: boolean) {
  const seeded = (x: GenerationInput): GenerationInput => ({ ...x, options: { ...x.options, seed } });
  const gaInput = seeded(input);
  let t = performance.now();
  const ga = await generateFromInput(gaInput, { target });
  const gaFigures = figures(ga, (performance.now() - t) / 1000);
  const calls = ga.docking!.calls;

  const noDockInput = seeded({ ...input, options: { ...input.options, docking: false } });
  t = performance.now();
  const random = await randomEnumerationBaseline(noDockInput, ga.summary.evaluations);
  const randomFigures = await dockAndSelect(
    random.archive,
    gaInput,
    calls,
    (performance.now() - t) / 1000,
    random.evaluator.stats.evaluations,
  );

  t = performance.now();
  const noDock = await runGeneticAlgorithm(noDockInput);
  const noDockFigures = await dockAndSelect(
    noDock.archive,
    noDockInput,
    calls,
    (performance.now() - t) / 1000,
    noDock.evaluator.stats.evaluations,
  );

  let refFigures: Record<string, unknown> | null = null;
  if (reference) {
    const withRefs = seeded(
      await validateRequest({ ...request, reference_ligands: [DASATINIB], structure: structure.toString('base64') }),
    );
    t = performance.now();
    const refs = await generateFromInput(withRefs, { target });
    refFigures = {
      reference: 'dasatinib',
      ...figures(refs, (performance.now() - t) / 1000),
      guidance: refs.guidance,
      mean_reference_similarity: r3(mean(refs.molecules.map((m) => m.scores.reference_similarity ?? 0))),
    };
  }
  return {
    seed,
    ga: gaFigures,
    baselines: {
      random_enumeration: {
        method: `random enumeration, same filters and evaluations; ${calls} docking calls at exhaustiveness ${exhaustiveness} for the final scoring`,
        ...randomFigures,
      },
      ga_without_docking: {
        method: `the same GA on the surrogate alone; ${calls} docking calls at exhaustiveness ${exhaustiveness} for the final scoring`,
        ...noDockFigures,
      },
    },
    with_reference_ligands: refFigures,
    ratio: {
      mean_docking_score_vs_random: r3(gaFigures.docking_score.mean / randomFigures.docking_score.mean),
      mean_docking_score_vs_ga_without_docking: r3(gaFigures.docking_score.mean / noDockFigures.docking_score.mean),
    },
    load_average: loadavg().map(r3),
  };
}

/** An arm's returned-set means over the seeds: their mean, sample standard deviation and range. */
function overSeeds(xs: number[]) {
  const m = mean(xs);
  const sd = xs.length > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1)) : Number.NaN;
  return { seeds: xs.length, mean: r3(m), sd: r3(sd), best: r3(Math.min(...xs)), worst: r3(Math.max(...xs)) };
}

try {
  const runs = [];
  for (const seed of seeds) {
    // the dasatinib arm is not part of the goal: it runs on the first seed only
    const run = await runSeed(seed, withReference && runs.length === 0);
    runs.push(run);
    console.error(JSON.stringify(run)); // each seed as it completes, in case a long run is stopped
  }
  const ga = overSeeds(runs.map((r) => r.ga.docking_score.mean));
  const random = overSeeds(runs.map((r) => r.baselines.random_enumeration.docking_score.mean));
  const noDock = overSeeds(runs.map((r) => r.baselines.ga_without_docking.docking_score.mean));
  const report = {
    benchmark: `compound-generation with docking: c-Src 2SRC, ${n} molecules, seeds ${seeds.join(', ')}`,
    machine: {
      cores: availableParallelism(),
      vina: tools.vina.version,
      obabel: tools.obabel.version,
      docking_concurrency: concurrency,
    },
    settings: {
      num_molecules: n,
      docking_exhaustiveness: exhaustiveness,
      docking_budget: budget,
      constraints: request.constraints,
      seeds,
    },
    mean_docking_score_over_seeds: { ga_with_docking: ga, random_enumeration: random, ga_without_docking: noDock },
    ratio: {
      mean_docking_score_vs_random: r3(ga.mean / random.mean),
      mean_docking_score_vs_ga_without_docking: r3(ga.mean / noDock.mean),
    },
    goals: {
      better_mean_docking_score_than_both_baselines: ga.mean < random.mean && ga.mean < noDock.mean,
      seeds_better_than_both_baselines: runs.filter(
        (r) =>
          r.ga.docking_score.mean < r.baselines.random_enumeration.docking_score.mean &&
          r.ga.docking_score.mean < r.baselines.ga_without_docking.docking_score.mean,
      ).length,
      all_constraints_held: runs.every((r) => r.ga.constraint_pass_rate === 1),
      mean_qed_at_least_0_7: runs.every((r) => r.ga.mean_qed >= 0.7),
    },
    runs,
  };
  console.log(JSON.stringify(report, null, 2));
} finally {
  await session.close();
}
