// Claims exported from a discovery job link back to the job's results: the REST console returns their
// provenance's job_url, the page serves the module that renders it, and that module links only http(s).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { open, type KbDB } from '@evident/kb';
import { buildConsole } from '../src/console/server.js';
// The page's own module, run here on a stand-in for its `h` that records what it would build.
import { sourceCell, sourceLinkOf } from '../src/console/web/provenance-link.js';
import { tempKb } from './helpers.js';

type Built = { tag: string; attrs: Record<string, unknown>; children: Built[] };
const h = (tag: string, attrs: Record<string, unknown> = {}, ...children: Built[]): Built => ({ tag, attrs, children });
const JOB_URL = 'http://127.0.0.1:8000/v1/results/td_0123456789abcdef';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const noBrowser = existsSync(CHROMIUM) ? false : `no chromium at ${CHROMIUM} (apt-get install chromium)`;
if (noBrowser && process.env.CI === 'true') throw new Error(`the link test needs a browser: ${noBrowser}`);

const exported = (db: KbDB) =>
  db.ingest(
    ['MET', 'gene'],
    ['upregulated_in', 'expression'],
    ['tumor', 'disease'],
    { source_type: 'differential_expression', source_id: 'evident-job:td_1', job_url: JOB_URL, method: 'limma-voom' },
    { confidence: 0.99, payload: { log2_fold_change: 2.1 } },
  );

test('the source cell links a job_url and nothing but http(s)', () => {
  const [id, type] = sourceCell(h, {
    source_type: 'differential_expression',
    source_id: 'evident-job:td_1',
    job_url: JOB_URL,
  }) as Built[];
  const a = id!.children[0]!;
  assert.equal(a.tag, 'a');
  assert.equal(a.attrs.href, JOB_URL);
  assert.equal(a.attrs.text, 'evident-job:td_1');
  assert.equal(a.attrs.rel, 'noopener noreferrer');
  assert.equal(type!.attrs.text, 'differential_expression');

  for (const job_url of ['javascript:alert(1)', 'data:text/html,x', '/v1/results/td_1', '', 42, undefined]) {
    const [plain] = sourceCell(h, { source_type: 't', source_id: 's', job_url }) as Built[];
    assert.equal(plain!.attrs.text, 's', String(job_url));
    assert.equal(plain!.children.length, 0, `${String(job_url)} is not linked`);
  }
  assert.equal(sourceLinkOf(null), null);
});

test("the REST console returns the job_url of an exported claim and serves the page's link module", async () => {
  const kb = tempKb('links.kb');
  const db = await open(kb.path);
  try {
    await exported(db);
    const app = await buildConsole(db);
    try {
      const r = await app.inject({ method: 'GET', url: '/api/v1/entities/gene%3Amet/claims' });
      assert.equal(r.statusCode, 200, r.body);
      const claim = r.json().claims[0];
      assert.equal(claim.provenance.job_url, JOB_URL);
      assert.equal(claim.provenance.method, 'limma-voom');
      const js = await app.inject({ method: 'GET', url: '/provenance-link.js' });
      assert.equal(js.statusCode, 200);
      assert.match(String(js.headers['content-type']), /javascript/);
      assert.match(js.body, /export function sourceCell/);
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
    kb.cleanup();
  }
});

test("the web page links an exported claim's source to the job's results", { skip: noBrowser }, async () => {
  const kb = tempKb('links-web.kb');
  const db = await open(kb.path);
  const app = await buildConsole(db);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  try {
    await exported(db);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.route('**/*', (route) => (route.request().url().startsWith(base) ? route.continue() : route.abort()));
    await page.goto(`${base}/#/entity/gene%3Amet`);
    const link = page.locator('#claims-table td.src a');
    await link.waitFor({ timeout: 30_000 });
    assert.equal(await link.getAttribute('href'), JOB_URL);
    assert.equal(await link.textContent(), 'evident-job:td_1');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await app.close();
    await db.close();
    kb.cleanup();
  }
});
