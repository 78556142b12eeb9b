// Gene-set enrichment through the discovery job (issue 42, point 3): options.enrichment on POST /v1/targets/discover,
// results.enrichment, ?format=enrichment.csv, the CLI's top sets, and the refusals, over real HTTP.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MAX_GENE_SETS_BASE64 } from '../src/kinds/td/schema.js';
import { startTestServer, http, runCli, waitForStatus, type TestServer } from './helpers.js';

const example = (f: string) => fileURLToPath(new URL(`../../target-discovery/examples/${f}`, import.meta.url));
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

let server: TestServer;
let key: string;
const request = JSON.parse(readFileSync(example('request.json'), 'utf8'));
const planted = readFileSync(example('planted_genes.csv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => {
    const [symbol, lfc] = l.split(',');
    return { symbol: symbol!, lfc: Number(lfc) };
  });
// Genes of the matrix that were not planted (no planted effect): the matrix's rows after the planted ones.
const matrixGenes = Buffer.from(request.expression_matrix, 'base64')
  .toString('utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => l.split(',')[0]!);
const plantedSet = new Set(planted.map((p) => p.symbol));
const background = matrixGenes.filter((g) => !plantedSet.has(g)).slice(200, 240);
const up = planted.filter((p) => p.lfc > 0).map((p) => p.symbol);
const down = planted.filter((p) => p.lfc < 0).map((p) => p.symbol);
const gmt = [
  ['PLANTED_UP', 'na', ...up, 'NOT_A_GENE_QX1'],
  ['PLANTED_DOWN', 'genes planted down', ...down],
  ['UNPLANTED', 'http://example.org/set', ...background],
]
  .map((l) => l.join('\t'))
  .join('\n');

before(async () => {
  server = await startTestServer();
  key = (await server.store.createKey({ name: 'enrich', plan: 'researcher' })).key;
});
after(() => server.cleanup());

test('td enrichment: goana, camera and fry on user sets come back as rows, CSV and CLI lines', async () => {
  const body = {
    ...request,
    options: { ...request.options, enrichment: { gene_sets: b64(gmt), min_size: 5, max_size: 200 } },
  };
  const sub = await http(server.url, 'POST', '/v1/targets/discover', { key, body });
  assert.equal(sub.status, 202, sub.text);
  const done = await waitForStatus(server.url, key, sub.body.job_id, 120_000);
  assert.equal(done.status, 'completed', JSON.stringify(done.error));
  const res = await http(server.url, 'GET', `/v1/results/${sub.body.job_id}`, { key });
  const e = res.body.enrichment;
  assert.ok(e, 'results.enrichment');
  assert.deepEqual(e.summary.methods, ['goana', 'camera', 'fry']);
  assert.deepEqual(e.summary.collections, ['GMT']);
  const row = (method: string, set: string) => e.rows.find((r: any) => r.method === method && r.set_id === set);
  for (const method of ['camera', 'fry']) {
    const u = row(method, 'PLANTED_UP');
    const d = row(method, 'PLANTED_DOWN');
    const bg = row(method, 'UNPLANTED');
    assert.ok(u && d && bg, `${method}: a row per set`);
    assert.equal(u.direction, 'up', `${method} PLANTED_UP direction`);
    assert.equal(d.direction, 'down', `${method} PLANTED_DOWN direction`);
    assert.ok(u.p_value < 0.01 && d.p_value < 0.01, `${method}: planted sets significant (${u.p_value}, ${d.p_value})`);
    assert.ok(bg.p_value > u.p_value && bg.p_value > d.p_value, `${method}: unplanted set less significant`);
    assert.equal(u.collection, 'GMT');
    assert.ok(u.size >= 5 && u.size <= up.length);
    assert.ok(
      u.leading_genes.every((g: string) => up.includes(g)),
      `${method}: leading genes of the set`,
    );
  }
  assert.ok(row('fry', 'PLANTED_UP').p_value_mixed > 0, 'fry: mixed p');
  const g = row('goana', 'PLANTED_UP');
  assert.ok(g && g.up > 0 && g.p_up < g.p_down && g.direction === 'up', JSON.stringify(g));
  assert.equal(row('goana', 'PLANTED_DOWN').direction, 'down');
  assert.equal(row('camera', 'PLANTED_DOWN').set_name, 'genes planted down');
  assert.equal(row('camera', 'UNPLANTED').set_name, 'UNPLANTED', 'a link is no name');
  // The unresolved identifier is counted, in the enrichment's and the result's warnings.
  assert.ok(e.warnings.some((w: string) => /1 of \d+ gene identifiers/.test(w) && w.includes('NOT_A_GENE_QX1')));
  assert.ok(
    res.body.summary.warnings.some((w: string) => w.startsWith('enrichment: ') && w.includes('NOT_A_GENE_QX1')),
  );

  // The dot plot: one dot per set row (9 rows here, under its cap of 25) plus the two legend dots, labelled by set.
  assert.match(e.dot_plot_svg, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.equal((e.dot_plot_svg.match(/<circle /g) ?? []).length, e.rows.length + 2);
  assert.ok(e.dot_plot_svg.includes('genes planted down (camera, PLANTED_DOWN)'));

  const csv = await http(server.url, 'GET', `/v1/results/${sub.body.job_id}?format=enrichment.csv`, { key });
  assert.equal(csv.status, 200, csv.text);
  assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
  const lines = csv.text.trim().split('\n');
  const header = lines[0]!.split(',');
  assert.deepEqual(header.slice(0, 8), [
    'method',
    'collection',
    'set_id',
    'set_name',
    'size',
    'direction',
    'p_value',
    'fdr',
  ]);
  assert.equal(lines.length - 1, e.rows.length);
  const cameraUp = lines.find((l) => l.startsWith('camera,GMT,PLANTED_UP,'))!.split(',');
  assert.equal(Number(cameraUp[header.indexOf('p_value')]), row('camera', 'PLANTED_UP').p_value);
  assert.equal(cameraUp[header.indexOf('leading_genes')], row('camera', 'PLANTED_UP').leading_genes.join(';'));

  const cli = await runCli(['results', sub.body.job_id, '--url', server.url, '--top', '3'], { EVIDENT_API_KEY: key });
  assert.equal(cli.code, 0, cli.stderr);
  const out = cli.stdout.split('\n');
  const at = out.findIndex((l) => l.startsWith('gene-set enrichment (goana, camera, fry): 3 GMT sets tested'));
  assert.ok(at > 0, cli.stdout);
  const best = [...e.rows].sort((a: any, b: any) => a.p_value - b.p_value)[0];
  const first = out.slice(at).find((l) => /^(goana|camera|fry)\s/.test(l))!;
  assert.ok(first.startsWith(best.method) && first.includes(best.set_id), `${first} vs ${best.method} ${best.set_id}`);
});

test('td enrichment: bad options are refused with their pointer and make no job', async () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['empty GMT', { gene_sets: b64('\n \n') }, '/options/enrichment/gene_sets'],
    ['a line without genes', { gene_sets: b64('ONLY_A_NAME\tdescription') }, '/options/enrichment/gene_sets'],
    ['another species', { gene_sets: b64('S\tna\tNOPE_1\tNOPE_2') }, '/options/enrichment/gene_sets'],
    ['not base64', { gene_sets: '***' }, '/options/enrichment/gene_sets'],
    ['unknown method', { methods: ['gsea'] }, '/options/enrichment/methods'],
    ['unknown collection', { collections: ['KEGG'] }, '/options/enrichment/collections'],
    ['min_size above max_size', { min_size: 50, max_size: 10 }, '/options/enrichment/max_size'],
    ['nothing to test', { collections: [] }, '/options/enrichment/collections'],
    ['unknown field', { permutations: 1000 }, '/options/enrichment'],
  ];
  const before = (await http(server.url, 'GET', '/v1/jobs', { key })).body;
  for (const [what, enrichment, pointer] of cases) {
    const body = { ...request, options: { ...request.options, enrichment } };
    const r = await http(server.url, 'POST', '/v1/targets/discover', { key, body });
    assert.equal(r.status, 400, `${what}: ${r.text}`);
    assert.equal(r.body.error.code, 'invalid_parameters', what);
    const paths = JSON.stringify(r.body.error);
    assert.ok(paths.includes(pointer), `${what}: ${paths}`);
  }
  assert.deepEqual((await http(server.url, 'GET', '/v1/jobs', { key })).body, before, 'no job made');
  // The GMT's bound (a body that size takes ~20 s to refuse on a loaded machine: checked in the served schema instead).
  const doc = (await http(server.url, 'GET', '/v1/openapi.json')).body;
  assert.ok(
    JSON.stringify(doc).includes(`"maxLength":${MAX_GENE_SETS_BASE64}`),
    'the served schema bounds options.enrichment.gene_sets',
  );
});

