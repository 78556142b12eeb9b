// POST /v1/compounds/generate with a scoring profile and an oracle budget (issue 38, points 3 and 5), over HTTP:
// a PMO profile runs to its budget with the request's constraints as hard filters, the results carry the best
// molecules and PMO's AUCs, ?format=calls.csv is the call log; an ExternalProcess runs only when it names a scorer
// registered in the server's configuration; a budget above the plan's cap and a bad profile are 400s naming the
// field.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { aucTopK, describeMolecule } from '@evident/compound-generation';
import { repoRoot, tempDir } from '@evident/testkit';
import { createClient } from '../src/client/client.js';
import { PLANS } from '../src/plans.js';
import { http, startTestServer, waitForStatus, type TestServer } from './helpers.js';

const PMO = join(repoRoot, 'packages/compound-generation/profiles/pmo');
const GOOD_SCORER = join(repoRoot, 'packages/compound-generation/test/fixtures/external-scorers/good.py');
const MISBEHAVE = join(repoRoot, 'packages/compound-generation/test/fixtures/external-scorers/misbehave.py');
const pmoProfile = (name: string) => parseToml(readFileSync(join(PMO, `${name}.toml`), 'utf8'));

const seed = { target_uniprot: 'P00533', binding_site: { residues: ['K721', 'T790'] } };

const externalProfile = (executable: string, args?: string) => ({
  type: 'arithmetic_mean',
  component: [
    {
      ExternalProcess: {
        endpoint: [
          {
            name: 'length',
            weight: 1,
            params: { executable, property: 'predictions', ...(args === undefined ? {} : { args }) },
          },
        ],
      },
    },
  ],
});

let s: TestServer;
let key: string;
let studentKey: string;
const dir = tempDir('evident-scorers-');
before(async () => {
  const registry = join(dir.path, 'scorers.json');
  writeFileSync(
    registry,
    JSON.stringify({
      length: { executable: '/usr/bin/python3', args: [GOOD_SCORER, '--scale', '0.01'], timeout_s: 60 },
      crashes: { executable: '/usr/bin/python3', args: [MISBEHAVE, 'crash'] },
    }),
  );
  s = await startTestServer({ externalScorersFile: registry, maxAttempts: 1 });
  // Polling spends a key's requests per minute: the jobs run under a key with room; the cap is a student's.
  key = (await s.store.createKey({ name: 'chemist', plan: 'enterprise', rpm: 10_000, concurrency: 4 })).key;
  studentKey = (await s.store.createKey({ name: 'student', plan: 'student' })).key;
});
after(async () => {
  await s?.cleanup();
  dir.cleanup();
});

const submit = (body: unknown) => http(s.url, 'POST', '/v1/compounds/generate', { key, body });

function csvLines(text: string): string[][] {
  // The SMILES and numbers of these logs hold no commas or quotes.
  return text
    .trimEnd()
    .split('\n')
    .map((l) => l.split(','));
}

test('a PMO profile with a budget: progress, the best molecules, the AUCs and the call log; constraints filter', async () => {
  const r = await submit({
    ...seed,
    constraints: { mw_range: [150, 350], hbd_max: 3 },
    num_molecules: 5,
    scoring: pmoProfile('albuterol_similarity'),
    budget: { max_oracle_calls: 120 },
    options: { seed: 7, strategy: 'graph_ga' },
  });
  assert.equal(r.status, 202, r.text);
  const done = await waitForStatus(s.url, key, r.body.job_id, 300_000);
  assert.equal(done.status, 'completed', JSON.stringify(done.error));

  const result = (await http(s.url, 'GET', `/v1/results/${r.body.job_id}`, { key })).body;
  assert.equal(result.mode, 'scoring');
  assert.deepEqual(result.target, { uniprot: 'P00533', residues: ['K721', 'T790'] });
  assert.equal(result.strategy, 'graph_ga');
  assert.equal(result.seed, 7);
  assert.equal(result.max_oracle_calls, 120);
  assert.equal(result.calls_used, 120);
  assert.deepEqual(result.constraints, { mw_range: [150, 350], hbd_max: 3 });
  assert.equal(result.molecules.length, 5);

  const log = await http(s.url, 'GET', `/v1/results/${r.body.job_id}?format=calls.csv`, { key });
  assert.equal(log.status, 200);
  assert.match(log.headers.get('content-type') ?? '', /^text\/csv/);
  const rows = csvLines(log.text);
  assert.deepEqual(rows[0], ['call', 'smiles', 'score', 'similarity', 'similarity (raw)']);
  const calls = rows.slice(1);
  assert.equal(calls.length, 120);
  const scores = calls.map((c) => Number(c[2]));
  assert.equal(result.auc_top10, aucTopK(scores, 10, 120));
  assert.equal(result.auc_top1, aucTopK(scores, 1, 120));
  const best = [...scores].sort((a, b) => b - a).slice(0, 5);
  assert.deepEqual(
    result.molecules.map((m: { score: number }) => m.score),
    best,
  );
  for (const m of result.molecules) assert.equal(calls[m.call - 1]![1], m.smiles);

  const table = csvLines((await http(s.url, 'GET', `/v1/results/${r.body.job_id}?format=csv`, { key })).text);
  assert.deepEqual(table[0], ['rank', 'smiles', 'score', 'call', 'similarity', 'similarity (raw)']);
  assert.equal(table.length - 1, 5);
  const page = await http(s.url, 'GET', `/v1/results/${r.body.job_id}?format=html`, { key });
  assert.equal(page.status, 200);
  assert.match(page.text, /<svg xmlns=/);
  assert.ok(page.text.includes(result.molecules[0].smiles));

  // Every molecule scored met the request's constraints (the filter runs before a call is spent). RDKit here runs
  // on the event loop the in-process server shares: it yields after each molecule, so that the server's and the
  // client's connection timers keep running (a keep-alive connection closed while both were held fails the next
  // request).
  for (const [, smiles] of calls) {
    await new Promise((resolve) => setImmediate(resolve));
    const p = await describeMolecule(smiles!);
    assert.ok(p.mw >= 150 && p.mw <= 350 && p.hbd <= 3, `${smiles}: mw ${p.mw}, hbd ${p.hbd}`);
  }
});

