// The docking estimate inside the search and the search's use of it, with ports that return set scores (the
// estimate is arithmetic over what the port returned, and a seeded run with such a port is repeatable; real Vina
// runs, whose ligand preparation is not, are in target.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateFromInput, validateRequest, type DockingPort } from '../src/index.js';
import { DockingRounds, dockingTerm } from '../src/generation/docking-rounds.js';
import { TREND_MIN_MOLECULES } from '../src/generation/docking-trend.js';
import { loadRDKit } from '../src/rdkit.js';
import { Evaluator, type Evaluated } from '../src/scoring/evaluate.js';
import { tanimoto } from '../src/chem/fingerprint.js';

const STRONG = 'O=C(Nc1ccccc1)c1ccc(cc1)N1CCOCC1'; // docked at -11 (term 1)
const WEAK = 'CCCCCCCCCCOC(=O)CCCC'; // docked at -5 (term 0)
const CLOSE = 'O=C(Nc1ccccc1)c1ccc(cc1)N1CCNCC1'; // a close analogue of STRONG
const LOOSE = 'O=C(Nc1ccncc1)c1ccc(cc1)C'; // a looser one
const UNLIKE = 'OC1CCN(CC1)c1nc2ccccc2s1'; // like neither

/** Scores by the canonical SMILES the rounds dock (filled in once the molecules are evaluated). */
const scores = new Map<string, number>();
const port: DockingPort = {
  dock: async (s) => ({ score: scores.get(s) ?? -8, pose_sdf: '', contacts: [] }),
  describe: () => ({ engine: 'fixed', version: '0', exhaustiveness: 1, seed: 0, preparation: 'none' }),
};

async function setup() {
  const rd = await loadRDKit();
  const input = await validateRequest({
    target_uniprot: 'P12931',
    binding_site: { residues: ['K297', 'T340', 'M343'] },
    num_molecules: 2,
    options: { docking: false },
  });
  const evaluator = new Evaluator(rd, input);
  const mol = (s: string): Evaluated => evaluator.evaluate(s).result!;
  return { rounds: new DockingRounds(rd, port, 10, 1), mol };
}

test('before anything is docked, the estimate is the surrogate site term itself', async () => {
  const { rounds, mol } = await setup();
  for (const s of [CLOSE, LOOSE, UNLIKE]) {
    const e = mol(s);
    assert.deepEqual(rounds.term(e), { term: e.scores.site_complementarity, docked: false });
  }
});

test('docked neighbours correct the surrogate in proportion to their similarity; unlike molecules keep its ranking', async () => {
  const { rounds, mol } = await setup();
  const strong = mol(STRONG);
  const weak = mol(WEAK);
  scores.set(strong.smiles, -11);
  scores.set(weak.smiles, -5);
  const [close, loose, unlike] = [mol(CLOSE), mol(LOOSE), mol(UNLIKE)];
  assert.equal(await rounds.dock([strong, weak]), 2);
  assert.deepEqual(rounds.term(strong), { term: 1, docked: true });
  assert.equal(dockingTerm(-5), 0);

  const simClose = tanimoto(close.fp, strong.fp);
  const simLoose = tanimoto(loose.fp, strong.fp);
  assert.ok(simClose > simLoose && simLoose >= 0.25, `similarities ${simClose} ${simLoose}`);
  for (const e of [close, loose, unlike]) assert.ok(tanimoto(e.fp, weak.fp) < 0.25);
  assert.ok(tanimoto(unlike.fp, strong.fp) < 0.25);

  // the surrogate on the docked scale: site term + the trend learnt from the docked molecules
  const prior = (e: Evaluated) => e.scores.site_complementarity + rounds.trend.predict(e);
  // what the strong neighbour alone would say: its residual from the trend carried over in full
  const strongResidual = 1 - strong.scores.site_complementarity - rounds.trend.predict(strong);
  const neighbour = (e: Evaluated) => prior(e) + strongResidual;

  assert.ok(Math.abs(rounds.term(unlike).term - prior(unlike)) < 1e-9);
  const shift = (e: Evaluated) => (rounds.term(e).term - prior(e)) / (neighbour(e) - prior(e));
  assert.ok(shift(close) > 0 && shift(close) < 1, `close analogue moved ${shift(close)} of the way`);
  assert.ok(shift(loose) > 0 && shift(loose) < shift(close), `loose ${shift(loose)} vs close ${shift(close)}`);
});

