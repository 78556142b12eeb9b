// Both engines end to end over real HTTP: submit, poll, fetch results (JSON and CSV), list targets.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startTestServer, http, runCli, waitForStatus, type TestServer } from './helpers.js';

const example = (f: string) => fileURLToPath(new URL(`../../target-discovery/examples/${f}`, import.meta.url));

let server: TestServer;
let key: string;

before(async () => {
  server = await startTestServer();
  key = (await server.store.createKey({ name: 'e2e', plan: 'researcher' })).key;
});
after(() => server.cleanup());

test('td: the example dataset runs through the API and the planted genes come back as targets', async () => {
  const request = JSON.parse(readFileSync(example('request.json'), 'utf8'));
  const planted = readFileSync(example('planted_genes.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => {
      const [symbol, lfc] = l.split(',');
      return { symbol: symbol!, lfc: Number(lfc) };
    });

  const sub = await http(server.url, 'POST', '/v1/targets/discover', { key, body: request });
  assert.equal(sub.status, 202, sub.text);
  assert.match(sub.body.job_id, /^td_/);
  assert.equal(sub.body.webhook_url, `${server.url}/v1/jobs/${sub.body.job_id}`);

  const done = await waitForStatus(server.url, key, sub.body.job_id, 120_000);
  assert.equal(done.status, 'completed', JSON.stringify(done.error));

  const res = await http(server.url, 'GET', `/v1/results/${sub.body.job_id}`, { key });
  assert.equal(res.status, 200);
  const found = new Map<string, any>(res.body.targets.map((t: any) => [t.gene_symbol, t]));
  const recovered = planted.filter((p) => found.has(p.symbol));
  assert.ok(recovered.length >= 0.8 * planted.length, `recovered ${recovered.length} of ${planted.length}`);
  for (const p of recovered) {
    const t = found.get(p.symbol);
    assert.equal(Math.sign(t.log2_fold_change), Math.sign(p.lfc), `${p.symbol} direction`);
  }
  assert.ok(res.body.plots.volcano_svg.startsWith('<svg'));

  const csv = await http(server.url, 'GET', `/v1/results/${sub.body.job_id}?format=csv`, { key });
  assert.equal(csv.status, 200);
  const lines = csv.text.trim().split('\n');
  assert.equal(lines.length - 1, res.body.summary.features_tested);
  for (const col of ['log2_fold_change', 'p_value', 'adjusted_p_value', 'b']) assert.ok(lines[0]!.includes(col), col);

  const targets = await http(server.url, 'GET', '/v1/targets', { key });
  assert.equal(targets.status, 200);
  assert.ok(JSON.stringify(targets.body).includes(recovered[0]!.symbol));

  // The terminal summary: a headline and the top targets as a table, not the whole document.
  const summary = await runCli(['results', sub.body.job_id, '--url', server.url, '--top', '5'], {
    EVIDENT_API_KEY: key,
  });
  assert.equal(summary.code, 0, summary.stderr);
  const out = summary.stdout.trim().split('\n');
  assert.match(
    out[0]!,
    new RegExp(`^${res.body.summary.features_tested} features tested; ${res.body.summary.significant} significant`),
  );
  const head = out.findIndex((l) => /^rank\s+gene\s+log2FC\s+adj\.P\s+tier\s+family\s+priority$/.test(l));
  assert.ok(head > 0, summary.stdout);
  const rows = out.slice(head + 1).filter((l) => /^\s*\d+\s/.test(l));
  assert.equal(rows.length, 5);
  assert.ok(rows[0]!.includes(res.body.targets[0].gene_symbol));
  assert.ok(summary.stdout.length < 2000, 'a summary, not the results document');
});

test('td: a request with a missing condition column is refused with its path', async () => {
  const request = JSON.parse(readFileSync(example('request.json'), 'utf8'));
  request.condition_column = 'no_such_column';
  const r = await http(server.url, 'POST', '/v1/targets/discover', { key, body: request });
  assert.equal(r.status, 400, r.text);
  assert.ok(JSON.stringify(r.body.error).includes('condition_column'));
});

// The docked, target-aware run over HTTP is cg-target.test.ts; this one is the search's constraints alone.
test('cg: the seed request without docking designs molecules that satisfy every constraint', async () => {
  const body = {
    target_uniprot: 'P00533',
    binding_site: { residues: ['K721', 'L834', 'T790'] },
    constraints: { mw_range: [300, 500], logp_range: [1, 5], hbd_max: 3, hba_max: 7 },
    num_molecules: 8,
    options: { seed: 7, docking: false },
  };
  const sub = await http(server.url, 'POST', '/v1/compounds/generate', { key, body });
  assert.equal(sub.status, 202, sub.text);
  assert.match(sub.body.job_id, /^cg_/);
  assert.equal(sub.body.webhook_url, undefined, 'the seed compound response has no webhook_url');
  assert.match(sub.body.estimated_time, /^\d+-\d+ (seconds|minutes|hours)$/);
  const done = await waitForStatus(server.url, key, sub.body.job_id, 120_000);
  assert.equal(done.status, 'completed', JSON.stringify(done.error));
  const res = await http(server.url, 'GET', `/v1/results/${sub.body.job_id}`, { key });
  assert.equal(res.body.molecules.length, 8);
  for (const m of res.body.molecules) {
    assert.ok(m.properties.mw >= 300 && m.properties.mw <= 500, `mw ${m.properties.mw}`);
    assert.ok(m.properties.logp >= 1 && m.properties.logp <= 5, `logp ${m.properties.logp}`);
    assert.ok(m.properties.hbd <= 3 && m.properties.hba <= 7);
    assert.ok(m.svg.includes('<svg'));
  }
  assert.equal(new Set(res.body.molecules.map((m: any) => m.smiles)).size, 8);
  const csv = await http(server.url, 'GET', `/v1/results/${sub.body.job_id}?format=csv`, { key });
  assert.equal(csv.text.trim().split('\n').length, 9);
});

test('cg: a malformed accession is refused naming the field', async () => {
  const r = await http(server.url, 'POST', '/v1/compounds/generate', {
    key,
    body: { target_uniprot: 'not-an-accession', binding_site: { residues: ['K721'] }, num_molecules: 5 },
  });
  assert.equal(r.status, 400, r.text);
  assert.ok(JSON.stringify(r.body.error).includes('target_uniprot'));
});

test('the demo kind is not served unless its module is configured', async () => {
  const prod = await startTestServer({ kindModules: [] });
  try {
    const k = (await prod.store.createKey({ name: 'prod', plan: 'researcher' })).key;
    const r = await http(prod.url, 'POST', '/v1/demo/run', { key: k, body: { items: 1 } });
    assert.equal(r.status, 404);
    const doc = await http(prod.url, 'GET', '/v1/openapi.json');
    assert.ok(!('/v1/demo/run' in doc.body.paths));
    assert.ok('/v1/targets/discover' in doc.body.paths && '/v1/compounds/generate' in doc.body.paths);
  } finally {
    await prod.cleanup();
  }
});
