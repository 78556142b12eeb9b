// Target-aware compound generation end to end over HTTP, with real structures (wwPDB 2SRC) and real docking
// (AutoDock Vina and Open Babel; required under CI=true): the request's structure, the accession resolved through
// the structure sources (a local server speaking RCSB's and AlphaFold DB's formats), bad target fields, a source
// that is down, and the results page's 3D view rendered in Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { findDockingTools } from '@evident/docking';
import { testOutputPath } from '@evident/testkit';
import { startTestServer, http, waitForStatus, type TestServer } from './helpers.js';
import { FakeSources, PDB_FIXTURES } from './structures/fake-sources.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const tools = await findDockingTools().then(
  () => true,
  (e: Error) => e,
);
const skip =
  tools === true
    ? false
    : process.env.CI === 'true'
      ? false // under CI the tests run and fail loudly when the tools are missing
      : `docking tools missing (${(tools as Error).message})`;
if (skip) console.log(`# skipping target-aware compound generation tests: ${skip}`);

const src = readFileSync(join(PDB_FIXTURES, '2src.pdb'));
// Human c-Src (P12931) in 2SRC's UniProt numbering (DBREF: author 83-533 = UniProt 85-535): the catalytic lysine,
// the gatekeeper threonine and the hinge methionine, all in contact with the co-crystallised AMP-PNP.
const residues = ['K297', 'T340', 'M343'];
const small = { seed: 5, max_evaluations: 300, population_size: 30, docking_exhaustiveness: 1, docking_budget: 10 };

let fake: FakeSources;
let server: TestServer;
let key: string;
before(async () => {
  if (skip) return;
  fake = await FakeSources.start();
  server = await startTestServer({ ...fake.urls, retryBaseMs: 50 });
  key = (await server.store.createKey({ name: 'cg-target', plan: 'enterprise', rpm: 1000, concurrency: 4 })).key;
});
after(async () => {
  await server?.cleanup();
  await fake?.close();
});

const submit = (body: Record<string, unknown>) => http(server.url, 'POST', '/v1/compounds/generate', { key, body });

test('a structure in the request: every molecule is docked into its pocket, with score, pose and contacts', {
  skip,
}, async () => {
  const sub = await submit({
    target_uniprot: 'P12931',
    binding_site: { residues },
    structure: src.toString('base64'),
    constraints: { mw_range: [250, 500], logp_range: [0, 5] },
    num_molecules: 3,
    options: small,
  });
  assert.equal(sub.status, 202, sub.text);
  const done = await waitForStatus(server.url, key, sub.body.job_id, 600_000);
  assert.equal(done.status, 'completed', JSON.stringify(done.error));
  const res = (await http(server.url, 'GET', `/v1/results/${sub.body.job_id}`, { key })).body;
  assert.equal(res.guidance, 'structure');
  assert.deepEqual(res.target.structure, { id: 'request', source: 'request', format: 'pdb', chain: 'A' });
  assert.equal(res.target.pocket.source, 'ligand', 'the box is drawn around the co-crystallised AMP-PNP');
  assert.deepEqual(
    res.target.resolved_residues.map((r: any) => [r.label, r.author_number]),
    [
      ['K297', 295],
      ['T340', 338],
      ['M343', 341],
    ],
  );
  assert.ok(res.docking.calls <= 10 && res.docking.calls >= res.molecules.length, JSON.stringify(res.docking));
  assert.equal(res.docking.engine, 'AutoDock Vina');
  assert.ok(res.molecules.length >= 1);
  for (const m of res.molecules) {
    assert.ok(Number.isFinite(m.docking_score) && m.docking_score < 0, `docking score ${m.docking_score}`);
    assert.equal(m.pose.format, 'sdf');
    assert.match(m.pose.data, /\$\$\$\$/);
    assert.ok(m.contacts.length > 0 && m.contacts.every((c: string) => /^[A-Z]\d+$/.test(c)), m.contacts.join());
  }
  const scores = res.molecules.map((m: any) => m.docking_score);
  assert.equal(
    res.summary.mean_docking_score,
    Math.round((scores.reduce((a: number, b: number) => a + b, 0) / scores.length) * 100) / 100,
  );
  const csv = await http(server.url, 'GET', `/v1/results/${sub.body.job_id}?format=csv`, { key });
  assert.ok(csv.text.split('\n')[0]!.includes('docking_score'));

  // The results page: the top poses in the pocket, drawn by 3Dmol.js in a real browser, offline.
  const page = await http(server.url, 'GET', `/v1/results/${sub.body.job_id}?format=html`, { key });
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /text\/html/);
  assert.match(page.headers.get('content-security-policy') ?? '', /connect-src 'none'/);
  const out = testOutputPath('cg-results-page');
  mkdirSync(out, { recursive: true });
  const file = join(out, 'results.html');
  writeFileSync(file, page.text);
  if (!existsSync(CHROMIUM) && process.env.CI !== 'true') return;
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless=new',
        '--no-sandbox',
        '--use-angle=swiftshader',
        '--enable-unsafe-swiftshader',
        '--disable-background-networking',
        '--no-first-run',
        '--disable-sync',
        '--disable-extensions',
      ],
    });
    const tab = await browser.newPage({ viewport: { width: 1300, height: 800 } });
    const errors: string[] = [];
    tab.on('pageerror', (e) => errors.push(String(e)));
    await tab.route('**/*', (r) => (r.request().url().startsWith('file:') ? r.continue() : r.abort()));
    await tab.goto(`file://${file}`);
    await tab.waitForSelector('#viewer[data-ready="true"]', { timeout: 30_000 });
    const viewer = await tab.$eval('#viewer', (el) => ({
      ...(el as unknown as { dataset: Record<string, string> }).dataset,
    }));
    assert.deepEqual(errors, []);
    assert.ok(Number(viewer.pocketAtoms) > 50, `pocket atoms ${viewer.pocketAtoms}`);
    assert.ok(Number(viewer.atoms) > 10, `pose atoms ${viewer.atoms}`);
    // The rows are in docking-score order (results-page.test.ts): the best pose is shown first.
    const byScore = [...res.molecules].sort((a: any, b: any) => a.docking_score - b.docking_score || a.rank - b.rank);
    assert.equal(viewer.shown, String(byScore[0].rank));
    assert.equal(await tab.locator('#poses tr').count(), res.molecules.length);
    // the canvas holds a drawing, not a blank rectangle
    const shot = await tab.locator('#viewer').screenshot({ path: join(out, 'viewer.png') });
    assert.ok(shot.length > 5_000, `screenshot of ${shot.length} bytes`);
    await tab.locator('#poses tr').last().click();
    assert.equal(await tab.getAttribute('#viewer', 'data-shown'), String(byScore.at(-1).rank));
  } finally {
    await browser?.close();
  }
});

