// The web console in a real browser: Playwright (playwright-core) drives Debian's chromium against
// kb-console over a temporary SQLite base: load, search, open an entity, add a claim, retract with
// confirmation; screenshots go to .test-output/kb-web/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { testOutputPath } from '@evident/testkit';
import type { FastifyInstance } from 'fastify';
import { quickstart, type KbDB, type ClaimInput } from '@evident/kb';
import { buildConsole } from '../src/console/server.js';
import { tempKb } from './helpers.js';

// Callbacks passed to page.evaluate/waitForFunction run in the browser; the package compiles without DOM types.
declare const document: any;
declare const window: any;

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const skip = existsSync(CHROMIUM)
  ? false
  : `no chromium at ${CHROMIUM} (apt-get install chromium; .ci/run installs it)`;
if (skip && process.env.CI === 'true') throw new Error(`web console test needs a browser: ${skip}`);

const kb = tempKb('web.kb');
let db: KbDB;
let app: FastifyInstance;
let browser: Browser;
let page: Page;
let base = '';
const pageErrors: string[] = [];

const c = (
  s: [string, string],
  p: [string, string],
  o: [string, string],
  source_type: string,
  source_id: string,
  confidence?: number,
): ClaimInput => ({
  subject: s,
  predicate: p,
  object: o,
  provenance: { source_type, source_id },
  ...(confidence === undefined ? {} : { confidence }),
});

async function seed(db: KbDB) {
  const G = (n: string): [string, string] => [n, 'gene'];
  const D = (n: string): [string, string] => [n, 'disease'];
  const R = (n: string): [string, string] => [n, 'drug'];
  const P = (n: string): [string, string] => [n, 'protein'];
  const assoc: [string, string] = ['associated_with', 'association'];
  await db.ingestBatch([
    c(G('BRCA1'), assoc, D('breast cancer'), 'literature', 'PMID:20301425', 0.9),
    c(G('BRCA1'), assoc, D('breast cancer'), 'database', 'OMIM:113705'),
    c(G('BRCA1'), assoc, D('ovarian cancer'), 'literature', 'PMID:7545954', 0.85),
    c(G('BRCA2'), assoc, D('breast cancer'), 'database', 'OMIM:600185'),
    c(G('BRCA2'), assoc, D('pancreatic cancer'), 'literature', 'PMID:12228710', 0.7),
    c(G('BRCA1'), ['encodes', 'genetic'], P('BRCA1 protein'), 'database', 'UniProt:P38398'),
    c(P('PARP1'), ['interacts_with', 'molecular'], P('BRCA1 protein'), 'experiment', 'assay-2231', 0.6),
    c(R('olaparib'), ['targets', 'pharmacology'], P('PARP1'), 'database', 'ChEMBL:CHEMBL521686', 0.95),
    c(R('olaparib'), ['treats', 'pharmacology'], D('ovarian cancer'), 'literature', 'PMID:22452356', 0.9),
    c(R('olaparib'), ['treats', 'pharmacology'], D('breast cancer'), 'literature', 'PMID:28578601', 0.85),
    c(R('talazoparib'), ['targets', 'pharmacology'], P('PARP1'), 'database', 'ChEMBL:CHEMBL3137320', 0.9),
    c(R('talazoparib'), ['treats', 'pharmacology'], D('breast cancer'), 'literature', 'PMID:30110579', 0.8),
    c(G('TP53'), assoc, D('breast cancer'), 'text_mining', 'pubtator-run-4', 0.55),
    c(G('PALB2'), ['interacts_with', 'molecular'], G('BRCA2'), 'experiment', 'assay-4410', 0.75),
    c(G('PALB2'), ['interacts_with', 'molecular'], G('BRCA1'), 'prediction', 'string-db-model', 0.45),
  ]);
}

