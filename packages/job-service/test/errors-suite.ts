// Error answers over HTTP: 400 with every problem and its path, 401, 413 (configurable), 429, 500; docs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ServiceConfig } from '../src/config.js';
import { http, isErrorBody, type TestServer } from './helpers.js';

export function errorsSuite(
  mode: string,
  startTestServer: (over?: Partial<ServiceConfig>) => Promise<TestServer>,
  skip: string | false = false,
): void {
  let s: TestServer;
  let key: string;
  before(async () => {
    if (skip) return;
    s = await startTestServer({ bodyLimitBytes: 64 * 1024 });
    key = (await s.store.createKey({ name: 't', plan: 'researcher' })).key;
  });
  after(async () => {
    if (!skip) await s.cleanup();
  });

  test(`${mode}: 400 lists every problem with its JSON path; unknown fields are errors; nothing is coerced`, {
    skip,
  }, async () => {
    const r = await http(s.url, 'POST', '/v1/demo/run', {
      key,
      body: { items: '5', cpu_ms: -1, fail: 'sometimes', colour: 'red', extra: { a: 1 } },
    });
    assert.equal(r.status, 400);
    assert.ok(isErrorBody(r.body));
    assert.equal(r.body.error.code, 'invalid_parameters');
    const byPath = new Map(r.body.error.details.map((d: any) => [d.path, d.message]));
    assert.deepEqual([...byPath.keys()].sort(), ['/colour', '/cpu_ms', '/extra', '/fail', '/items']);
    assert.equal(byPath.get('/colour'), 'is not a known field');
    assert.match(String(byPath.get('/fail')), /must be one of: "never"/);
    const missing = await http(s.url, 'POST', '/v1/demo/run', { key, body: {} });
    assert.deepEqual(missing.body.error.details, [{ path: '/items', message: 'is required' }]);
    const notObject = await http(s.url, 'POST', '/v1/demo/run', { key, body: [1, 2] });
    assert.equal(notObject.status, 400);
    assert.equal(notObject.body.error.details[0].path, '');
  });

  test(`${mode}: 400 from the kind (checks the schema cannot express) carries paths too`, { skip }, async () => {
    const r = await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 1, label: 'a\u0001b' } });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body.error.details, [{ path: '/label', message: 'must not contain control characters' }]);
  });

  test(`${mode}: bad JSON, wrong media type, prototype poisoning`, { skip }, async () => {
    const bad = await http(s.url, 'POST', '/v1/demo/run', {
      key,
      raw: '{"items": 1',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'invalid_json');
    const media = await http(s.url, 'POST', '/v1/demo/run', {
      key,
      raw: 'items=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(media.status, 415);
    assert.ok(isErrorBody(media.body));
    const proto = await http(s.url, 'POST', '/v1/demo/run', {
      key,
      raw: '{"items":1,"__proto__":{"x":1}}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(proto.status, 400);
    assert.ok(isErrorBody(proto.body));
  });

  test(`${mode}: 401 for missing, malformed and unknown keys, with rate-limit headers`, { skip }, async () => {
    for (const headers of <Array<Record<string, string>>>[
      {},
      { authorization: 'Basic abc' },
      { authorization: 'Bearer evk_nope' },
      { authorization: 'Bearer' },
    ]) {
      const r = await http(s.url, 'GET', '/v1/jobs', { headers });
      assert.equal(r.status, 401);
      assert.equal(r.body.error.code, 'unauthorized');
      assert.ok(r.headers.get('x-ratelimit-limit'));
    }
    const post = await http(s.url, 'POST', '/v1/demo/run', { body: { items: 1 } });
    assert.equal(post.status, 401);
  });

  test(`${mode}: 413 above the configured body limit`, { skip }, async () => {
    const r = await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 1, label: 'x'.repeat(70 * 1024) } });
    assert.equal(r.status, 413);
    assert.equal(r.body.error.code, 'payload_too_large');
  });

  test(`${mode}: 429 rate_limited with Retry-After once the plan rate is spent; other keys unaffected`, {
    skip,
  }, async () => {
    const student = (await s.store.createKey({ name: 'st', plan: 'student' })).key;
    let last: Awaited<ReturnType<typeof http>> | undefined;
    for (let i = 0; i < 60; i++) {
      last = await http(s.url, 'GET', '/v1/jobs', { key: student });
      assert.equal(last.status, 200);
    }
    assert.equal(last!.headers.get('x-ratelimit-remaining'), '0');
    const over = await http(s.url, 'GET', '/v1/jobs', { key: student });
    assert.equal(over.status, 429);
    assert.equal(over.body.error.code, 'rate_limited');
    assert.ok(Number(over.headers.get('retry-after')) > 0);
    assert.equal(over.headers.get('x-ratelimit-limit'), '60');
    assert.equal((await http(s.url, 'GET', '/v1/jobs', { key })).status, 200);
  });

  test(`${mode}: unknown routes answer 404 in the error shape`, { skip }, async () => {
    const r = await http(s.url, 'GET', '/v1/nothing', { key });
    assert.equal(r.status, 404);
    assert.ok(isErrorBody(r.body));
    assert.equal(r.headers.get('x-ratelimit-limit'), '300');
  });

  test(`${mode}: callback_url: only http(s); private and loopback addresses refused unless allowed`, {
    skip,
  }, async () => {
    const strict = await startTestServer({ allowPrivateCallbacks: false });
    try {
      const k = (await strict.store.createKey({ name: 'c', plan: 'researcher' })).key;
      for (const url of [
        'ftp://example.com/x',
        'not a url',
        'http://127.0.0.1:9/hook',
        'http://[::1]/x',
        'http://10.1.2.3/x',
        'http://169.254.169.254/latest',
        'http://localhost/x',
      ]) {
        const r = await http(strict.url, 'POST', '/v1/demo/run', { key: k, body: { items: 1, callback_url: url } });
        assert.equal(r.status, 400, url);
        assert.equal(r.body.error.details[0].path, '/callback_url');
      }
    } finally {
      await strict.cleanup();
    }
  });

  test(`${mode}: OpenAPI 3.1 document and rendered docs, without auth; /healthz for load balancers`, {
    skip,
  }, async () => {
    const doc = await http(s.url, 'GET', '/v1/openapi.json');
    assert.equal(doc.status, 200);
    assert.equal(doc.body.openapi, '3.1.0');
    for (const p of ['/v1/demo/run', '/v1/jobs/{job_id}', '/v1/jobs', '/v1/results/{job_id}', '/v1/targets'])
      assert.ok(doc.body.paths[p], p);
    const body = doc.body.paths['/v1/demo/run'].post.requestBody.content['application/json'].schema;
    assert.equal(body.additionalProperties, false);
    assert.ok(body.properties.callback_url);
    const ui = await fetch(`${s.url}/v1/docs`);
    assert.equal(ui.status, 200);
    assert.match(await ui.text(), /swagger/i);
    const h = await http(s.url, 'GET', '/healthz');
    assert.equal(h.status, 200);
    assert.equal(h.body.status, 'ok');
  });

  test(`${mode}: 500 carries a request id and no internals`, { skip }, async () => {
    const broken = await startTestServer();
    try {
      const k = (await broken.store.createKey({ name: 'b', plan: 'researcher' })).key;
      const sub = await http(broken.url, 'POST', '/v1/demo/run', { key: k, body: { items: 1 } });
      assert.equal(sub.status, 202);
      // Break the store under the running server: the key lookup itself now throws.
      await broken.store.close();
      const r = await http(broken.url, 'GET', `/v1/jobs/${sub.body.job_id}`, { key: k });
      assert.equal(r.status, 500);
      assert.equal(r.body.error.code, 'internal_error');
      assert.match(r.body.error.request_id, /^[0-9a-f-]{36}$/);
      assert.equal(r.headers.get('x-request-id'), r.body.error.request_id);
      assert.doesNotMatch(r.text, /sqlite|database|stack|\.ts|at /i);
    } finally {
      await broken.cleanup();
    }
  });
}