test('the accession alone: the structure comes from the PDB search and file services', { skip }, async () => {
  fake.reset();
  const sub = await submit({
    target_uniprot: 'P12931',
    binding_site: { residues },
    num_molecules: 2,
    options: { ...small, docking_budget: 6 },
  });
  assert.equal(sub.status, 202, sub.text);
  const done = await waitForStatus(server.url, key, sub.body.job_id, 600_000);
  assert.equal(done.status, 'completed', JSON.stringify(done.error));
  const res = (await http(server.url, 'GET', `/v1/results/${sub.body.job_id}`, { key })).body;
  assert.deepEqual(res.target.structure, { id: '2SRC', source: 'pdb', format: 'pdb', chain: 'A' });
  assert.ok(fake.paths().includes('POST /rcsbsearch/v2/query'));
  assert.ok(fake.paths().includes('GET /download/2SRC.pdb'));
});

test('a structure source that is down fails the job as structure_unavailable', { skip }, async () => {
  fake.reset({ searchStatus: 500 });
  const sub = await submit({ target_uniprot: 'P29274', binding_site: { residues: ['F168'] }, num_molecules: 1 });
  assert.equal(sub.status, 202, sub.text);
  const done = await waitForStatus(server.url, key, sub.body.job_id, 120_000);
  assert.equal(done.status, 'failed');
  assert.equal(done.error.code, 'structure_unavailable');
  assert.match(done.error.message, /RCSB PDB search service/);
});

test('bad target fields are 400s naming the field', { skip }, async () => {
  const base = { target_uniprot: 'P12931', binding_site: { residues }, structure: src.toString('base64') };
  const waters = Buffer.from(
    src
      .toString('utf8')
      .split('\n')
      .filter((l) => l.startsWith('HETATM') && l.includes('HOH'))
      .join('\n'),
  ).toString('base64');
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ ...base, binding_site: { residues: ['W340'] } }, '/binding_site/residues/0'],
    [{ ...base, chain: 'Z' }, '/chain'],
    [{ ...base, pocket: { center: [10, 20, 58], size: [4, 4, 4] } }, '/pocket/size/0'],
    [{ ...base, pocket: { center: [10, 20, 58], size: [60, 20, 20] } }, '/pocket/size/0'],
    [{ ...base, structure: 'not base64 at all!' }, '/structure'],
    [{ ...base, structure: Buffer.from('HELLO WORLD\n').toString('base64') }, '/structure'],
    [{ ...base, structure: waters }, '/structure'],
    [{ ...base, pdb_id: '2SRC' }, '/pdb_id'],
  ];
  for (const [body, path] of cases) {
    const r = await submit(body);
    assert.equal(r.status, 400, `${path}: ${r.text}`);
    assert.ok(
      r.body.error.details.some((d: any) => d.path === path),
      `expected a problem at ${path}: ${JSON.stringify(r.body.error.details)}`,
    );
  }
});
