// The console's HTTP layer: stalled requests are cut (408), one address holds at most so many connections,
// malformed requests and wrong methods answer in the one error shape, Host names are checked (DNS rebinding),
// a non-loopback bind needs a token, and the base's files are the owner's alone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import type { Socket } from 'node:net';
import { quickstart, type KbDB } from '@evident/kb';
import { startConsole, type RunningConsole } from '../src/console/server.js';
import { StartupError } from '../src/surface/open-base.js';
import { tempKb } from './helpers.js';
import { hasErrorShape, MALFORMED, openSocket, portOf, rawRequest, readAnswer } from '@evident/testkit';

const kb = tempKb('hardening.kb');
let db: KbDB;
let c: RunningConsole;
let port: number;

before(async () => {
  db = await quickstart(kb.path);
  await db.ingest(['BRCA1', 'gene'], ['associated_with', 'association'], ['breast cancer', 'disease'], {
    source_type: 'literature',
    source_id: 'PMID:1',
  });
  c = await startConsole(db, {
    port: 0,
    limits: { requestTimeoutMs: 500, headersTimeoutMs: 500, maxConnectionsPerClient: 4 },
    allowedHosts: ['kb.example.org'],
  });
  port = portOf(c.url);
});
after(async () => {
  await c?.close();
  await db?.close();
  kb.cleanup();
});

const get = (path: string, host = `127.0.0.1:${port}`, method = 'GET') =>
  rawRequest(port, `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);

test('a stalled body gets 408 in the error shape and the connection is closed', async () => {
  const r = await rawRequest(
    port,
    `POST /api/v1/claims HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      'Content-Length: 100\r\n\r\n{"subject":',
    10_000,
  );
  assert.equal(r.status, 408, r.text);
  assert.ok(hasErrorShape(r.body));
  assert.equal(r.body.error.code, 'request_timeout');
  assert.ok(r.closed);
});

test('one address holds at most maxConnectionsPerClient connections; the next is answered 429 and closed', async () => {
  const held: Socket[] = [];
  try {
    for (let i = 0; i < 4; i++) held.push(await openSocket(port));
    const r = await readAnswer(await openSocket(port), undefined, 3000);
    assert.equal(r.status, 429);
    assert.equal(r.body.error.code, 'too_many_connections');
    assert.ok(r.closed);
  } finally {
    for (const h of held) h.destroy();
  }
  await new Promise((r) => setTimeout(r, 100));
  assert.equal((await get('/api/v1/health')).status, 200);
});

for (const m of MALFORMED) {
  test(`malformed request (${m.name}): ${m.status} in the error shape, connection closed`, async () => {
    const r = await rawRequest(port, m.data);
    assert.equal(r.status, m.status, r.text);
    assert.ok(hasErrorShape(r.body), r.text);
    assert.ok(r.closed);
  });
}

test('a malformed URL (bad percent-encoding) is invalid_request in the error shape (as on the job API)', async () => {
  const r = await get('/api/v1/entities/%E0%A4%A');
  assert.equal(r.status, 400, r.text);
  assert.equal(r.body.error.code, 'invalid_request');
});

test('a known path with another method is 405 with Allow; HEAD on a GET route stays 200', async () => {
  const r = await get('/api/v1/health', undefined, 'POST');
  assert.equal(r.status, 405, r.text);
  assert.equal(r.body.error.code, 'method_not_allowed');
  assert.equal(r.headers.allow, 'GET, HEAD');
  const head = await get('/api/v1/claims', undefined, 'HEAD');
  assert.equal(head.status, 405);
  assert.match(head.headers.allow ?? '', /POST/);
  assert.equal((await get('/api/v1/health', undefined, 'HEAD')).status, 200);
  assert.equal((await get('/api/v1/nothing-here', undefined, 'POST')).status, 404);
});

test('CONNECT is 405 with Allow and an Expect other than 100-continue is 417, each in the error shape', async () => {
  const connect = await rawRequest(port, `CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`, 3000);
  assert.equal(connect.status, 405, connect.text);
  assert.ok(hasErrorShape(connect.body));
  assert.equal(connect.body.error.code, 'method_not_allowed');
  assert.match(connect.headers.allow ?? '', /GET/);
  assert.ok(connect.closed, 'the connection is closed');
  const expect = await rawRequest(
    port,
    `POST /api/v1/query HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nExpect: bogus\r\n` +
      'Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
    3000,
  );
  assert.equal(expect.status, 417, expect.text);
  assert.ok(hasErrorShape(expect.body));
  assert.equal(expect.body.error.code, 'expectation_failed');
  assert.equal((await get('/api/v1/health')).status, 200);
});

const postJson = (path: string, body: string) =>
  rawRequest(
    port,
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    20_000,
  );