test('td enrichment: goana over a shipped GO collection; the CLI writes the CSV; a job without enrichment has none', async () => {
  const body = {
    ...request,
    options: { ...request.options, enrichment: { methods: ['goana'], collections: ['GO:MF'], min_size: 3 } },
  };
  const plain = await http(server.url, 'POST', '/v1/targets/discover', { key, body: request });
  const sub = await http(server.url, 'POST', '/v1/targets/discover', { key, body });
  assert.equal(sub.status, 202, sub.text);
  const done = await waitForStatus(server.url, key, sub.body.job_id, 120_000);
  assert.equal(done.status, 'completed', JSON.stringify(done.error));
  const e = (await http(server.url, 'GET', `/v1/results/${sub.body.job_id}`, { key })).body.enrichment;
  assert.deepEqual(e.summary.collections, ['GO:MF']);
  assert.ok(e.summary.gene_sets_source.length > 0, 'the GO source is named');
  assert.ok(e.rows.length > 0 && e.rows.length === e.summary.sets_tested['GO:MF']);
  for (const r of e.rows) {
    assert.equal(r.method, 'goana');
    assert.equal(r.collection, 'GO:MF');
    assert.match(r.set_id, /^GO:\d{7}$/);
    assert.ok(r.size >= 3 && r.size <= 500, `${r.set_id} size ${r.size}`);
    assert.ok(r.up <= e.summary.goana.up && r.down <= e.summary.goana.down);
    assert.equal(r.p_value, Math.min(r.p_up, r.p_down));
    assert.ok(r.fdr >= r.p_value);
  }

  const http_csv = await http(server.url, 'GET', `/v1/results/${sub.body.job_id}?format=enrichment.csv`, { key });
  const cli = await runCli(['results', sub.body.job_id, '--url', server.url, '--enrichment-csv'], {
    EVIDENT_API_KEY: key,
  });
  assert.equal(cli.code, 0, cli.stderr);
  assert.equal(cli.stdout, http_csv.text);

  assert.equal(plain.status, 202, plain.text);
  assert.equal((await waitForStatus(server.url, key, plain.body.job_id, 120_000)).status, 'completed');
  const none = await http(server.url, 'GET', `/v1/results/${plain.body.job_id}?format=enrichment.csv`, { key });
  assert.equal(none.status, 400, none.text);
  assert.ok(JSON.stringify(none.body.error).includes('/format'));
});