before(async () => {
  if (skip) return;
  // Strict (kb-console --strict): the bad claim below is refused, and the page shows the field the API names.
  db = await quickstart(kb.path, { strict: true });
  await seed(db);
  app = await buildConsole(db);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address() as { port: number };
  base = `http://127.0.0.1:${addr.port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-extensions',
      '--no-first-run',
      '--disable-sync',
    ],
  });
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  // 4xx answers the page handles (the bad-claim step) are logged by the browser; script errors are not expected.
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) pageErrors.push(m.text());
  });
  // The page must work offline: only our own origin may be contacted.
  await page.route('**/*', (route) => (route.request().url().startsWith(base) ? route.continue() : route.abort()));
  mkdirSync(testOutputPath('kb-web'), { recursive: true });
});

after(async () => {
  await browser?.close();
  await app?.close();
  await db?.close();
  kb.cleanup();
});

test('web console: load, search, open an entity, add a claim, retract with confirmation', { skip }, async () => {
  try {
    await drive();
  } catch (e) {
    await page.screenshot({ path: testOutputPath('kb-web', 'failure.png'), fullPage: true }).catch(() => undefined);
    const status = await page
      .evaluate(() => [...document.querySelectorAll('.result')].map((el) => el.textContent).join(' | '))
      .catch(() => '');
    throw new Error(`${(e as Error).message}\npage status: ${status}\npage errors: ${pageErrors.join('; ')}`, {
      cause: e,
    });
  }
});

async function drive() {
  await page.goto(`${base}/`);
  await page.waitForSelector('#top-entities li');
  await page.waitForFunction(() => /\d/.test(document.querySelector('#health-score')?.textContent ?? ''));
  const score = Number((await page.textContent('#health-score'))!.replace('/100', ''));
  assert.equal(score, Math.round((await db.knowledgeHealth()).score));
  assert.equal(await page.locator('#health-chart svg rect').count(), 10, 'five metric bars (track + value)');
  // The vectors line (issue 41): the library's embeddingStatus() in words; it is asked again while vectors are
  // pending, so once they are all made it says so.
  await db.embeddingsReady();
  await page.waitForFunction(() => /none pending/.test(document.querySelector('#health-vectors')?.textContent ?? ''), {
    timeout: 15_000,
  });
  const vectors = (await page.textContent('#health-vectors'))!;
  assert.match(vectors, new RegExp(`^${db.embeddingStatus()!.indexed.toLocaleString('en-US')} vectors, none pending$`));
  await page.screenshot({ path: testOutputPath('kb-web', 'home.png'), fullPage: true });

  // Enter runs a full search: the claims the library ranks for the words and their meaning, then entities.
  // (Vectors are computed in the background: wait for them, so the page and the library rank the same index.)
  await db.embeddingsReady();
  await page.fill('#search', 'breast cancer genes');
  await page.press('#search', 'Enter');
  await page.waitForSelector('#claim-results');
  const ranked = (await db.search('breast cancer genes', 20)).results;
  assert.ok(ranked.length > 0);
  assert.equal(await page.locator('#claim-results li').count(), ranked.length);
  assert.ok((await page.textContent('#claim-results li'))!.includes(ranked[0]!.claim.subject[0]));

  // Search with suggestions.
  await page.fill('#search', 'brca');
  await page.waitForSelector('#suggestions li');
  const suggested = await page
    .locator('#suggestions li')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
  assert.ok(suggested.includes('gene:brca1') && suggested.includes('gene:brca2'), `suggestions: ${suggested}`);
  await page.click('#suggestions li[data-id="gene:brca1"]');

  // Entity view: header, graph, claims with provenance.
  await page.waitForSelector('#entity-view[data-entity="gene:brca1"]');
  await page.waitForSelector('#graph canvas');
  const frame = await db.query('gene:brca1', { depth: 2 });
  const nodes = await page.evaluate(
    () => (window as unknown as { kbGraph: { nodes(): { length: number } } }).kbGraph.nodes().length,
  );
  assert.equal(nodes, 1 + frame.entities.length, 'graph shows the focal entity and every entity within 2 hops');
  const rows = await page.locator('#claims-table tbody tr').count();
  assert.equal(rows, (await db.claimsFor('gene:brca1')).length);
  assert.match((await page.textContent('#claims-table'))!, /OMIM:113705/);

  // The timeline lists the entity's claim events; clicking a claim opens its audit trail.
  const events = (await db.evolution('gene:brca1')).events.length;
  await page.waitForFunction((n) => document.querySelectorAll('#timeline-view li').length === n, events);
  // Above the list, the chart: one mark per event.
  assert.equal(await page.locator('#timeline-view svg.timeline-chart circle').count(), events);
  const first = (await db.claimsFor('gene:brca1'))[0]!;
  await page.click(`#claims-table tr[data-claim="${first.claim_id}"] td.src`);
  await page.waitForFunction(() => /Events \(1\)/.test(document.querySelector('#audit-view')?.textContent ?? ''));
  assert.match((await page.textContent('#audit-view'))!, new RegExp(`source ${first.provenance.source_id}`));

  // Add a claim through the form (subject is pre-filled with the open entity).
  assert.equal(await page.inputValue('#claim-form [name=subject_name]'), 'BRCA1');
  await page.fill('#claim-form [name=predicate]', 'associated_with');
  await page.press('#claim-form [name=predicate]', 'Tab');
  assert.equal(
    await page.inputValue('#claim-form [name=predicate_class]'),
    'association',
    'class filled in from the vocabulary',
  );
  await page.fill('#claim-form [name=object_name]', 'prostate cancer');
  await page.fill('#claim-form [name=object_type]', 'disease');
  await page.selectOption('#claim-form [name=source_type]', 'literature');
  await page.fill('#claim-form [name=source_id]', 'PMID:web-test');
  await page.fill('#claim-form [name=confidence]', '0.8');
  await page.click('#claim-form button[type=submit]');
  await page.waitForFunction(() => /Added clm_/.test(document.querySelector('#claim-result')?.textContent ?? ''));
  await page.waitForFunction(() => /prostate cancer/.test(document.querySelector('#claims-table')?.textContent ?? ''));
  const stored = (await db.claimsFor('gene:brca1')).find((x) => x.object[0] === 'prostate cancer');
  assert.ok(stored, 'claim stored in the base');
  assert.equal(stored.confidence, 0.8);
  assert.equal(stored.provenance.source_id, 'PMID:web-test');
  await page.waitForFunction(
    (n) => (window as unknown as { kbGraph: { nodes(): { length: number } } }).kbGraph.nodes().length === n,
    2 + frame.entities.length,
  );
  await page.screenshot({ path: testOutputPath('kb-web', 'entity.png'), fullPage: true });

  // A bad claim shows the field the API names.
  await page.fill('#claim-form [name=object_name]', 'aspirin');
  await page.fill('#claim-form [name=object_type]', 'drug');
  await page.fill('#claim-form [name=predicate]', 'treats');
  await page.fill('#claim-form [name=source_id]', 'PMID:x');
  await page.click('#claim-form button[type=submit]');
  await page.waitForFunction(() => document.querySelector('#claim-result')?.classList.contains('err'));
  assert.match((await page.textContent('#claim-result'))!, /predicate/);

  // Retract: cancelling the confirmation changes nothing; confirming retracts.
  await page.fill('#retract-form [name=source_id]', 'PMID:web-test');
  await page.fill('#retract-form [name=reason]', 'entered by mistake');
  await page.click('#retract-form button[type=submit]');
  await page.waitForSelector('#confirm-dialog[open]');
  assert.match((await page.textContent('#confirm-text'))!, /PMID:web-test/);
  // The dialog previews the retraction's impact, as the library computes it.
  await page.waitForFunction(() =>
    /Would retract 1 claim/.test(document.querySelector('#confirm-impact')?.textContent ?? ''),
  );
  const im = await db.impact('PMID:web-test', { cascade: false });
  assert.match((await page.textContent('#confirm-impact'))!, new RegExp(`leave ${im.orphaned_entities.length} entit`));
  await page.click('#confirm-cancel');
  await page.waitForFunction(() => /Cancelled/.test(document.querySelector('#retract-result')?.textContent ?? ''));
  assert.ok(
    (await db.claimsFor('gene:brca1')).some((x) => x.provenance.source_id === 'PMID:web-test'),
    'still there after cancel',
  );
  await page.click('#retract-form button[type=submit]');
  await page.waitForSelector('#confirm-dialog[open]');
  await page.click('#confirm-ok');
  await page.waitForFunction(() =>
    /Retracted 1 claim/.test(document.querySelector('#retract-result')?.textContent ?? ''),
  );
  assert.ok(!(await db.claimsFor('gene:brca1')).some((x) => x.provenance.source_id === 'PMID:web-test'), 'retracted');
  await page.waitForFunction(() => !/prostate cancer/.test(document.querySelector('#claims-table')?.textContent ?? ''));

  // Clicking a node in the graph opens that entity.
  await page.evaluate(() =>
    (window as unknown as { kbGraph: { $id(id: string): { emit(e: string): void } } }).kbGraph
      .$id('protein:brca1 protein')
      .emit('tap'),
  );
  await page.waitForSelector('#entity-view[data-entity="protein:brca1 protein"]');
  assert.deepEqual(pageErrors, [], 'no errors in the page');
}

test('web console with KB_CONSOLE_TOKEN: asks for the token once, then works', { skip }, async () => {
  const secured = await buildConsole(db, { token: 'curator-token-1' });
  await secured.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(secured.server.address() as { port: number }).port}/`;
  const p = await browser.newPage();
  try {
    await p.goto(url);
    await p.waitForSelector('#token-dialog[open]');
    await p.fill('#token-input', 'curator-token-1');
    await p.click('#token-dialog button');
    await p.waitForSelector('#top-entities li');
    await p.waitForFunction(() => /\d/.test(document.querySelector('#health-score')?.textContent ?? ''));
    assert.equal(await p.locator('#token-dialog[open]').count(), 0);
  } finally {
    await p.close();
    await secured.close();
  }
});