test('ExternalProcess naming a registered scorer runs its registered command', async () => {
  const r = await submit({
    ...seed,
    scoring: externalProfile('length'),
    budget: { max_oracle_calls: 60 },
    options: { strategy: 'random_screen' },
  });
  assert.equal(r.status, 202, r.text);
  const done = await waitForStatus(s.url, key, r.body.job_id, 300_000);
  assert.equal(done.status, 'completed', JSON.stringify(done.error));
  const text = (await http(s.url, 'GET', `/v1/results/${r.body.job_id}?format=calls.csv`, { key })).text;
  assert.equal(await createClient({ baseUrl: s.url, apiKey: key }).getCallLogCsv(r.body.job_id), text);
  const calls = csvLines(text);
  assert.deepEqual(calls[0], ['call', 'smiles', 'score', 'length', 'length (raw)']);
  assert.equal(calls.length - 1, 60);
  for (const c of calls.slice(1)) assert.equal(Number(c[4]), c[1]!.length * 0.01, c[1]);
});

test('a registered scorer that crashes fails the job with its error', async () => {
  const r = await submit({ ...seed, scoring: externalProfile('crashes'), budget: { max_oracle_calls: 30 } });
  assert.equal(r.status, 202, r.text);
  const done = await waitForStatus(s.url, key, r.body.job_id, 300_000);
  assert.equal(done.status, 'failed');
  assert.equal(done.error.code, 'job_failed');
  assert.match(
    done.error.message,
    /external scorer \/usr\/bin\/python3: exited with status 3; stderr: .*model file is missing/,
  );
});

test('refusals: 400 invalid_parameters with the JSON pointer, no job made', async () => {
  const jobCount = async () => (await http(s.url, 'GET', '/v1/jobs?kind=cg', { key: studentKey })).body.jobs.length;
  const jobsBefore = await jobCount();
  const cap = PLANS.student.max_oracle_calls;
  const qed = pmoProfile('qed');
  const cases: Array<[unknown, string, RegExp]> = [
    [
      { ...seed, scoring: externalProfile('/usr/bin/python3', '-c "import os"'), budget: { max_oracle_calls: 10 } },
      '/scoring/component/0/ExternalProcess/endpoint/0/params/executable',
      /no external scorer named "\/usr\/bin\/python3" is registered on this server \(registered: length, crashes\)/,
    ],
    [
      { ...seed, scoring: externalProfile('length', '--scale 100'), budget: { max_oracle_calls: 10 } },
      '/scoring/component/0/ExternalProcess/endpoint/0/params/executable',
      /takes no args from a request/,
    ],
    [
      { ...seed, scoring: qed, budget: { max_oracle_calls: cap + 1 } },
      '/budget/max_oracle_calls',
      new RegExp(`${cap + 1} is above your plan's cap of ${cap} oracle calls`),
    ],
    [
      {
        ...seed,
        scoring: { type: 'geometric_mean', component: [{ ChemProp: { endpoint: [{ name: 'x' }] } }] },
        budget: { max_oracle_calls: 10 },
      },
      '/scoring/component/0/ChemProp',
      /unknown or unsupported component "ChemProp"/,
    ],
    [{ ...seed, scoring: qed }, '/budget', /required with scoring/],
    [{ ...seed, budget: { max_oracle_calls: 10 } }, '/scoring', /required with budget/],
    [{ ...seed, scoring: qed, budget: { max_oracle_calls: 10 }, pdb_id: '2SRC' }, '/pdb_id', /not used with scoring/],
    [
      { ...seed, scoring: qed, budget: { max_oracle_calls: 10 }, options: { docking: true } },
      '/options/docking',
      /not used with scoring/,
    ],
    [{ ...seed, scoring: qed, budget: { max_oracle_calls: 0 } }, '/budget/max_oracle_calls', /.+/],
  ];
  for (const [body, path, message] of cases) {
    const r = await http(s.url, 'POST', '/v1/compounds/generate', { key: studentKey, body });
    assert.equal(r.status, 400, `${path}: ${r.text}`);
    assert.equal(r.body.error.code, 'invalid_parameters');
    const detail = r.body.error.details.find((d: { path: string }) => d.path === path);
    assert.ok(detail, `${path} in ${JSON.stringify(r.body.error.details)}`);
    assert.match(detail.message, message);
  }
  assert.equal(await jobCount(), jobsBefore, 'no job made');
});

test('a seed request still works and has no call log', async () => {
  const r = await submit({
    ...seed,
    num_molecules: 2,
    options: { seed: 3, max_evaluations: 100, population_size: 10, docking: false },
  });
  assert.equal(r.status, 202, r.text);
  const done = await waitForStatus(s.url, key, r.body.job_id, 300_000);
  assert.equal(done.status, 'completed', JSON.stringify(done.error));
  const result = (await http(s.url, 'GET', `/v1/results/${r.body.job_id}`, { key })).body;
  assert.equal(result.mode, undefined);
  assert.ok(result.molecules.length >= 1);
  const log = await http(s.url, 'GET', `/v1/results/${r.body.job_id}?format=calls.csv`, { key });
  assert.equal(log.status, 400);
  assert.equal(log.body.error.details[0].path, '/format');
});
