// REINVENT 4's components as profiles compute them, against RDKit 2022.09 (test/reference/pmo-objectives.json:
// the descriptors REINVENT's comp_physchem.py calls and TanimotoSimilarity's unhashed Morgan settings), and the
// components this package adds (VinaDocking through a port, MatchingSubstructure as a penalty, CustomAlerts as a
// filter, value_mapping on strings).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadScoringProfile, parseScoringProfile, type DockingPort } from '@evident/compound-generation';

const here = dirname(fileURLToPath(import.meta.url));
const reference = JSON.parse(readFileSync(join(here, 'reference', 'pmo-objectives.json'), 'utf8')) as {
  reinvent_physchem: Array<{ smiles: string; values: Record<string, number> }>;
  tanimoto_morgan: Array<{
    reference: string;
    smiles: string;
    radius: number;
    use_counts: boolean;
    use_features: boolean;
    similarity: number;
  }>;
};

/** A scoring section with one endpoint per component name, untransformed. */
function section(components: Array<[string, Record<string, unknown>?]>, type = 'arithmetic_mean') {
  return {
    scoring: {
      type,
      component: components.map(([name, params]) => ({
        [name]: {
          endpoint: [{ name: `${name}${params ? JSON.stringify(params) : ''}`, weight: 1, params: params ?? {} }],
        },
      })),
    },
  };
}

test("REINVENT 4's descriptor components equal RDKit's descriptors", async () => {
  const names = Object.keys(reference.reinvent_physchem[0]!.values).filter((n) => n !== 'BertzCT');
  const profile = await loadScoringProfile(
    section([...names.map((n): [string] => [n]), ['RDKitDescriptors', { descriptor: 'BertzCT' }]]),
  );
  const rows = reference.reinvent_physchem;
  const scored = await profile.score(rows.map((r) => r.smiles));
  const mismatches: string[] = [];
  rows.forEach((row, i) => {
    for (const [name, want] of Object.entries(row.values)) {
      const e = scored[i]!.components.find((c) =>
        name === 'BertzCT' ? c.name.startsWith('RDKitDescriptors') : c.name === name,
      );
      const got = e?.raw as number;
      // NumHAcceptors changed definition after RDKit 2022.09 (see test/reference-agreement.test.ts).
      if (name === 'HBondAcceptors') continue;
      if (!(Math.abs(got - want) <= 1e-6 * Math.max(1, Math.abs(want))))
        mismatches.push(`${row.smiles} ${name}: ${got} vs ${want}`);
    }
  });
  assert.deepEqual(mismatches, []);
  profile.dispose();
});

test("TanimotoSimilarity with REINVENT's Morgan settings equals RDKit's GetMorganFingerprint similarity", async () => {
  for (const r of reference.tanimoto_morgan.slice(0, 24)) {
    const params = { smiles: [r.reference], radius: r.radius, use_counts: r.use_counts, use_features: r.use_features };
    const profile = await loadScoringProfile(section([['TanimotoSimilarity', params]]));
    const [s] = await profile.score([r.smiles]);
    assert.ok(
      Math.abs((s!.components[0]!.raw as number) - r.similarity) < 1e-12,
      `${r.smiles} ${JSON.stringify(params)}`,
    );
    profile.dispose();
  }
});

test('TanimotoSimilarity with several references scores the most similar one', async () => {
  const params = { smiles: ['CCO', 'c1ccccc1O'], radius: 2, use_counts: true, use_features: false };
  const profile = await loadScoringProfile(section([['TanimotoSimilarity', params]]));
  const [phenol, ethanol] = await profile.score(['Oc1ccccc1', 'OCC']);
  assert.equal(phenol!.total, 1);
  assert.equal(ethanol!.total, 1);
});

const TOML_PENALTY_FILTER = `
[scoring]
type = "geometric_mean"

[[scoring.component]]
[scoring.component.QED]
[[scoring.component.QED.endpoint]]
name = "QED"
weight = 1

[[scoring.component]]
[scoring.component.MatchingSubstructure]
[[scoring.component.MatchingSubstructure.endpoint]]
name = "has phenol"
params.smarts = "c[OH]"
params.use_chirality = false

[[scoring.component]]
[scoring.component.custom_alerts]
[[scoring.component.custom_alerts.endpoint]]
name = "alerts"
params.smarts = ["[N+](=O)[O-]"]
`;

