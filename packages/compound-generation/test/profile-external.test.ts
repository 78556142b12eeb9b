// ExternalProcess as REINVENT 4 runs it, with real Python scorers (test/fixtures/external-scorers/): the SMILES
// on stdin, JSON on stdout, `args` split as shlex.split does; and every way a scorer can fail ends in
// ExternalScorerError with its reason, never a hang.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ExternalScorerError,
  GenerationAbortedError,
  InvalidProfileError,
  Oracle,
  parseScoringProfile,
  type ExternalScorerFailure,
  type ProfileLoadOptions,
} from '@evident/compound-generation';

const SCORERS = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'external-scorers');
const PYTHON = '/usr/bin/python3';

function profileText(args: string, properties: string[] = ['predictions'], extra = '') {
  const endpoints = properties
    .map(
      (p) => `
[[scoring.component.ExternalProcess.endpoint]]
name = "${p}"
weight = 1
params.property = "${p}"
${extra}`,
    )
    .join('');
  return `
[scoring]
type = "arithmetic_mean"

[[scoring.component]]
[scoring.component.ExternalProcess]
params.executable = "${PYTHON}"
params.args = ${JSON.stringify(args)}
${endpoints}`;
}

test('a scorer gets the batch on stdin and its predictions become the raw values; args are split as shlex.split does', async () => {
  const profile = await parseScoringProfile(
    profileText(`${join(SCORERS, 'good.py')} --scale 0.5 "two words"`, ['predictions', 'last_arg'], ''),
  );
  const scored = await profile.score(['CCO', 'c1ccccc1', 'not a molecule', 'OCC']);
  // Canonical SMILES go to the scorer: CCO (3 characters), c1ccccc1 (8); OCC is CCO again, sent once.
  assert.deepEqual(
    scored.map((s) => s.components[0]?.raw ?? null),
    [1.5, 4, null, 1.5],
  );
  assert.equal(scored[0]!.components[1]!.raw, 'two words');
  assert.deepEqual(profile.counters(), { external_runs: 1, external_smiles: 2, docking_calls: 0, docking_failures: 0 });
  assert.equal(scored[2]!.total, 0);
});

test('stdin holds the SMILES joined by newlines, without a trailing newline', async () => {
  const profile = await parseScoringProfile(
    profileText(`${join(SCORERS, 'misbehave.py')} echo`, ['predictions', 'stdin']),
  );
  const [a] = await profile.score(['CCO', 'CCN']);
  assert.equal(a!.components[1]!.raw, "'CCO\\nCCN'");
});

test("Python's NaN in the JSON is no prediction: left out of the mean", async () => {
  const profile = await parseScoringProfile(
    `${profileText(`${join(SCORERS, 'misbehave.py')} nan`)}
[[scoring.component]]
[scoring.component.NumHeavyAtoms]
[[scoring.component.NumHeavyAtoms.endpoint]]
name = "atoms"
weight = 1
`,
  );
  const [first, second] = await profile.score(['CCO', 'CCCO']);
  assert.equal(first!.components[0]!.raw, null);
  assert.equal(first!.total, 3, 'only the atom count counts');
  assert.equal(second!.total, (0.25 + 4) / 2);
});

async function failure(mode: string, options: ProfileLoadOptions = {}): Promise<ExternalScorerError> {
  const profile = await parseScoringProfile(profileText(`${join(SCORERS, 'misbehave.py')} ${mode}`), options);
  try {
    await profile.score(['CCO', 'CCN', 'CCC']);
  } catch (e) {
    assert.ok(e instanceof ExternalScorerError, String(e));
    assert.equal(e.code, 'external_scorer_failed');
    return e;
  }
  assert.fail(`the ${mode} scorer was accepted`);
}

