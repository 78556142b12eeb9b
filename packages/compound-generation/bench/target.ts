// Target specificity of generation with docking, measured the way it can be: molecules generated for c-Src (2SRC,
// its ATP site) and for plasmepsin II (1LEE, its active site) are all re-docked into both pockets in fresh calls at
// one exhaustiveness, so that no cell keeps the search's own scores (selected for being good, hence optimistic).
//   specificity = (A's set in B + B's set in A) - (A's set in A + B's set in B), kcal/mol on the sets' means:
//   positive when each set prefers its own pocket, whatever the two pockets' difficulty.
// Same-run baseline: the same GA without docking, where only the residue heuristic tells the targets apart; its
// returned sets are re-docked the same way. One seed's sets of a few molecules move the figure by tenths of a
// kcal/mol (ligand preparation is not repeatable: Open Babel's --gen3d), so it is reported over seeds with its spread.
//   npm run bench:target -w @evident/compound-generation      (root: npm run bench:chem:target)
// BENCH_NUM_MOLECULES (4), BENCH_BUDGET (3 x n + 10), BENCH_EXHAUSTIVENESS (search, 1), BENCH_REDOCK_EXHAUSTIVENESS
// (8, Vina's default), BENCH_CONCURRENCY (cores), BENCH_SEEDS (3,4,5) adjust it.
// Needs `vina` and `obabel` (apt-get install autodock-vina openbabel); reports them missing otherwise.
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import {
  analyseTarget,
  generateFromInput,
  validateRequest,
  type DockingPort,
  type GenerationInput,
} from '@evident/compound-generation';
import { DockingSession, findDockingTools, smilesDockingPort, type DockingTools } from '@evident/docking';

const env = (k: string, d: number) => (process.env[k] ? Number(process.env[k]) : d);
const n = env('BENCH_NUM_MOLECULES', 4);
const budget = env('BENCH_BUDGET', 3 * n + 10);
const searchExhaustiveness = env('BENCH_EXHAUSTIVENESS', 1);
const redockExhaustiveness = env('BENCH_REDOCK_EXHAUSTIVENESS', 8);
const concurrency = env('BENCH_CONCURRENCY', availableParallelism());
const seeds = (process.env.BENCH_SEEDS ?? '3,4,5').split(',').map(Number);

const tools = await findDockingTools().catch((e: Error) => e);
if (tools instanceof Error) {
  console.log(JSON.stringify({ benchmark: 'compound-generation target specificity', missing: tools.message }, null, 2));
  process.exit(0);
}

const fixture = (f: string) =>
  readFileSync(fileURLToPath(new URL(`../../protein-structure/test/fixtures/${f}`, import.meta.url)));
// UniProt numbering by each file's DBREF (as in test/target.test.ts)
const TARGETS = {
  src: { target_uniprot: 'P12931', binding_site: { residues: ['K297', 'T340', 'M343'] }, file: '2src.pdb' },
  plasmepsin: { target_uniprot: 'P46925', binding_site: { residues: ['D158', 'D338', 'Y201'] }, file: '1lee.pdb' },
};
const constraints = { mw_range: [250, 450], logp_range: [0, 4.5] };

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const r3 = (x: number) => Math.round(x * 1000) / 1000;

interface Pocket {
  input: GenerationInput;
  port: DockingPort;
  session: DockingSession;
  redock: DockingSession;
  redockPort: ReturnType<typeof smilesDockingPort>;
  summary: ReturnType<typeof analyseTarget>['summary'];
}

async function openPocket(t: (typeof TARGETS)[keyof typeof TARGETS], vina: DockingTools): Promise<Pocket> {
  const { file, ...request } = t;
  const input = await validateRequest({
    ...request,
    structure: fixture(file).toString('base64'),
    constraints,
    num_molecules: n,
    options: { docking_exhaustiveness: searchExhaustiveness, docking_budget: budget, include_svg: false },
  });
  const site = analyseTarget(
    input.target.structure!,
    { uniprot: input.target_uniprot, residues: input.residues, target: input.target },
    { id: file, source: 'request' },
  );
  const open = (exhaustiveness: number) =>
    DockingSession.open({
      receptor: { pdb: site.receptorPdb },
      box: site.box,
      exhaustiveness,
      concurrency,
      tools: vina,
    });
  const session = await open(searchExhaustiveness);
  const docking = smilesDockingPort(session, site.contacts);
  const port: DockingPort = {
    dock: (s, signal, e) => docking.dock(s, signal, e),
    describe: () => ({
      engine: 'AutoDock Vina',
      version: vina.vina.version,
      exhaustiveness: searchExhaustiveness,
      seed: input.options.seed,
      preparation: 'Open Babel, pH 7.4',
    }),
  };
  // A session of its own for the re-docking: a session keeps each ligand's prepared conformer, so re-docking in
  // the search's session would reuse, in the own pocket only, the conformer the search selected.
  const redock = await open(redockExhaustiveness);
  return { input, port, session, redock, redockPort: smilesDockingPort(redock, site.contacts), summary: site.summary };
}