test('the trend learns what docking adds with size and carries it to molecules like nothing docked', async () => {
  const { rounds, mol } = await setup();
  // docked: the larger molecules score better, each by its own size (not by chemotype)
  const docked = [
    'CC(=O)Nc1ccccc1', // small
    'OC1CCNCC1',
    'CC(C)Cc1ccccc1',
    'Cc1ccc(O)cc1C',
    'O=C(Nc1ccc(cc1)N1CCOCC1)c1ccc2ccccc2c1', // large
    'Cc1ccc(cc1)S(=O)(=O)N1CCC(CC1)C(=O)Nc1ccc2OCOc2c1',
    'O=C(NCc1ccccc1)c1cc2ccccc2[nH]1',
    'CN1CCN(CC1)c1ccc(NC(=O)c2ccc(Cl)cc2)cc1',
  ].map(mol);
  assert.equal(docked.length, TREND_MIN_MOLECULES);
  for (const e of docked) scores.set(e.smiles, -5 - 0.3 * (e.properties.heavy_atoms - 8));
  // with fewer docked molecules than the trend needs, it is the mean offset alone
  await rounds.dock(docked.slice(0, TREND_MIN_MOLECULES - 1));
  assert.deepEqual(rounds.trend.slopes(), [0, 0, 0, 0]);
  await rounds.dock(docked.slice(TREND_MIN_MOLECULES - 1));
  assert.ok(rounds.trend.slopes()[0]! > 0, `heavy-atom slope ${rounds.trend.slopes()[0]}`);
  const small = mol('CCOC(=O)c1ccncc1');
  const large = mol('CCN(CC)C(=O)c1cc2cc(ccc2n1Cc1ccc(F)cc1)S(=O)(=O)N1CCCC1');
  for (const e of [small, large])
    assert.ok(rounds.nearestDocked(e) < 0.25, `${e.smiles} unlike everything docked: ${rounds.nearestDocked(e)}`);
  const lift = (e: Evaluated) => rounds.term(e).term - e.scores.site_complementarity;
  assert.ok(lift(large) > lift(small), `large ${lift(large)} vs small ${lift(small)}`);
});

test('the search follows what docking says: two ports that favour different chemistry give sets that each score better under their own', async () => {
  // Two pockets as deterministic scoring rules over the SMILES the port is given: one rewards aromatic atoms
  // (lower-case atoms in SMILES), the other heteroatoms and penalises aromatic ones. The request, its residues
  // and its seed are the same for both runs, so any difference between the sets comes from the docking feedback.
  const aromatic = (s: string) => (s.match(/[cnos]/g) ?? []).length;
  const hetero = (s: string) => (s.match(/[NOno]/g) ?? []).length;
  const rules = {
    flat: (s: string) => -4 - 0.35 * aromatic(s),
    polar: (s: string) => -5 - 0.6 * hetero(s) + 0.2 * aromatic(s),
  };
  const portFor = (rule: (s: string) => number): DockingPort => ({
    dock: async (s) => ({ score: rule(s), pose_sdf: '', contacts: [] }),
    describe: () => ({ engine: 'rule', version: '0', exhaustiveness: 1, seed: 0, preparation: 'none' }),
  });
  const summary = { uniprot: 'P12931', structure: null, residues: [], pocket: null, pocket_pdb: '', warnings: [] };
  const input = await validateRequest({
    target_uniprot: 'P12931',
    binding_site: { residues: ['K297', 'T340', 'M343'] },
    num_molecules: 4,
    constraints: { mw_range: [250, 450], logp_range: [0, 4.5] },
    options: { seed: 3, max_evaluations: 600, population_size: 30, docking_budget: 30, include_svg: false },
  });
  const run = async (rule: (s: string) => number) =>
    (await generateFromInput(input, { target: { port: portFor(rule), summary } })).molecules.map((m) => m.smiles);
  const flatSet = await run(rules.flat);
  const polarSet = await run(rules.polar);
  assert.notDeepEqual(flatSet, polarSet, 'the docking feedback changes the molecules');
  const mean = (set: string[], rule: (s: string) => number) => set.reduce((a, s) => a + rule(s), 0) / set.length;
  const own = mean(flatSet, rules.flat) + mean(polarSet, rules.polar);
  const swapped = mean(flatSet, rules.polar) + mean(polarSet, rules.flat);
  assert.ok(own < swapped - 1, `own ${own.toFixed(2)} against swapped ${swapped.toFixed(2)}`);
});
