// Signed results links, the same cases for both stores: a browser opens a completed job's results (the HTML page)
// without an Authorization header through a link made with the API key; links expire, can be revoked (DELETE, or
// revoking the key), are refused when changed, open nothing else, and outlive a restart or another API instance
// (the signing secret is the store's). And `/` answers a person instead of a 401.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { ResultLinks } from '../src/api/result-links.js';
import type { Store } from '../src/store/types.js';
import { demoKindModule, http, isErrorBody, waitForStatus, type TestServer } from './helpers.js';

export const pageKindModule = fileURLToPath(new URL('./page-kind.ts', import.meta.url));
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

export interface LinksMode {
  server: TestServer;
  /** The store opened again on the same database, as another API instance (or the next start) opens it. */
  reopen(): Promise<Store>;
}

export function resultLinksSuite(mode: string, start: () => Promise<LinksMode>, skip: string | false = false) {
  let m: LinksMode;
  let s: TestServer;
  let key: string;
  let jobId: string;
  before(async () => {
    if (skip) return;
    m = await start();
    s = m.server;
    const k = await s.store.createKey({ name: 'links', plan: 'enterprise', rpm: 10_000, concurrency: 100 });
    key = k.key;
    jobId = await completedJob(key);
  });
  after(async () => {
    if (skip) return;
    await s.cleanup();
  });

  async function completedJob(k: string): Promise<string> {
    const sub = await http(s.url, 'POST', '/v1/paged/run', { key: k, body: { items: 3, label: 'linked' } });
    assert.equal(sub.status, 202, sub.text);
    const final = await waitForStatus(s.url, k, sub.body.job_id);
    assert.equal(final.status, 'completed', JSON.stringify(final));
    return sub.body.job_id;
  }
  const newLink = async (id = jobId, body: unknown = {}, k = key) => {
    const r = await http(s.url, 'POST', `/v1/results/${id}/links`, { key: k, body });
    assert.equal(r.status, 201, r.text);
    return r.body as { url: string; token: string; expires_at: string };
  };
  /** A browser following a link: no Authorization header, HTML first in Accept. */
  const open = (url: string, headers: Record<string, string> = BROWSER) => fetch(url, { headers });

  test(`${mode}: / answers a person with a page and a program with JSON, never 401`, { skip }, async () => {
    const page = await open(`${s.url}/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type')!, /^text\/html/);
    const html = await page.text();
    assert.match(html, /href="http:\/\/[^"]+\/v1\/docs"/);
    assert.match(html, /\/v1\/results\/JOB_ID\/links/);
    const doc = await http(s.url, 'GET', '/');
    assert.equal(doc.status, 200, doc.text);
    assert.equal(doc.body.docs_url, `${s.url}/v1/docs`);
    assert.equal(doc.body.openapi_url, `${s.url}/v1/openapi.json`);
  });

  test(`${mode}: a link opens the results page in a browser without the key`, { skip }, async () => {
    // As before, the page itself needs the key.
    assert.equal((await open(`${s.url}/v1/results/${jobId}?format=html`)).status, 401);
    const before = Date.now();
    const link = await newLink();
    assert.equal(link.url, `${s.url}/v1/results/${jobId}?format=html&token=${link.token}`);
    const ttl = Date.parse(link.expires_at) - before;
    assert.ok(ttl > 3590_000 && ttl <= 3601_000, `default one hour, got ${ttl} ms`);
    const page = await open(link.url);
    assert.equal(page.status, 200, await page.clone().text());
    assert.match(page.headers.get('content-type')!, /^text\/html/);
    assert.match(page.headers.get('content-disposition')!, /^inline/, 'shown in the browser, not downloaded');
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.match(await page.text(), new RegExp(`<h1>Results of ${jobId}</h1>`));
    // A POST without a body (curl -X POST) takes the defaults.
    const bare = await http(s.url, 'POST', `/v1/results/${jobId}/links`, { key });
    assert.equal(bare.status, 201, bare.text);
    // The same token reads the other formats of the same results.
    const csv = await open(`${s.url}/v1/results/${jobId}?format=csv&token=${link.token}`);
    assert.equal(csv.status, 200);
    assert.match(await csv.text(), /^index,value\n0,/);
    const json = await http(s.url, 'GET', `/v1/results/${jobId}?token=${link.token}`);
    assert.equal(json.status, 200, json.text);
    assert.equal(json.body.label, 'linked');
  });

  test(`${mode}: the status document gives a link when asked, and only then`, { skip }, async () => {
    const plain = await http(s.url, 'GET', `/v1/jobs/${jobId}`, { key });
    assert.equal(plain.body.results_link, undefined);
    assert.equal(plain.body.results_url, `${s.url}/v1/results/${jobId}`, 'the published field is unchanged');
    const asked = await http(s.url, 'GET', `/v1/jobs/${jobId}?results_link=true`, { key });
    assert.equal(asked.status, 200, asked.text);
    assert.match(asked.body.results_link.url, /\?format=html&token=evl_/);
    assert.ok(Date.parse(asked.body.results_link.expires_at) > Date.now());
    assert.equal((await open(asked.body.results_link.url)).status, 200);
    // A job without results has no link to give.
    const running = await http(s.url, 'POST', '/v1/paged/run', { key, body: { items: 1, cpu_ms: 60_000 } });
    const st = await http(s.url, 'GET', `/v1/jobs/${running.body.job_id}?results_link=true`, { key });
    assert.equal(st.body.results_link, undefined);
    const refused = await http(s.url, 'POST', `/v1/results/${running.body.job_id}/links`, { key, body: {} });
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.error.code, 'job_not_completed');
    await http(s.url, 'DELETE', `/v1/jobs/${running.body.job_id}`, { key });
  });

  test(`${mode}: a changed token is refused with a page for a browser and JSON for a program`, { skip }, async () => {
    const link = await newLink();
    const body = link.token.slice(4);
    const flipped = `evl_${body.slice(0, -3)}${body.at(-3) === 'A' ? 'B' : 'A'}${body.slice(-2)}`;
    const longer = `evl_${Buffer.from(body, 'base64url').toString('base64url').replace(/.{6}/, 'AAAAAA')}`;
    for (const token of [flipped, longer, 'evl_', 'evl_AAAA', 'nonsense', link.token.slice(0, -5)]) {
      const page = await open(`${s.url}/v1/results/${jobId}?format=html&token=${encodeURIComponent(token)}`);
      assert.equal(page.status, 403, token);
      assert.match(page.headers.get('content-type')!, /^text\/html/);
      assert.match(await page.text(), /not valid[\s\S]*link_invalid/);
      const api = await http(s.url, 'GET', `/v1/results/${jobId}?token=${encodeURIComponent(token)}`);
      assert.equal(api.status, 403);
      assert.ok(isErrorBody(api.body));
      assert.equal(api.body.error.code, 'link_invalid');
    }
    // A link is for one job: another job of the same key, and any other route, are not opened by it.
    const other = await completedJob(key);
    const moved = await open(link.url.replace(jobId, other));
    assert.equal(moved.status, 403);
    assert.equal((await http(s.url, 'GET', `/v1/jobs/${jobId}?token=${link.token}`)).status, 401);
    assert.equal((await http(s.url, 'GET', `/v1/jobs?token=${link.token}`)).status, 401);
    assert.equal(
      (await http(s.url, 'POST', `/v1/results/${jobId}/links?token=${link.token}`, { body: {} })).status,
      401,
    );
  });

  test(`${mode}: an expired link is refused and says when it expired`, { skip }, async () => {
    const job = (await s.store.getJob(jobId))!;
    // Made by the service's own signer over the same store, ten seconds in the past.
    const expired = await new ResultLinks(s.store).create(job, s.url, -10, 'html');
    const page = await open(expired.url);
    assert.equal(page.status, 403);
    assert.match(await page.text(), new RegExp(`expired at ${expired.expires_at.replace(/[.]/g, '\\.')}`));
    const api = await http(s.url, 'GET', `/v1/results/${jobId}?token=${expired.token}`);
    assert.equal(api.body.error.code, 'link_expired');
    // The bounds a caller may ask for.
    for (const expires_in of [59, 86_401, 1.5]) {
      const r = await http(s.url, 'POST', `/v1/results/${jobId}/links`, { key, body: { expires_in } });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.error.details[0].path, '/expires_in');
    }
    const short = await newLink(jobId, { expires_in: 60 });
    const ttl = Date.parse(short.expires_at) - Date.now();
    assert.ok(ttl > 50_000 && ttl <= 61_000, `${ttl}`);
    const long = await newLink(jobId, { expires_in: 86_400 });
    assert.equal((await open(long.url)).status, 200);
  });

  test(`${mode}: DELETE revokes every link made so far; new ones work`, { skip }, async () => {
    const a = await newLink();
    const b = await newLink();
    assert.equal((await open(a.url)).status, 200);
    const del = await http(s.url, 'DELETE', `/v1/results/${jobId}/links`, { key });
    assert.equal(del.status, 204, del.text);
    for (const l of [a, b]) {
      const r = await http(s.url, 'GET', `/v1/results/${jobId}?token=${l.token}`);
      assert.equal(r.status, 403);
      assert.equal(r.body.error.code, 'link_revoked');
    }
    const c = await newLink();
    assert.equal((await open(c.url)).status, 200);
    // Only the owner revokes.
    const stranger = await s.store.createKey({ name: 'stranger', plan: 'student' });
    assert.equal((await http(s.url, 'DELETE', `/v1/results/${jobId}/links`, { key: stranger.key })).status, 404);
    assert.equal(
      (await http(s.url, 'POST', `/v1/results/${jobId}/links`, { key: stranger.key, body: {} })).status,
      404,
    );
    assert.equal((await open(c.url)).status, 200);
  });

  test(`${mode}: revoking the API key revokes its links`, { skip }, async () => {
    const k = await s.store.createKey({ name: 'to-revoke', plan: 'enterprise', rpm: 1000, concurrency: 10 });
    const id = await completedJob(k.key);
    const link = await newLink(id, {}, k.key);
    assert.equal((await open(link.url)).status, 200);
    assert.ok(await s.store.revokeKey(k.key_id));
    const r = await http(s.url, 'GET', `/v1/results/${id}?token=${link.token}`);
    assert.equal(r.status, 403, r.text);
    assert.equal(r.body.error.code, 'link_revoked');
  });

  test(`${mode}: a link made by one instance holds on another (the secret is the store's)`, { skip }, async () => {
    const link = await newLink();
    const other = await m.reopen();
    try {
      const links = new ResultLinks(other);
      assert.equal((await links.verify(jobId, link.token)).key_id, (await s.store.getJob(jobId))!.key_id);
      // And one the other instance makes opens here.
      const made = await links.create((await other.getJob(jobId))!, s.url, 600, 'html');
      assert.equal((await open(made.url)).status, 200);
      await assert.rejects(links.verify(jobId, link.token, Date.now() + 3601_000), /expired/);
    } finally {
      await other.close();
    }
  });

  test(`${mode}: the OpenAPI document has the link routes and the token`, { skip }, async () => {
    const doc = (await http(s.url, 'GET', '/v1/openapi.json')).body;
    assert.ok(doc.paths['/v1/results/{job_id}/links'].post.responses['201']);
    assert.equal(doc.paths['/v1/results/{job_id}/links'].post.requestBody.required, false, 'the body is optional');
    assert.equal(doc.paths['/v1/targets/discover'].post.requestBody.required, true);
    assert.ok(doc.paths['/v1/results/{job_id}/links'].delete);
    const params = doc.paths['/v1/results/{job_id}'].get.parameters.map((p: any) => `${p.in}:${p.name}`);
    assert.ok(params.includes('query:token'), params.join(', '));
    const status = doc.paths['/v1/jobs/{job_id}'].get.parameters.map((p: any) => `${p.in}:${p.name}`);
    assert.ok(status.includes('query:results_link'), status.join(', '));
  });
}

/** The kinds the link tests' servers load: the demo and its variant with a page. */
export const linkKindModules = [demoKindModule, pageKindModule];
