// PostgreSQL text cannot hold a NUL byte: a job id or query parameter with one is refused (400) before the store,
// as in SQLite mode, not answered 500 by the database's encoding error.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTempDatabase, probePostgres, type TempDatabase } from '@evident/testkit';
import { http, startTestServer, type TestServer } from './helpers.js';

const probe = await probePostgres();
let db: TempDatabase | undefined;
let s: TestServer | undefined;
after(async () => {
  await s?.cleanup();
  await db?.drop();
});

test('postgres: NUL in a job id or a query parameter is 400, not 500', { skip: probe.skip }, async () => {
  db = await createTempDatabase('evident_jobs_nul');
  const server = await startTestServer({ databaseUrl: db.url });
  s = server;
  const { key } = await server.store.createKey({ name: 't', plan: 'researcher' });
  for (const path of ['/v1/jobs/a%00b', '/v1/jobs/a%00b/results', '/v1/jobs?cursor=%00', '/v1/targets?cursor=%00']) {
    const r = await http(server.url, 'GET', path, { key });
    assert.equal(r.status, 400, `${path}: ${r.text}`);
    assert.equal(r.body.error.code, 'invalid_parameters');
  }
  const del = await http(server.url, 'DELETE', '/v1/jobs/%00', { key });
  assert.equal(del.status, 400);
});

test('postgres store: a job id with a NUL byte is no such job, not a database error', {
  skip: probe.skip,
}, async () => {
  const store = s?.store;
  assert.ok(store, 'runs after the server test');
  assert.equal(await store.getJob('a\u0000b'), undefined);
  assert.equal(await store.getResult('a\u0000b'), undefined);
  assert.equal(await store.cancelJob('a\u0000b', 'key_x'), 'not_found');
});
