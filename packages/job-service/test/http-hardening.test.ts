// What Node's HTTP layer decides, in the API's terms: stalled requests are cut (408), one address holds at most
// so many connections, malformed requests and wrong methods answer in the one error shape, forbidden JSON keys
// are named, NUL bytes never reach a store.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { http, startTestServer, type TestServer } from './helpers.js';
import { hasErrorShape, MALFORMED, openSocket, portOf, rawRequest, readAnswer } from '@evident/testkit';
import type { Socket } from 'node:net';

let s: TestServer;
let key: string;
before(async () => {
  s = await startTestServer({ requestTimeoutMs: 500, headersTimeoutMs: 500, maxConnectionsPerClient: 4 });
  key = (await s.store.createKey({ name: 't', plan: 'researcher' })).key;
});
after(async () => {
  await s.cleanup();
});

test('a stalled body gets 408 in the error shape and the connection is closed', async () => {
  const started = Date.now();
  const r = await rawRequest(
    portOf(s.url),
    `POST /v1/demo/run HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"items":',
    10_000,
  );
  assert.equal(r.status, 408);
  assert.ok(hasErrorShape(r.body), r.text);
  assert.equal(r.body.error.code, 'request_timeout');
  assert.equal(r.headers.connection, 'close');
  assert.ok(r.closed);
  assert.ok(Date.now() - started < 5000);
});

test('stalled headers get 408 too', async () => {
  const r = await rawRequest(portOf(s.url), 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n', 10_000);
  assert.equal(r.status, 408);
  assert.ok(hasErrorShape(r.body));
  assert.ok(r.closed);
});

test('one address holds at most maxConnectionsPerClient connections; the next is answered 429 and closed', async () => {
  const held: Socket[] = [];
  try {
    for (let i = 0; i < 4; i++) held.push(await openSocket(portOf(s.url)));
    const extra = await openSocket(portOf(s.url));
    const r = await readAnswer(extra, undefined, 3000);
    assert.equal(r.status, 429);
    assert.equal(r.body.error.code, 'too_many_connections');
    assert.ok(r.closed);
  } finally {
    for (const h of held) h.destroy();
  }
  // Closed connections are given back.
  await new Promise((r) => setTimeout(r, 100));
  assert.equal((await http(s.url, 'GET', '/healthz')).status, 200);
});

for (const m of MALFORMED) {
  test(`malformed request (${m.name}): ${m.status} in the error shape, connection closed`, async () => {
    const r = await rawRequest(portOf(s.url), m.data);
    assert.equal(r.status, m.status, r.text);
    assert.ok(hasErrorShape(r.body), r.text);
    assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
    assert.ok(r.closed);
  });
}

test('a malformed URL (bad percent-encoding) is invalid_request in the error shape', async () => {
  const r = await rawRequest(
    portOf(s.url),
    'GET /v1/jobs/%E0%A4%A HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
  );
  assert.equal(r.status, 400, r.text);
  assert.ok(hasErrorShape(r.body));
});

test('a known path with another method is 405 with Allow; HEAD on a GET route stays 200', async () => {
  const post = await http(s.url, 'GET', '/v1/demo/run', { key });
  assert.equal(post.status, 405);
  assert.equal(post.body.error.code, 'method_not_allowed');
  assert.equal(post.headers.get('allow'), 'POST');
  const head = await http(s.url, 'HEAD', '/v1/demo/run', { key });
  assert.equal(head.status, 405);
  assert.equal(head.headers.get('allow'), 'POST');
  const put = await http(s.url, 'PUT', '/v1/jobs/abc', { key });
  assert.equal(put.status, 405);
  assert.equal(put.headers.get('allow'), 'DELETE, GET, HEAD');
  assert.equal((await http(s.url, 'HEAD', '/healthz')).status, 200);
  const unknown = await http(s.url, 'POST', '/v1/nothing', { key });
  assert.equal(unknown.status, 404);
});

test('CONNECT is 405 with Allow and an Expect other than 100-continue is 417, in the error shape', async () => {
  // Node's server leaves CONNECT unanswered and answers an unknown expectation with an empty 417 of its own.
  for (const target of ['127.0.0.1:22', '/v1/jobs']) {
    const r = await rawRequest(portOf(s.url), `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
    assert.equal(r.status, 405, r.text);
    assert.ok(hasErrorShape(r.body), r.text);
    assert.equal(r.body.error.code, 'method_not_allowed');
    assert.equal(r.headers.allow, 'DELETE, GET, HEAD, POST');
    assert.ok(r.closed);
  }
  for (const method of ['GET /healthz', `POST /v1/demo/run`]) {
    const r = await rawRequest(
      portOf(s.url),
      `${method} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nExpect: bogus\r\n` +
        'Content-Type: application/json\r\nContent-Length: 11\r\n\r\n{"items":1}',
    );
    assert.equal(r.status, 417, r.text);
    assert.ok(hasErrorShape(r.body), r.text);
    assert.equal(r.body.error.code, 'expectation_failed');
    assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
    assert.ok(r.closed);
  }
  // 100-continue is met as before: the interim answer, then the request's own.
  const go = await rawRequest(
    portOf(s.url),
    `POST /v1/demo/run HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nExpect: 100-continue\r\n` +
      'Content-Type: application/json\r\nContent-Length: 11\r\nConnection: close\r\n\r\n{"items":1}',
    // The first submission may wait for the prepare thread to load the kinds.
    60_000,
  );
  assert.equal(go.status, 100, go.text);
  assert.match(go.text, /^HTTP\/1\.1 202 Accepted/m);
});

test('a body with a __proto__ key is invalid_parameters naming it', async () => {
  const r = await http(s.url, 'POST', '/v1/demo/run', {
    key,
    raw: '{"items":1,"extra":[{"__proto__":{"x":1}}]}',
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(r.status, 400);
  assert.equal(r.body.error.code, 'invalid_parameters');
  assert.deepEqual(r.body.error.details, [{ path: '/extra/0/__proto__', message: 'is a forbidden key' }]);
  const ctor = await http(s.url, 'POST', '/v1/demo/run', {
    key,
    raw: '{"items":1,"constructor":{"prototype":{"x":1}}}',
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(ctor.body.error.code, 'invalid_parameters');
  assert.equal(ctor.body.error.details[0].path, '/constructor/prototype');
});

test('a NUL byte in a job id or a query parameter is refused before the store', async () => {
  const id = await http(s.url, 'GET', '/v1/jobs/a%00b', { key });
  assert.equal(id.status, 400);
  assert.equal(id.body.error.code, 'invalid_parameters');
  assert.equal(id.body.error.details[0].path, 'params:/job_id');
  const q = await http(s.url, 'GET', '/v1/jobs?cursor=%00', { key });
  assert.equal(q.status, 400);
  assert.equal(q.body.error.details[0].path, 'querystring:/cursor');
});
