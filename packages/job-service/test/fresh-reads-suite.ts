// The API's reads are never staler than the database: keys and jobs read on every request (and cached by the
// embedded store until the database changes) must show a revocation, a deleted key, a plan change or a new job
// status on the very next request, whether this server made the change or another connection did (the CLI, an
// operator's SQL). Each case reads first, so that a cache would hold the old row, then changes it, then reads.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from './helpers.js';
import { http, isErrorBody, waitForStatus } from './helpers.js';

/**
 * A second connection to the server's database, outside the server. `sql` uses `?` placeholders and the
 * embedded store's table names (`api_keys`, `jobs`).
 */
export interface OtherConnection {
  exec(sql: string, args: unknown[]): Promise<void>;
  close(): Promise<void>;
}

export function freshReadsSuite(
  mode: string,
  start: () => Promise<{ server: TestServer; connect: () => Promise<OtherConnection> }>,
  skip: string | false = false,
): void {
  let s: TestServer;
  let other: OtherConnection;

  before(async () => {
    if (skip) return;
    const started = await start();
    s = started.server;
    other = await started.connect();
  });
  after(async () => {
    if (skip) return;
    await other.close();
    await s.cleanup();
  });

  const ok = async (key: string, path = '/v1/jobs') => {
    const r = await http(s.url, 'GET', path, { key });
    assert.equal(r.status, 200, r.text);
    return r;
  };
  const refused = async (key: string, message: RegExp) => {
    const r = await http(s.url, 'GET', '/v1/jobs', { key });
    assert.equal(r.status, 401, r.text);
    assert.ok(isErrorBody(r.body));
    assert.match(r.body.error.message, message);
  };

  test(`${mode}: a key revoked by another connection is refused on the next request`, { skip }, async () => {
    const k = await s.store.createKey({ name: 'revoked-elsewhere', plan: 'student' });
    await ok(k.key);
    await ok(k.key);
    await other.exec('update api_keys set revoked_at = ? where key_id = ?', [Date.now(), k.key_id]);
    await refused(k.key, /revoked/);
  });

  test(`${mode}: a key revoked by the server's store is refused on the next request`, { skip }, async () => {
    const k = await s.store.createKey({ name: 'revoked-here', plan: 'student' });
    await ok(k.key);
    assert.ok(await s.store.revokeKey(k.key_id));
    await refused(k.key, /revoked/);
  });

  test(`${mode}: a deleted key is refused on the next request`, { skip }, async () => {
    const k = await s.store.createKey({ name: 'deleted', plan: 'student' });
    await ok(k.key);
    await other.exec('delete from api_keys where key_id = ?', [k.key_id]);
    await refused(k.key, /invalid API key/);
  });

  test(`${mode}: a plan changed by another connection sets the next request's limits`, { skip }, async () => {
    const k = await s.store.createKey({ name: 'upgraded', plan: 'student' });
    assert.equal((await ok(k.key)).headers.get('x-ratelimit-limit'), '60');
    await other.exec(`update api_keys set plan = 'researcher' where key_id = ?`, [k.key_id]);
    assert.equal((await ok(k.key)).headers.get('x-ratelimit-limit'), '300');
    await other.exec(`update api_keys set plan = 'enterprise', rpm = 7, concurrency = 1 where key_id = ?`, [k.key_id]);
    assert.equal((await ok(k.key)).headers.get('x-ratelimit-limit'), '7');
    // The concurrency limit of the new plan holds at once too.
    const first = await http(s.url, 'POST', '/v1/demo/run', { key: k.key, body: { items: 2, cpu_ms: 60_000 } });
    assert.equal(first.status, 202, first.text);
    const second = await http(s.url, 'POST', '/v1/demo/run', { key: k.key, body: { items: 2 } });
    assert.equal(second.status, 429, second.text);
    assert.equal(second.body.error.code, 'concurrent_job_limit');
    assert.equal((await http(s.url, 'DELETE', `/v1/jobs/${first.body.job_id}`, { key: k.key })).status, 200);
  });

  test(`${mode}: a finished job's status changed by another connection is served changed`, { skip }, async () => {
    const k = await s.store.createKey({ name: 'status-elsewhere', plan: 'researcher' });
    const sub = await http(s.url, 'POST', '/v1/demo/run', { key: k.key, body: { items: 3 } });
    assert.equal(sub.status, 202, sub.text);
    const id = sub.body.job_id as string;
    assert.equal((await waitForStatus(s.url, k.key, id)).status, 'completed');
    const before = await ok(k.key, `/v1/jobs/${id}`);
    assert.equal(before.body.status, 'completed');
    assert.equal((await ok(k.key, `/v1/jobs/${id}`)).text, before.text);
    await other.exec(
      `update jobs set status = 'failed', error_code = 'operator_failed', error_message = 'marked by hand' where id = ?`,
      [id],
    );
    const after = await ok(k.key, `/v1/jobs/${id}`);
    assert.equal(after.body.status, 'failed');
    assert.deepEqual(after.body.error, { code: 'operator_failed', message: 'marked by hand' });
    assert.equal(after.body.results_url, undefined);
  });

  test(`${mode}: a job's status changed by the server is served changed on the next request`, { skip }, async () => {
    const k = await s.store.createKey({ name: 'status-here', plan: 'researcher' });
    const sub = await http(s.url, 'POST', '/v1/demo/run', { key: k.key, body: { items: 2, cpu_ms: 60_000 } });
    assert.equal(sub.status, 202, sub.text);
    const id = sub.body.job_id as string;
    assert.equal((await ok(k.key, `/v1/jobs/${id}`)).body.status, 'processing');
    const cancel = await http(s.url, 'DELETE', `/v1/jobs/${id}`, { key: k.key });
    assert.equal(cancel.status, 200, cancel.text);
    assert.equal((await ok(k.key, `/v1/jobs/${id}`)).body.status, 'cancelled');
    // Straight through the store, as the job runner writes (the job's own end, seconds later, finds it failed).
    const sub2 = await http(s.url, 'POST', '/v1/demo/run', { key: k.key, body: { items: 2, cpu_ms: 3000 } });
    const id2 = sub2.body.job_id as string;
    assert.equal((await ok(k.key, `/v1/jobs/${id2}`)).body.status, 'processing');
    assert.ok(await s.store.failJob(id2, 'stopped_by_test', 'failed through the store', Date.now()));
    const failed = await ok(k.key, `/v1/jobs/${id2}`);
    assert.equal(failed.body.status, 'failed');
    assert.equal(failed.body.error.code, 'stopped_by_test');
  });
}
