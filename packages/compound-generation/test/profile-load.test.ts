// Loading profiles: REINVENT 4 files load unchanged; every refusal names the problem and where it is
// (JSON pointer into the document); transforms and aggregations follow REINVENT's formulas (hand-computed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidProfileError, loadScoringProfile, parseScoringProfile } from '@evident/compound-generation';

// REINVENT 4's configs/scoring_components_example.toml, the components this package has (MMP, ROCS, docking
// via DockStream/Maize, PMI, MolVolume and RingPrecedence left out), as a chemist's file would have them.
const REINVENT_EXAMPLE = `
run_type = "scoring"
json_out_config = "scoring_all_test_config.json"

[parameters]
smiles_file = "YOUR_SMILES_FILE.smi"
output_csv = "scoring_all_test.csv"

[scoring]
type = "geometric_mean"

[[scoring.component]]
[scoring.component.QED]
[[scoring.component.QED.endpoint]]
name = "QED"
weight = 1

[[scoring.component]]
[scoring.component.SlogP]
[[scoring.component.SlogP.endpoint]]
name = "SlogP (RDKit)"
weight = 1
transform.type = "reverse_sigmoid"
transform.high = 3
transform.low = 1
transform.k = 0.5

[[scoring.component]]
[scoring.component.MolecularWeight]
[[scoring.component.MolecularWeight.endpoint]]
name = "Molecular weight"
weight = 1
transform.type = "double_sigmoid"
transform.high = 500.0
transform.low = 200.0
transform.coef_div = 500.0
transform.coef_si = 20.0
transform.coef_se = 20.0

[[scoring.component]]
[scoring.component.NumAtomStereoCenters]
[[scoring.component.NumAtomStereoCenters.endpoint]]
name = "Number of stereo centers"
weight = 1
transform.type = "step"
transform.high = 3
transform.low = 0

[[scoring.component]]
[scoring.component.GroupCount]
[[scoring.component.GroupCount.endpoint]]
name = "Group (substructure) count"
weight = 1
params.smarts = "[F,Cl]"
transform.type = "reverse_sigmoid"
transform.high = 3
transform.low = 1
transform.k = 0.5

[[scoring.component]]
[scoring.component.MatchingSubstructure]
[[scoring.component.MatchingSubstructure.endpoint]]
name = "Matching SMARTs substructure"
weight = 1
params.smarts = "CO"
params.use_chirality = false

[[scoring.component]]
[scoring.component.custom_alerts]
[[scoring.component.custom_alerts.endpoint]]
name = "minimal custom alerts"
weight = 1
params.smarts = ["[*;r{8-17}]", "[#8][#8]", "[#6;+]", "[#16][#16]"]

[[scoring.component]]
[scoring.component.TanimotoDistance]
[[scoring.component.TanimotoDistance.endpoint]]
name = "Tanimoto similarity to asprin based on ECFP"
weight = 1
params.smiles = ["CC(=O)OC1=CC=CC=C1C(=O)O"]
params.radius = 3
params.use_counts = true
params.use_features = true

[[scoring.component]]
[scoring.component.SAScore]
[[scoring.component.SAScore.endpoint]]
name = "SA score"
weight = 1
`;

test("REINVENT 4's example scoring file loads unchanged and scores", async () => {
  const profile = await parseScoringProfile(REINVENT_EXAMPLE);
  assert.equal(profile.aggregation, 'geometric_mean');
  assert.deepEqual(
    profile.endpoints.map((e) => [e.component, e.role, e.transform]),
    [
      ['Qed', 'score', null],
      ['SlogP', 'score', 'reverse_sigmoid'],
      ['MolecularWeight', 'score', 'double_sigmoid'],
      ['NumAtomStereoCenters', 'score', 'step'],
      ['GroupCount', 'score', 'reverse_sigmoid'],
      ['MatchingSubstructure', 'penalty', null],
      ['CustomAlerts', 'filter', null],
      ['TanimotoSimilarity', 'score', null],
      ['SAScore', 'score', null],
    ],
  );
  const [aspirin] = await profile.score(['CC(=O)Oc1ccccc1C(=O)O']);
  assert.ok(aspirin!.total > 0 && aspirin!.total < 1);
  assert.equal(aspirin!.components.find((c) => c.name.startsWith('Tanimoto'))!.value, 1);
  // Its JSON form (REINVENT's toml2json) is the same profile.
  const json = await parseScoringProfile(
    JSON.stringify({ scoring: { type: 'custom_product', component: [{ Qed: { endpoint: [{ name: 'QED' }] } }] } }),
  );
  assert.equal(json.aggregation, 'geometric_mean');
});