test('MatchingSubstructure halves the total without its pattern; CustomAlerts zeroes a molecule with an alert', async () => {
  const profile = await parseScoringProfile(TOML_PENALTY_FILTER);
  assert.deepEqual(
    profile.endpoints.map((e) => [e.name, e.role]),
    [
      ['QED', 'score'],
      ['has phenol', 'penalty'],
      ['alerts', 'filter'],
    ],
  );
  const [phenol, toluene, nitro] = await profile.score(['Oc1ccccc1C', 'Cc1ccccc1', 'Oc1ccc(cc1)[N+](=O)[O-]']);
  const qed = (m: typeof phenol) => m!.components[0]!.value!;
  assert.ok(Math.abs(phenol!.total - qed(phenol)) < 1e-12);
  assert.ok(Math.abs(toluene!.total - 0.5 * qed(toluene)) < 1e-12);
  assert.equal(nitro!.total, 0);
  assert.equal(nitro!.components[2]!.value, 0);
});

test('value_mapping maps categories; a value missing from the mapping is left out of the mean', async () => {
  const profile = await loadScoringProfile({
    scoring: {
      type: 'arithmetic_mean',
      component: [
        {
          GroupCount: {
            endpoint: [
              {
                name: 'amides',
                weight: 1,
                params: { smarts: 'C(=O)N' },
                transform: { type: 'value_mapping', mapping: { '0': 0.2, '1': 1 } },
              },
            ],
          },
        },
        { QED: { endpoint: [{ name: 'qed', weight: 1 }] } },
      ],
    },
  });
  const [none, one, two] = await profile.score(['CCCC', 'CC(=O)NC', 'CC(=O)NCC(=O)NC']);
  assert.equal(none!.components[0]!.value, 0.2);
  assert.equal(one!.components[0]!.value, 1);
  assert.equal(two!.components[0]!.value, null);
  assert.ok(Math.abs(two!.total - two!.components[1]!.value!) < 1e-12, 'only QED counts');
});

test('VinaDocking docks every stereoisomer through the port and keeps the best; a failed docking scores 0', async () => {
  const docked: string[] = [];
  const port: DockingPort = {
    async dock(smiles) {
      docked.push(smiles);
      if (smiles.includes('Cl')) throw new Error('Vina failed');
      return { score: smiles.includes('@@') ? -9 : -7, pose_sdf: '', contacts: [] };
    },
    describe: () => ({ engine: 'test', version: '0', exhaustiveness: 1, seed: 0, preparation: 'none' }),
  };
  const doc = {
    scoring: {
      type: 'arithmetic_mean',
      component: [
        {
          VinaDocking: {
            endpoint: [{ name: 'vina', transform: { type: 'reverse_sigmoid', low: -11, high: -5, k: 0.25 } }],
          },
        },
      ],
    },
  };
  await assert.rejects(loadScoringProfile(doc), /VinaDocking needs a docking engine/);
  const profile = await loadScoringProfile(doc, { docking: port });
  const [chiral, failed] = await profile.score(['CC(N)CC(=O)O', 'ClCC(N)C']);
  assert.equal(chiral!.components[0]!.raw, -9);
  assert.equal(docked.filter((s) => !s.includes('Cl')).length, 2, 'both stereoisomers docked');
  assert.equal(failed!.components[0]!.raw, null);
  assert.equal(failed!.components[0]!.value, 0);
  assert.equal(failed!.total, 0);
  assert.deepEqual(profile.counters(), { external_runs: 0, external_smiles: 0, docking_calls: 4, docking_failures: 2 });
});

test('an invalid SMILES scores 0 and repeats within a batch are computed once', async () => {
  const profile = await parseScoringProfile(TOML_PENALTY_FILTER);
  const [bad, a, b] = await profile.score(['C1CC', 'OCC', 'C(O)C']);
  assert.deepEqual(bad, { smiles: 'C1CC', canonical_smiles: null, valid: false, total: 0, components: [] });
  assert.equal(a!.canonical_smiles, 'CCO');
  assert.equal(b!.canonical_smiles, 'CCO');
  assert.deepEqual(a!.components, b!.components);
});