test('td enrichment: camera and fry on DESeq2 / edgeR-QL are refused by name; by default such a run gets goana and a warning', async () => {
  for (const method of ['deseq2', 'edger-ql']) {
    const body = {
      ...request,
      options: { ...request.options, method, enrichment: { methods: ['goana', 'fry'], gene_sets: b64(gmt) } },
    };
    const r = await http(server.url, 'POST', '/v1/targets/discover', { key, body });
    assert.equal(r.status, 400, `${method}: ${r.text}`);
    assert.equal(r.body.error.code, 'invalid_parameters');
    assert.ok(JSON.stringify(r.body.error).includes('/options/enrichment/methods'), r.text);
    assert.match(r.body.error.message + JSON.stringify(r.body.error), /fry need a limma linear model/);
  }
  const body = {
    ...request,
    options: { ...request.options, method: 'deseq2', enrichment: { gene_sets: b64(gmt), min_size: 5 } },
  };
  const sub = await http(server.url, 'POST', '/v1/targets/discover', { key, body });
  assert.equal(sub.status, 202, sub.text);
  const done = await waitForStatus(server.url, key, sub.body.job_id, 300_000);
  assert.equal(done.status, 'completed', JSON.stringify(done.error));
  const res = (await http(server.url, 'GET', `/v1/results/${sub.body.job_id}`, { key })).body;
  assert.ok(res.enrichment.rows.length > 0);
  assert.ok(res.enrichment.rows.every((r: { method: string }) => r.method === 'goana'));
  assert.ok(
    res.summary.warnings.some((w: string) =>
      /camera and fry need a limma linear model; the deseq2 pipeline has none, so they did not run \(goana did\)/.test(
        w,
      ),
    ),
    JSON.stringify(res.summary.warnings),
  );
});