async function problems(doc: unknown, options = {}): Promise<Array<{ path: string; message: string }>> {
  try {
    await (typeof doc === 'string' ? parseScoringProfile(doc, options) : loadScoringProfile(doc, options));
  } catch (e) {
    assert.ok(e instanceof InvalidProfileError, String(e));
    assert.equal(e.code, 'invalid_profile');
    assert.equal(e.status, 400);
    return [...e.problems];
  }
  assert.fail('the profile was accepted');
}

const one = (component: string, endpoint: Record<string, unknown>, type = 'geometric_mean') => ({
  scoring: { type, component: [{ [component]: { endpoint: [endpoint] } }] },
});

test('an unsupported component is named with its place in the file', async () => {
  const p = await problems(`
[scoring]
type = "geometric_mean"
[[scoring.component]]
[scoring.component.QED]
[[scoring.component.QED.endpoint]]
name = "QED"
[[scoring.component]]
[scoring.component.ChemProp]
[[scoring.component.ChemProp.endpoint]]
name = "model"
params.checkpoint_dir = "x"
`);
  assert.equal(p.length, 1);
  assert.equal(p[0]!.path, '/scoring/component/1/ChemProp');
  assert.match(p[0]!.message, /unknown or unsupported component "ChemProp" \(supported: Qed, /);
});

test('unknown transforms, bad parameters and unknown keys are all reported at once', async () => {
  const p = await problems({
    scoring: {
      type: 'geometric_mean',
      component: [
        { SlogP: { endpoint: [{ name: 'a', transform: { type: 'sigmoidal', low: 1 } }] } },
        { SlogP: { endpoint: [{ name: 'b', transform: { type: 'sigmoid', low: 1, high: 'x' } }] } },
        {
          MolecularWeight: {
            endpoint: [{ name: 'c', wieght: 2, transform: { type: 'double_sigmoid', low: 1, high: 2, coef: 3 } }],
          },
        },
        {
          TanimotoSimilarity: { endpoint: [{ name: 'd', params: { smiles: ['CCO'], radius: 2.5, use_counts: true } }] },
        },
      ],
    },
  });
  const at = (path: string) => p.find((x) => x.path === path)?.message ?? `nothing at ${path}: ${JSON.stringify(p)}`;
  assert.match(
    at('/scoring/component/0/SlogP/endpoint/0/transform/type'),
    /unknown transform "sigmoidal" \(supported: sigmoid, reverse_sigmoid, double_sigmoid/,
  );
  assert.match(at('/scoring/component/1/SlogP/endpoint/0/transform/high'), /must be a number \(got "x"\)/);
  assert.match(at('/scoring/component/1/SlogP/endpoint/0/transform/k'), /required/);
  assert.match(at('/scoring/component/2/MolecularWeight/endpoint/0/wieght'), /unknown key "wieght"/);
  assert.match(at('/scoring/component/2/MolecularWeight/endpoint/0/transform/coef'), /unknown parameter "coef"/);
  assert.match(at('/scoring/component/3/TanimotoSimilarity/endpoint/0/params/radius'), /whole number/);
  assert.match(at('/scoring/component/3/TanimotoSimilarity/endpoint/0/params/use_features'), /required/);
});

test('malformed SMILES and SMARTS in a profile are refused, naming them', async () => {
  const p = await problems({
    scoring: {
      type: 'arithmetic_mean',
      component: [
        {
          TanimotoSimilarity: {
            endpoint: [{ params: { smiles: ['CCO', 'C1CC'], radius: 2, use_counts: true, use_features: false } }],
          },
        },
        { GroupCount: { endpoint: [{ params: { smarts: '[C;' } }] } },
        { CustomAlerts: { endpoint: [{ params: { smarts: ['[N+](=O)[O-]', 'c1ccccc1)'] } }] } },
      ],
    },
  });
  assert.deepEqual(
    p.map((x) => x.path),
    [
      '/scoring/component/0/TanimotoSimilarity/endpoint/0/params/smiles/1',
      '/scoring/component/1/GroupCount/endpoint/0/params/smarts',
      '/scoring/component/2/CustomAlerts/endpoint/0/params/smarts/1',
    ],
  );
  assert.match(p[0]!.message, /not a valid SMILES: "C1CC"/);
  assert.match(p[1]!.message, /not a valid SMARTS: "\[C;"/);
});

test('weights all zero, a negative weight, a missing aggregation and an empty profile are refused', async () => {
  const zero = await problems({
    scoring: {
      type: 'arithmetic_mean',
      component: [{ Qed: { endpoint: [{ weight: 0 }] } }, { SlogP: { endpoint: [{ weight: 0 }] } }],
    },
  });
  assert.deepEqual(zero, [
    {
      path: '/scoring/component',
      message: 'the weights of the scoring endpoints are all zero: at least one must be positive',
    },
  ]);
  const negative = await problems(one('Qed', { weight: -1 }));
  assert.equal(negative[0]!.path, '/scoring/component/0/Qed/endpoint/0/weight');
  const noType = await problems({ scoring: { component: [{ Qed: { endpoint: [{}] } }] } });
  assert.match(noType[0]!.message, /aggregation type is required/);
  const badType = await problems(one('Qed', {}, 'harmonic_mean'));
  assert.match(badType[0]!.message, /unknown aggregation "harmonic_mean"/);
  const empty = await problems({ scoring: { type: 'geometric_mean', component: [] } });
  assert.equal(empty[0]!.path, '/scoring/component');
});

test('a file that is not TOML says where; a document without a scoring section says what is expected', async () => {
  const p = await problems('[scoring]\ntype = "geometric_mean"\n[[scoring.component]\n', { source: 'mine.toml' });
  assert.match(p[0]!.message, /not valid TOML at line 3/);
  const q = await problems('{"scoring": ');
  assert.match(q[0]!.message, /not valid JSON/);
  const r = await problems({ parameters: {} });
  assert.match(r[0]!.message, /no scoring section/);
  await assert.rejects(
    parseScoringProfile('x = 1', { source: 'mine.toml' }),
    /scoring profile mine\.toml: no scoring section/,
  );
});

test('staged-learning files: the stage is chosen; a separate component file is read through readFile', async () => {
  const staged = {
    stage: [
      { scoring: { type: 'geometric_mean', component: [{ Qed: { endpoint: [{ name: 'q' }] } }] } },
      { scoring: { type: 'arithmetic_mean', filename: 'stage2.toml', filetype: 'toml' } },
    ],
  };
  assert.match((await problems(staged))[0]!.message, /has 2 stages: choose one/);
  assert.equal((await loadScoringProfile(staged, { stage: 0 })).endpoints[0]!.name, 'q');
  assert.match((await problems(staged, { stage: 1 }))[0]!.message, /cannot be read here/);
  const files: Record<string, string> = {
    'stage2.toml': '[[component]]\n[component.SlogP]\n[[component.SlogP.endpoint]]\nname = "logp"\n',
  };
  const p = await loadScoringProfile(staged, { stage: 1, readFile: (n) => files[n]! });
  assert.deepEqual(
    p.endpoints.map((e) => e.name),
    ['logp'],
  );
});

async function transformed(transform: Record<string, unknown>, smiles: string, component = 'NumHeavyAtoms') {
  const p = await loadScoringProfile(one(component, { transform }, 'arithmetic_mean'));
  const [s] = await p.score([smiles]);
  return s!.components[0]!;
}

test("transforms follow REINVENT 4's formulas (hand-computed)", async () => {
  // Benzene: 6 heavy atoms.
  const b = 'c1ccccc1';
  const near = (x: number | null, y: number) => assert.ok(x !== null && Math.abs(x - y) < 1e-12, `${x} vs ${y}`);
  // sigmoid: 1 / (1 + 10^(-10 k (x - (low+high)/2) / (high - low)))
  near((await transformed({ type: 'sigmoid', low: 4, high: 8, k: 0.5 }, b)).value, 0.5);
  near(
    (await transformed({ type: 'sigmoid', low: 2, high: 8, k: 0.5 }, b)).value,
    1 / (1 + 10 ** (-(10 * 0.5 * 1) / 6)),
  );
  near(
    (await transformed({ type: 'reverse_sigmoid', low: 2, high: 8, k: 0.5 }, b)).value,
    1 - 1 / (1 + 10 ** -(5 / 6)),
  );
  near((await transformed({ type: 'sigmoid', low: 6, high: 6, k: 1 }, b)).value, 0); // hard: k x > 0 is false at x = 0
  // double_sigmoid: left of the centre 1 / (1 + 10^(-(coef_si / coef_div) (x - low)))
  near(
    (await transformed({ type: 'double_sigmoid', low: 5, high: 20, coef_div: 10, coef_si: 2, coef_se: 2 }, b)).value,
    1 / (1 + 10 ** -0.2),
  );
  // right of the centre 1 - 1 / (1 + 10^(-(coef_se / coef_div) (x - high)))
  near(
    (await transformed({ type: 'double_sigmoid', low: 1, high: 5, coef_div: 10, coef_si: 2, coef_se: 3 }, b)).value,
    1 - 1 / (1 + 10 ** -0.3),
  );
  near((await transformed({ type: 'step', low: 6, high: 6 }, b)).value, 1);
  near((await transformed({ type: 'step', low: 7, high: 9 }, b)).value, 0);
  near((await transformed({ type: 'left_step', low: 5 }, b)).value, 0);
  near((await transformed({ type: 'right_step', high: 6 }, b)).value, 1);
  near((await transformed({ type: 'exponential_decay', k: 0.5 }, b)).value, Math.exp(-3));
  near((await transformed({ type: 'gaussian', mu: 4, sigma: 2 }, b)).value, Math.exp(-0.5));
  near((await transformed({ type: 'min_gaussian', mu: 8, sigma: 2 }, b)).value, 1);
  near((await transformed({ type: 'min_gaussian', mu: 4, sigma: 2 }, b)).value, Math.exp(-0.5));
  near((await transformed({ type: 'max_gaussian', mu: 4, sigma: 2 }, b)).value, 1);
  near((await transformed({ type: 'clipped', upper_x: 12 }, b)).value, 0.5);
  near((await transformed({ type: 'clipped', upper_x: 2, lower_x: 10 }, b)).value, 0.5);
  near((await transformed({ type: 'value_mapping', mapping: { '6': 0.3 } }, b)).value, 0.3);
  assert.match(
    (await problems(one('Qed', { transform: { type: 'exponential_decay', k: 0 } })))[0]!.message,
    /must be greater than 0/,
  );
});

test("aggregation: REINVENT's weighted means (NaN left out, geometric floor 1e-8) and the exact geometric mean", async () => {
  const doc = (type: string) => ({
    scoring: {
      type,
      component: [
        { NumHeavyAtoms: { endpoint: [{ name: 'a', weight: 3, transform: { type: 'step', low: 6, high: 6 } }] } },
        {
          NumRings: {
            endpoint: [{ name: 'b', weight: 1, transform: { type: 'value_mapping', mapping: { '1': 0.25 } } }],
          },
        },
        { NumAromaticRings: { endpoint: [{ name: 'c', weight: 2, transform: { type: 'step', low: 5, high: 5 } }] } },
      ],
    },
  });
  const score = async (type: string, smiles: string) =>
    (await (await loadScoringProfile(doc(type))).score([smiles]))[0]!.total;
  // Benzene: a = 1, b = 0.25, c = 0.
  const close = (x: number, y: number) => assert.ok(Math.abs(x - y) < 1e-12, `${x} vs ${y}`);
  close(await score('arithmetic_mean', 'c1ccccc1'), (3 * 1 + 1 * 0.25 + 2 * 0) / 6);
  close(await score('geometric_mean', 'c1ccccc1'), 1 ** 0.5 * 0.25 ** (1 / 6) * 1e-8 ** (1 / 3));
  close(await score('geometric_mean_exact', 'c1ccccc1'), 0);
  // Naphthalene: 10 heavy atoms (a = 0), 2 rings (b NaN: left out), c = 0: weights renormalised over a and c.
  close(await score('arithmetic_mean', 'c1ccc2ccccc2c1'), 0);
  // Cyclohexanol: 7 heavy atoms (a = 0), one ring (b = 0.25), no aromatic ring (c = 0).
  close(await score('arithmetic_mean', 'OC1CCCCC1'), 0.25 / 6);
});
