// The API contract, run over real HTTP against a server in either mode (embedded or PostgreSQL).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createHmac } from 'node:crypto';
import { demoValue } from './demo-kind.js';
import type { TestServer } from './helpers.js';
import { http, isErrorBody, waitFor, waitForStatus } from './helpers.js';

export function contractSuite(mode: string, start: () => Promise<TestServer>, skip: string | false = false): void {
  let s: TestServer;
  let key: string;
  let other: string;

  before(async () => {
    if (skip) return;
    s = await start();
    const k = await s.store.createKey({ name: 'alice', plan: 'researcher' });
    key = k.key;
    other = (await s.store.createKey({ name: 'bob', plan: 'researcher' })).key;
  });
  after(async () => {
    if (!skip) await s.cleanup();
  });

  test(`${mode}: submit, poll with progress, fetch results as JSON, gzip and CSV`, { skip }, async () => {
    const sub = await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 40, cpu_ms: 600, label: 'x' } });
    assert.equal(sub.status, 202, sub.text);
    assert.match(sub.body.job_id, /^demo_[a-z2-7]{26}$/);
    assert.equal(sub.body.status, 'processing');
    assert.match(sub.body.estimated_time, /^\d+-\d+ (seconds|minutes|hours)$/);
    assert.equal(sub.body.estimated_seconds.length, 2);
    // webhook_url is on the discovery kind's answer only (as the seed shows); Location is on every kind's.
    assert.equal(sub.body.webhook_url, undefined);
    assert.equal(sub.headers.get('location'), `${s.url}/v1/jobs/${sub.body.job_id}`);
    const id = sub.body.job_id as string;

    const st = await http(s.url, 'GET', `/v1/jobs/${id}`, { key });
    assert.equal(st.status, 200);
    assert.equal(st.body.status, 'processing');
    assert.equal(typeof st.body.progress.percent, 'number');
    assert.match(st.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // Rate-limit headers are on every response.
    assert.equal(st.headers.get('x-ratelimit-limit'), '300');
    assert.ok(Number(st.headers.get('x-ratelimit-remaining')) < 300);

    const early = await http(s.url, 'GET', `/v1/results/${id}`, { key });
    if (early.status !== 200) {
      assert.equal(early.status, 409);
      assert.equal(early.body.error.code, 'job_not_completed');
    }

    const done = await waitForStatus(s.url, key, id);
    assert.equal(done.status, 'completed');
    assert.match(done.completed_at, /Z$/);
    assert.equal(done.results_url, `${s.url}/v1/results/${id}`);
    assert.equal(done.progress, undefined);

    const res = await http(s.url, 'GET', `/v1/results/${id}`, { key });
    assert.equal(res.status, 200);
    assert.equal(res.body.rows.length, 40);
    assert.equal(res.body.label, 'x');
    for (const r of res.body.rows) assert.equal(r.value, demoValue(r.index));

    // Stored compressed; served as-is to clients that accept gzip.
    const raw = await fetch(`${s.url}/v1/results/${id}`, {
      headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip' },
    });
    assert.equal(raw.headers.get('content-encoding'), 'gzip');

    const csv = await http(s.url, 'GET', `/v1/results/${id}?format=csv`, { key });
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type')!, /^text\/csv/);
    const lines = csv.text.trim().split('\n');
    assert.equal(lines[0], 'index,value');
    assert.equal(lines.length, 41);
    assert.equal(lines[5], `4,${demoValue(4)}`);
  });

  test(`${mode}: other keys' jobs are 404 exactly like unknown ones`, { skip }, async () => {
    const sub = await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 1 } });
    const id = sub.body.job_id;
    for (const [m, p] of [
      ['GET', `/v1/jobs/${id}`],
      ['GET', `/v1/results/${id}`],
      ['DELETE', `/v1/jobs/${id}`],
    ] as const) {
      const theirs = await http(s.url, m, p, { key: other });
      const unknown = await http(s.url, m, p.replace(id, 'demo_aaaaaaaaaaaaaaaaaaaaaaaaaa'), { key: other });
      assert.equal(theirs.status, 404);
      assert.deepEqual(theirs.body, unknown.body);
    }
    const list = await http(s.url, 'GET', '/v1/jobs', { key: other });
    assert.equal(list.body.jobs.length, 0);
    await waitForStatus(s.url, key, id);
  });

  test(`${mode}: listing is newest first, paginated, filtered by status and kind`, { skip }, async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 2 } })).body.job_id);
    for (const id of ids) await waitForStatus(s.url, key, id);
    const p1 = await http(s.url, 'GET', '/v1/jobs?limit=2', { key });
    assert.equal(p1.status, 200);
    assert.equal(p1.body.jobs.length, 2);
    assert.deepEqual(
      p1.body.jobs.map((j: any) => j.job_id),
      [ids[2], ids[1]],
    );
    assert.ok(p1.body.next_cursor);
    const p2 = await http(s.url, 'GET', `/v1/jobs?limit=2&cursor=${p1.body.next_cursor}`, { key });
    assert.equal(p2.body.jobs[0].job_id, ids[0]);
    const all = await http(s.url, 'GET', '/v1/jobs?limit=100&status=completed&kind=demo', { key });
    assert.ok(all.body.jobs.every((j: any) => j.status === 'completed' && j.kind === 'demo'));
    const none = await http(s.url, 'GET', '/v1/jobs?kind=td', { key });
    assert.equal(none.body.jobs.length, 0);
    const bad = await http(s.url, 'GET', '/v1/jobs?status=done&limit=0&cursor=zzz', { key });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.error.details.map((d: any) => d.path).sort(), [
      'querystring:/limit',
      'querystring:/status',
    ]);
    const badCursor = await http(s.url, 'GET', '/v1/jobs?cursor=zzz', { key });
    assert.equal(badCursor.status, 400);
    assert.equal(badCursor.body.error.details[0].path, 'querystring:/cursor');
  });

  test(`${mode}: /v1/targets lists targets across completed jobs`, { skip }, async () => {
    const id = (await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 10 } })).body.job_id;
    await waitForStatus(s.url, key, id);
    const t = await http(s.url, 'GET', '/v1/targets?limit=3', { key });
    assert.equal(t.status, 200);
    assert.deepEqual(
      t.body.targets.map((x: any) => [x.job_id, x.rank]),
      [
        [id, 1],
        [id, 2],
        [id, 3],
      ],
    );
    const best = Array.from({ length: 10 }, (_, i) => i).sort((a, b) => demoValue(b) - demoValue(a))[0]!;
    assert.equal(t.body.targets[0].symbol, `DEMO${best}`);
    assert.ok(t.body.next_cursor);
    const t2 = await http(s.url, 'GET', `/v1/targets?limit=3&cursor=${t.body.next_cursor}`, { key });
    assert.ok(t2.body.targets.every((x: any) => x.job_id !== id));
    const theirs = await http(s.url, 'GET', '/v1/targets', { key: other });
    assert.equal(theirs.body.targets.length, 0);
  });

  test(`${mode}: cancel a running job; cancelling a finished one is 409`, { skip }, async () => {
    const id = (await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 5, cpu_ms: 20_000 } })).body.job_id;
    // Wait until it runs so that cancellation has to stop a worker (a wait that gives up would test a queued job).
    const startedAt = Date.parse(
      await waitFor(async () => (await http(s.url, 'GET', `/v1/jobs/${id}`, { key })).body.started_at as string),
    );
    const del = await http(s.url, 'DELETE', `/v1/jobs/${id}`, { key });
    assert.equal(del.status, 200);
    assert.equal(del.body.status, 'cancelled');
    const again = await http(s.url, 'DELETE', `/v1/jobs/${id}`, { key });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'job_finished');
    const res = await http(s.url, 'GET', `/v1/results/${id}`, { key });
    assert.equal(res.status, 409);
    // The worker stops: a fresh short job gets a free thread and finishes before the cancelled job's 20 s of work
    // would have ended (judged by the service's own timestamps, not by how long this machine takes to get there).
    const quick = (await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 1 } })).body.job_id;
    const q = await waitForStatus(s.url, key, quick);
    assert.equal(q.status, 'completed');
    assert.ok(
      Date.parse(q.completed_at) < startedAt + 20_000,
      `completed ${Date.parse(q.completed_at) - startedAt} ms in`,
    );
    assert.equal((await http(s.url, 'GET', `/v1/jobs/${id}`, { key })).body.status, 'cancelled');
  });

  test(`${mode}: a job failing once is retried and completes; one failing always is failed with a reason`, {
    skip,
  }, async () => {
    const once = (await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 3, fail: 'first_attempt' } })).body
      .job_id;
    const always = (await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 3, fail: 'always' } })).body.job_id;
    const input = (await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 3, fail: 'input' } })).body.job_id;
    const a = await waitForStatus(s.url, key, once);
    assert.equal(a.status, 'completed');
    assert.equal(a.attempts, 2);
    const b = await waitForStatus(s.url, key, always);
    assert.equal(b.status, 'failed');
    assert.equal(b.error.code, 'job_failed');
    assert.match(b.error.message, /3 attempt/);
    assert.equal(b.attempts, 3);
    const c = await waitForStatus(s.url, key, input);
    assert.equal(c.status, 'failed');
    assert.equal(c.error.code, 'invalid_input');
    assert.equal(c.attempts, 1);
  });

  test(`${mode}: concurrent-job limit gives 429 concurrent_job_limit with Retry-After`, { skip }, async () => {
    const k = await s.store.createKey({ name: 'ent', plan: 'enterprise', rpm: 1000, concurrency: 1 });
    const first = await http(s.url, 'POST', '/v1/demo/run', { key: k.key, body: { items: 1, cpu_ms: 1500 } });
    assert.equal(first.status, 202);
    const second = await http(s.url, 'POST', '/v1/demo/run', { key: k.key, body: { items: 1 } });
    assert.equal(second.status, 429);
    assert.equal(second.body.error.code, 'concurrent_job_limit');
    assert.ok(Number(second.headers.get('retry-after')) > 0);
    await waitForStatus(s.url, k.key, first.body.job_id);
    const third = await http(s.url, 'POST', '/v1/demo/run', { key: k.key, body: { items: 1 } });
    assert.equal(third.status, 202);
    await waitForStatus(s.url, k.key, third.body.job_id);
  });

  test(`${mode}: callback_url receives the signed final status`, { skip }, async () => {
    const got: Array<{ body: string; sig: string }> = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        got.push({ body, sig: String(req.headers['x-evident-signature']) });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const k = await s.store.createKey({ name: 'hook', plan: 'researcher' });
      const port = (receiver.address() as { port: number }).port;
      const sub = await http(s.url, 'POST', '/v1/demo/run', {
        key: k.key,
        body: { items: 2, callback_url: `http://127.0.0.1:${port}/h` },
      });
      assert.equal(sub.status, 202);
      await waitFor(async () => got.length > 0);
      const [, t, mac] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(got[0]!.sig)!;
      assert.equal(mac, createHmac('sha256', k.signing_secret).update(`${t}.${got[0]!.body}`).digest('hex'));
      assert.equal(JSON.parse(got[0]!.body).status, 'completed');
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(got.length, 1, 'delivered once');
    } finally {
      receiver.close();
    }
  });

  test(`${mode}: revocation takes effect on the next request`, { skip }, async () => {
    const k = await s.store.createKey({ name: 'temp', plan: 'student' });
    assert.equal((await http(s.url, 'GET', '/v1/jobs', { key: k.key })).status, 200);
    assert.ok(await s.store.revokeKey(k.key_id));
    const r = await http(s.url, 'GET', '/v1/jobs', { key: k.key });
    assert.equal(r.status, 401);
    assert.ok(isErrorBody(r.body));
  });
}
