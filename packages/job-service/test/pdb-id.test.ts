// PDB ids in a compound-generation request (issue 37, point 14): the classic form (2SRC) and wwPDB's extended form
// (pdb_00002src), in any case, are accepted wherever a PDB id is, and normalised: an extended id holding a classic
// one is that entry, fetched as 2SRC from the file service (a local server speaking its format) and docked into
// (AutoDock Vina: a budget of one docking call per job).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { findDockingTools } from '@evident/docking';
import { http, startTestServer, waitForStatus, type TestServer } from './helpers.js';
import { FakeSources } from './structures/fake-sources.js';

const tools = await findDockingTools().then(
  () => true,
  (e: Error) => e,
);
// Under CI the docking test runs and fails loudly when the tools are missing.
const skip =
  tools === true || process.env.CI === 'true' ? false : `docking tools missing (${(tools as Error).message})`;

let fake: FakeSources;
let s: TestServer;
let key: string;
before(async () => {
  fake = await FakeSources.start();
  s = await startTestServer({ ...fake.urls, retryBaseMs: 50, maxAttempts: 1 });
  key = (await s.store.createKey({ name: 'pdb', plan: 'enterprise', rpm: 10_000, concurrency: 4 })).key;
});
after(async () => {
  await s?.cleanup();
  await fake?.close();
});

// Human c-Src in 2SRC's UniProt numbering (see cg-target.test.ts).
const body = (pdb_id: string) => ({
  target_uniprot: 'P12931',
  binding_site: { residues: ['K297', 'T340', 'M343'] },
  pdb_id,
  num_molecules: 1,
  options: { seed: 5, max_evaluations: 100, population_size: 10, docking_exhaustiveness: 1, docking_budget: 1 },
});
const submit = (pdb_id: string) => http(s.url, 'POST', '/v1/compounds/generate', { key, body: body(pdb_id) });

/** Submits and runs the job: the structure its result names. */
async function structureFor(pdb_id: string): Promise<{ id: string; source: string }> {
  const r = await submit(pdb_id);
  assert.equal(r.status, 202, `${pdb_id}: ${r.text}`);
  const done = await waitForStatus(s.url, key, r.body.job_id, 300_000);
  assert.equal(done.status, 'completed', `${pdb_id}: ${JSON.stringify(done.error)}`);
  return (await http(s.url, 'GET', `/v1/results/${r.body.job_id}`, { key })).body.target.structure;
}

test('an extended PDB id holding a classic one is accepted and is that entry, in any case', { skip }, async () => {
  fake.reset();
  for (const id of ['pdb_00002src', 'PDB_00002SRC', '2src']) {
    const structure = await structureFor(id);
    assert.equal(structure.id, '2SRC', id);
    assert.equal(structure.source, 'pdb', id);
  }
  // One download: the other spellings found the same entry in the structure cache.
  assert.deepEqual(fake.paths(), ['GET /download/2SRC.pdb']);
});

test('an extended id beyond the classic range is kept extended; the entry missing fails the job by name', async () => {
  fake.reset();
  const r = await submit('pdb_10002abc');
  assert.equal(r.status, 202, r.text);
  const done = await waitForStatus(s.url, key, r.body.job_id, 120_000);
  assert.equal(done.status, 'failed');
  assert.equal(done.error.code, 'structure_unavailable');
  assert.match(done.error.message, /pdb_10002ABC/);
  assert.ok(fake.paths().includes('GET /download/pdb_10002ABC.pdb'), fake.paths().join());
});

test('what is not a PDB id is a 400 naming /pdb_id and both forms', async () => {
  for (const bad of ['SRC', '2SRCX', 'pdb_0002src', 'pdb-00002src', 'pdb_00002sr!', 'pdb_000002src']) {
    const r = await submit(bad);
    assert.equal(r.status, 400, `${bad}: ${r.text}`);
    assert.equal(r.body.error.code, 'invalid_parameters');
    const problem = r.body.error.details.find((d: { path: string }) => d.path === '/pdb_id');
    assert.ok(problem, `${bad}: ${JSON.stringify(r.body.error.details)}`);
    if (bad.length >= 4 && bad.length <= 12) assert.match(problem.message, /2SRC.*pdb_00002src/);
  }
});
