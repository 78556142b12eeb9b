// Bodies above the inline limit are parsed, validated and prepared on a thread: same answers as small ones.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { http, isErrorBody, startTestServer, waitForStatus, type TestServer } from './helpers.js';

let s: TestServer;
let key: string;
before(async () => {
  s = await startTestServer({ inlineJsonLimitBytes: 1024, allowPrivateCallbacks: false });
  key = (await s.store.createKey({ name: 'big', plan: 'researcher' })).key;
});
after(() => s.cleanup());

/** Valid JSON padded with whitespace past the inline limit. */
const padded = (o: unknown, bytes = 4096) => JSON.stringify(o).replace(/^\{/, `{${' '.repeat(bytes)}`);
const post = (raw: string) =>
  http(s.url, 'POST', '/v1/demo/run', { key, raw, headers: { 'content-type': 'application/json' } });

test('a large valid body is accepted and runs', async () => {
  const r = await post(padded({ items: 3, label: 'big' }));
  assert.equal(r.status, 202, r.text);
  const st = await waitForStatus(s.url, key, r.body.job_id);
  assert.equal(st.status, 'completed');
  assert.equal((await http(s.url, 'GET', `/v1/results/${r.body.job_id}`, { key })).body.label, 'big');
});

test('a large invalid body gets the same 400 with every problem and its path', async () => {
  const big = await post(padded({ items: 'x', colour: 1, fail: 'no' }));
  const small = await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 'x', colour: 1, fail: 'no' } });
  assert.equal(big.status, 400);
  assert.deepEqual(big.body, small.body);
  assert.deepEqual(big.body.error.details.map((d: any) => d.path).sort(), ['/colour', '/fail', '/items']);
  const semantic = await post(padded({ items: 1, label: 'a\u0002' }));
  assert.deepEqual(semantic.body.error.details, [{ path: '/label', message: 'must not contain control characters' }]);
});

test('large bodies: bad JSON, prototype poisoning and refused callback URLs', async () => {
  const bad = await post(padded({ items: 1 }).slice(0, -1));
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, 'invalid_json');
  const proto = await post(padded({ items: 1 }).replace('"items"', '"__proto__":{"x":1},"items"'));
  assert.equal(proto.status, 400);
  assert.ok(isErrorBody(proto.body));
  const cb = await post(padded({ items: 1, callback_url: 'http://127.0.0.1:1/x' }));
  assert.equal(cb.status, 400);
  assert.equal(cb.body.error.details[0].path, '/callback_url');
  const list = await http(s.url, 'GET', '/v1/jobs?limit=100', { key });
  assert.equal(list.body.jobs.length, 1, 'no job was created for refused requests');
});

test('a 30 MB body is accepted', async () => {
  const r = await post(padded({ items: 2 }, 30 * 1024 * 1024));
  assert.equal(r.status, 202);
  assert.equal((await waitForStatus(s.url, key, r.body.job_id)).status, 'completed');
});