/** Mean fresh score of a set in a pocket; a molecule whose call fails is left out (counted). */
async function meanIn(smiles: string[], pocket: Pocket) {
  const scores = await Promise.all(
    smiles.map((s) =>
      pocket.redockPort.dock(s).then(
        (r) => r.score,
        () => null,
      ),
    ),
  );
  const ok = scores.filter((x): x is number => x !== null);
  return { mean: ok.length ? mean(ok) : Number.NaN, failed: scores.length - ok.length };
}

/** The 2 x 2 re-docking of two sets and the specificity it gives. */
async function crossDock(setA: string[], setB: string[], a: Pocket, b: Pocket) {
  const [aInA, aInB, bInB, bInA] = await Promise.all([
    meanIn(setA, a),
    meanIn(setA, b),
    meanIn(setB, b),
    meanIn(setB, a),
  ]);
  return {
    src_set: { in_src: r3(aInA.mean), in_plasmepsin: r3(aInB.mean) },
    plasmepsin_set: { in_plasmepsin: r3(bInB.mean), in_src: r3(bInA.mean) },
    failed_calls: aInA.failed + aInB.failed + bInB.failed + bInA.failed,
    specificity: r3(aInB.mean + bInA.mean - aInA.mean - bInB.mean),
  };
}

const seeded = (x: GenerationInput, seed: number, docking: boolean): GenerationInput => ({
  ...x,
  options: { ...x.options, seed, docking },
});

async function runSeed(seed: number, a: Pocket, b: Pocket) {
  const t0 = performance.now();
  const dockedA = await generateFromInput(seeded(a.input, seed, true), {
    target: { port: a.port, summary: a.summary },
  });
  const dockedB = await generateFromInput(seeded(b.input, seed, true), {
    target: { port: b.port, summary: b.summary },
  });
  const searchSeconds = (performance.now() - t0) / 1000;
  const plainA = await generateFromInput(seeded(a.input, seed, false));
  const plainB = await generateFromInput(seeded(b.input, seed, false));
  const smiles = (r: { molecules: Array<{ smiles: string }> }) => r.molecules.map((m) => m.smiles);
  const t1 = performance.now();
  const withDocking = await crossDock(smiles(dockedA), smiles(dockedB), a, b);
  const withoutDocking = await crossDock(smiles(plainA), smiles(plainB), a, b);
  return {
    seed,
    ga_with_docking: {
      ...withDocking,
      search_docking_calls: (dockedA.docking?.calls ?? 0) + (dockedB.docking?.calls ?? 0),
      search_wall_time_s: r3(searchSeconds),
      molecules: { src: smiles(dockedA), plasmepsin: smiles(dockedB) },
    },
    ga_without_docking: { ...withoutDocking, molecules: { src: smiles(plainA), plasmepsin: smiles(plainB) } },
    redock_wall_time_s: r3((performance.now() - t1) / 1000),
    load_average: loadavg().map(r3),
  };
}

function overSeeds(xs: number[]) {
  const m = mean(xs);
  const sd = xs.length > 1 ? Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1)) : Number.NaN;
  return { seeds: xs.length, mean: r3(m), sd: r3(sd), min: r3(Math.min(...xs)), max: r3(Math.max(...xs)) };
}

const a = await openPocket(TARGETS.src, tools);
const b = await openPocket(TARGETS.plasmepsin, tools);
try {
  const runs = [];
  for (const seed of seeds) {
    const run = await runSeed(seed, a, b);
    runs.push(run);
    console.error(JSON.stringify(run)); // each seed as it completes, in case a long run is stopped
  }
  const docked = overSeeds(runs.map((r) => r.ga_with_docking.specificity));
  const plain = overSeeds(runs.map((r) => r.ga_without_docking.specificity));
  console.log(
    JSON.stringify(
      {
        benchmark: `compound-generation target specificity: c-Src 2SRC and plasmepsin II 1LEE, ${n} molecules each`,
        machine: { cores: availableParallelism(), vina: tools.vina.version, obabel: tools.obabel.version, concurrency },
        settings: {
          num_molecules: n,
          docking_budget: budget,
          search_exhaustiveness: searchExhaustiveness,
          redock_exhaustiveness: redockExhaustiveness,
          constraints,
          seeds,
        },
        specificity_kcal_per_mol: { ga_with_docking: docked, baseline_ga_without_docking: plain },
        difference: r3(docked.mean - plain.mean),
        ratio: plain.mean > 0 ? r3(docked.mean / plain.mean) : null,
        seeds_with_positive_specificity: runs.filter((r) => r.ga_with_docking.specificity > 0).length,
        runs,
      },
      null,
      2,
    ),
  );
} finally {
  for (const p of [a, b]) {
    await p.session.close();
    await p.redock.close();
  }
}
