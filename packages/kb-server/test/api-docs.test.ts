// The API docs at the address every start message and the web console's link give, /api/v1/docs (no trailing
// slash): loaded as a browser would (redirects followed, every asset the page references fetched, relative
// URLs resolved against the page's final URL), then in chromium itself, where the operations must render.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { quickstart, type KbDB } from '@evident/kb';
import { buildConsole } from '../src/console/server.js';
import { tempKb } from './helpers.js';

declare const document: any;

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const noBrowser = existsSync(CHROMIUM) ? false : `no chromium at ${CHROMIUM} (apt-get install chromium)`;
if (noBrowser && process.env.CI === 'true') throw new Error(`the API docs test needs a browser: ${noBrowser}`);

const kb = tempKb('docs.kb');
let db: KbDB;
let app: FastifyInstance;
let base = '';

before(async () => {
  db = await quickstart(kb.path);
  app = await buildConsole(db);
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});

after(async () => {
  await app?.close();
  await db?.close();
  kb.cleanup();
});

test('GET /api/v1/docs: every asset the page references, resolved as a browser does, answers 200', async () => {
  for (const address of ['/api/v1/docs', '/api/v1/docs/', '/api/v1/docs?tab=claims']) {
    const page = await fetch(base + address);
    assert.equal(page.status, 200, address);
    const html = await page.text();
    assert.match(html, /swagger-ui/i, address);
    const refs = [...html.matchAll(/\s(?:href|src)="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(refs.length >= 5, `${address}: the page references its scripts, styles and icons (${refs})`);
    for (const ref of refs) {
      const url = new URL(ref, page.url);
      const asset = await fetch(url);
      assert.equal(asset.status, 200, `${address} references ${ref}: ${url} answered ${asset.status}`);
      assert.ok((await asset.arrayBuffer()).byteLength > 0, `${url} is empty`);
    }
    // The initializer loads the document from "./json" against the page's address with a slash added.
    const href = page.url.split('#')[0]!.split('?')[0]!;
    const spec = await fetch(new URL('./json', href.endsWith('/') ? href : `${href}/`));
    assert.equal(spec.status, 200, `${address}: the OpenAPI document`);
    assert.equal(((await spec.json()) as { openapi: string }).openapi, '3.1.0');
  }
  // The query of the address is kept through the redirect.
  const r = await fetch(`${base}/api/v1/docs?tab=claims`, { redirect: 'manual' });
  assert.equal(r.status, 302);
  assert.equal(r.headers.get('location'), '/api/v1/docs/?tab=claims');
});

test('/api/v1/docs in chromium: no request fails and the operations render', { skip: noBrowser }, async () => {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    const failures: string[] = [];
    page.on('response', (res) => {
      if (res.status() >= 400) failures.push(`${res.status()} ${res.url()}`);
    });
    page.on('requestfailed', (req) => failures.push(`failed ${req.url()}`));
    page.on('pageerror', (e) => failures.push(`page error ${e.message}`));
    await page.goto(`${base}/api/v1/docs`, { waitUntil: 'load' });
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    const operations = await page.evaluate(() => document.querySelectorAll('.opblock').length);
    assert.ok(operations >= 20, `the docs list the API's operations (${operations})`);
    assert.deepEqual(failures, []);
    assert.ok(page.url().startsWith(`${base}/api/v1/docs/`), page.url());
  } finally {
    await browser.close();
  }
});