const cases: Array<[string, ExternalScorerFailure, RegExp, ProfileLoadOptions?]> = [
  ['crash', 'exit_status', /exited with status 3.*the model file is missing/s],
  ['garbage', 'invalid_json', /stdout is not JSON \(it printed "loading model\.\.\. done/],
  ['wrong_count', 'wrong_count', /returned 2 values for "predictions" for 3 SMILES/],
  ['no_payload', 'invalid_payload', /no "payload" object/],
  ['bad_value', 'invalid_payload', /value 0 of "predictions" is \[0\.5\]/],
  ['hang', 'timeout', /no answer within 1500 ms/, { externalProcess: { timeoutMs: 1500 } }],
  ['flood', 'output_too_large', /more than 1048576 bytes/, { externalProcess: { maxOutputBytes: 1024 * 1024 } }],
];
for (const [mode, reason, message, options] of cases) {
  test(`a scorer that does "${mode}" fails with reason ${reason}`, { timeout: 30_000 }, async () => {
    const e = await failure(mode, options);
    assert.equal(e.reason, reason);
    assert.match(e.message, message);
  });
}

test('a scorer that cannot be started, and one whose property is missing', async () => {
  const profile = await parseScoringProfile(profileText('x').replace(PYTHON, '/nonexistent/scorer'));
  await assert.rejects(
    profile.score(['CCO']),
    (e: unknown) => e instanceof ExternalScorerError && e.reason === 'spawn_failed',
  );
  const missing = await parseScoringProfile(profileText(join(SCORERS, 'good.py'), ['scores']));
  await assert.rejects(
    missing.score(['CCO']),
    (e: unknown) =>
      e instanceof ExternalScorerError &&
      e.reason === 'invalid_payload' &&
      /no list "scores" \(its keys: "predictions", "last_arg", "note"\)/.test(e.message),
  );
});

test('an abort ends a running scorer', { timeout: 30_000 }, async () => {
  const profile = await parseScoringProfile(profileText(`${join(SCORERS, 'misbehave.py')} hang`));
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 300);
  await assert.rejects(profile.score(['CCO'], { signal: controller.signal }), GenerationAbortedError);
});

test('where commands may not run, ExternalProcess is refused; a resolver decides what runs', async () => {
  await assert.rejects(
    parseScoringProfile(profileText(join(SCORERS, 'good.py')), { externalProcess: false }),
    (e: unknown) =>
      e instanceof InvalidProfileError &&
      /ExternalProcess is not allowed here/.test(e.message) &&
      e.problems[0]!.path === '/scoring/component/0/ExternalProcess',
  );
  const registered = { executable: PYTHON, args: [join(SCORERS, 'good.py'), '--scale', '2'] };
  const options: ProfileLoadOptions = {
    externalProcess: {
      resolve: (exe) => (exe === 'qsar-model' ? registered : `no scorer named "${exe}" is registered`),
    },
  };
  await assert.rejects(
    parseScoringProfile(profileText('x').replace(PYTHON, 'rm'), options),
    /no scorer named "rm" is registered/,
  );
  const profile = await parseScoringProfile(profileText('').replace(PYTHON, 'qsar-model'), options);
  assert.equal((await profile.score(['CCO']))[0]!.components[0]!.raw, 6);
});

test('unbalanced quotes in args and two commands in one component are refused', async () => {
  await assert.rejects(parseScoringProfile(profileText('a "b')), /cannot be split into arguments/);
  const two = profileText('a', ['predictions', 'last_arg']).replace(
    'params.property = "last_arg"',
    'params.property = "last_arg"\nparams.args = "b"',
  );
  await assert.rejects(parseScoringProfile(two), /one command per ExternalProcess component/);
});

test('an oracle charges nothing for a batch whose scorer failed', async () => {
  const profile = await parseScoringProfile(profileText(`${join(SCORERS, 'misbehave.py')} crash`));
  const oracle = new Oracle(profile, { max_oracle_calls: 10 });
  await assert.rejects(oracle.score(['CCO', 'CCN']), ExternalScorerError);
  assert.equal(oracle.used, 0);
  assert.equal(oracle.log.length, 0);
});