test('a body nested deeper than 256 levels is a 400 naming the limit and the path, before it is parsed', async () => {
  // Half a million levels in 1 MiB: JSON.parse built them and the parameters' conversion overflowed the stack (500).
  const depth = 500_000;
  for (const [path, body, pointer] of [
    [
      '/api/v1/query',
      `{"cypher":"RETURN $a AS a","params":{"a":${'['.repeat(depth)}1${']'.repeat(depth)}}}`,
      '/params/a/0/0/',
    ],
    [
      '/api/v1/claims',
      '{"subject":["A","gene"],"predicate":["interacts_with","molecular"],"object":["B","gene"],' +
        `"source_type":"experiment","source_id":"nest","payload":{"k/~":${'{"x":'.repeat(depth)}1${'}'.repeat(depth)}}}`,
      '/payload/k~1~0/x/x/',
    ],
  ] as const) {
    const r = await postJson(path, body);
    assert.equal(r.status, 400, r.text.slice(0, 300));
    assert.ok(hasErrorShape(r.body));
    assert.equal(r.body.error.code, 'invalid_parameters');
    assert.match(r.body.error.message, /deeper than 256 levels/);
    assert.ok(JSON.stringify(r.body.error).includes(`"path":"${pointer}`), JSON.stringify(r.body.error).slice(0, 200));
  }
  // At the limit a body parses as before: the parameter's own limit (200 levels) answers.
  const params = (levels: number) =>
    postJson('/api/v1/query', `{"cypher":"RETURN $a AS a","params":{"a":${'['.repeat(levels)}1${']'.repeat(levels)}}}`);
  const tooDeep = await params(201);
  assert.equal(tooDeep.status, 400, tooDeep.text.slice(0, 300));
  assert.equal(tooDeep.body.error.code, 'too_deep');
  assert.match(tooDeep.body.error.message, /deeper than 200 levels/);
  assert.match(JSON.stringify(tooDeep.body.error), /"\/params\/a\/0\/0\//);
  assert.equal((await params(200)).status, 200);
});

test('the what-if route, whose bodies are parsed in a context of their own, applies the same depth bound', async () => {
  // Its parser (long-calls.ts) once bypassed the console's: a hundred thousand levels reached JSON.parse.
  const depth = 100_000;
  const body =
    '{"add_claims":[{"subject":["A","gene"],"predicate":["interacts_with","molecular"],"object":["B","gene"],' +
    `"source_type":"experiment","source_id":"nest","payload":{"x":${'['.repeat(depth)}1${']'.repeat(depth)}}}]}`;
  const r = await postJson('/api/v1/insights/what-if', body);
  assert.equal(r.status, 400, r.text.slice(0, 300));
  assert.ok(hasErrorShape(r.body));
  assert.equal(r.body.error.code, 'invalid_parameters');
  assert.match(r.body.error.message, /deeper than 256 levels/);
  assert.ok(JSON.stringify(r.body.error).includes('"path":"/add_claims/0/payload/x/0/0/'), r.text.slice(0, 300));
  // A shallow what-if on the same route still runs, and the console answers.
  const ok = await postJson('/api/v1/insights/what-if', '{"retract_sources":["PMID:1"]}');
  assert.equal(ok.status, 200, ok.text.slice(0, 300));
  assert.equal((await get('/api/v1/health')).status, 200);
});

test('Host must be a name of this console: loopback, the bound host or the allow-list; else 421', async () => {
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, 'kb.example.org', 'LOCALHOST']) {
    assert.equal((await get('/api/v1/health', host)).status, 200, host);
  }
  for (const host of ['evil.example', `evil.example:${port}`, '']) {
    const r = await get('/api/v1/health', host);
    assert.equal(r.status, 421, host);
    assert.equal(r.body.error.code, 'host_not_allowed');
  }
  assert.equal((await get('/', 'rebound.attacker.test')).status, 421);
});

test('listening off loopback without a token is refused; with one it starts', async () => {
  await assert.rejects(startConsole(db, { port: 0, host: '0.0.0.0' }), (e: unknown) => {
    assert.ok(e instanceof StartupError);
    assert.match(e.message, /KB_CONSOLE_TOKEN/);
    return true;
  });
  const open = await startConsole(db, { port: 0, host: '0.0.0.0', token: 't0ken' });
  await open.close();
});

test("the base's SQLite files are readable by their owner alone", () => {
  for (const f of [kb.path, `${kb.path}-wal`, `${kb.path}-shm`]) {
    if (f !== kb.path && !existsSync(f)) continue;
    assert.equal(statSync(f).mode & 0o777, 0o600, f);
  }
  assert.ok(existsSync(`${kb.path}-wal`));
});
