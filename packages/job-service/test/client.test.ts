// The typed client and `evident-jobs submit`, against a real server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@evident/testkit';
import { createClient, EvidentApiError, parseRetryAfter } from '../src/client/client.js';
import { demoValue, type DemoResult } from './demo-kind.js';
import { runCli, spawnCli, startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let key: string;
const out = tempDir('evident-jobs-client-');
before(async () => {
  s = await startTestServer();
  key = (await s.store.createKey({ name: 'client', plan: 'researcher' })).key;
});
after(async () => {
  await s.cleanup();
  out.cleanup();
});

test('createClient: submit, waitForJob with progress, getResults, CSV, list, cancel, typed errors', async () => {
  const client = createClient({ baseUrl: `${s.url}/v1`, apiKey: key });
  const acc = await client.submit('/v1/demo/run', { items: 8, cpu_ms: 1500 });
  assert.equal(acc.status, 'processing');
  const seen: number[] = [];
  const final = await client.waitForJob(acc.job_id, {
    intervalMs: 100,
    onProgress: (st) => seen.push(st.progress?.percent ?? 100),
  });
  assert.equal(final.status, 'completed');
  assert.ok(seen.length >= 3, `progress reported ${seen.length} times`);
  assert.ok(
    seen.some((p) => p > 0 && p < 100),
    'intermediate progress was seen',
  );
  assert.deepEqual(
    seen,
    [...seen].sort((a, b) => a - b),
    'progress never goes back',
  );
  const res = await client.getResults<DemoResult>(acc.job_id);
  assert.deepEqual(
    res.rows.map((r) => r.value),
    Array.from({ length: 8 }, (_, i) => demoValue(i)),
  );
  assert.match(await client.getResultsCsv(acc.job_id), /^index,value\n0,/);
  assert.equal((await client.listJobs({ limit: 1 })).jobs[0]!.job_id, acc.job_id);

  const long = await client.submit('/v1/demo/run', { items: 1, cpu_ms: 20_000 });
  assert.equal((await client.cancelJob(long.job_id)).status, 'cancelled');

  await assert.rejects(client.submit('/v1/demo/run', { items: 0, what: 1 }), (e: unknown) => {
    assert.ok(e instanceof EvidentApiError);
    assert.equal(e.status, 400);
    assert.equal(e.code, 'invalid_parameters');
    assert.deepEqual(e.details!.map((d) => d.path).sort(), ['/items', '/what']);
    return true;
  });
  await assert.rejects(client.getJob('demo_nope'), (e: unknown) => e instanceof EvidentApiError && e.status === 404);
  const bad = createClient({ baseUrl: s.url, apiKey: 'evk_wrong' });
  await assert.rejects(
    bad.getJob(acc.job_id),
    (e: unknown) => e instanceof EvidentApiError && e.code === 'unauthorized',
  );
  // Engine routes: 404 until their kinds are registered, 400 for this empty request once they are.
  await assert.rejects(
    client.discoverTargets({}),
    (e: unknown) => e instanceof EvidentApiError && [400, 404].includes(e.status),
  );
  await assert.rejects(
    client.generateCompounds({}),
    (e: unknown) => e instanceof EvidentApiError && [400, 404].includes(e.status),
  );
});

test('evident-jobs submit shows progress, prints the final status and writes the results', async () => {
  const file = join(out.path, 'r.json');
  const r = await runCli(
    ['submit', 'demo', '-', '--url', s.url, '--out', file, '--interval', '100'],
    { EVIDENT_API_KEY: key },
    JSON.stringify({ items: 4, cpu_ms: 800 }),
  );
  assert.equal(r.code, 0, r.stderr);
  const final = JSON.parse(r.stdout.trim().split('\n').pop()!);
  assert.equal(final.status, 'completed');
  assert.match(r.stderr, /accepted; estimated/);
  assert.match(r.stderr, /100%/);
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).rows.length, 4);

  const bad = await runCli(
    ['submit', 'demo', '-', '--url', s.url],
    { EVIDENT_API_KEY: key },
    JSON.stringify({ items: -1 }),
  );
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /400 invalid_parameters/);
  assert.match(bad.stderr, /\/items: /);
});

test('the client and evident-jobs submit send an Idempotency-Key: a repeated submission is the same job', async () => {
  const client = createClient({ baseUrl: s.url, apiKey: key });
  const a = await client.submit('/v1/demo/run', { items: 2 }, { idempotencyKey: 'client-retry-1' });
  const b = await client.submit('/v1/demo/run', { items: 2 }, { idempotencyKey: 'client-retry-1' });
  assert.equal(b.job_id, a.job_id);
  await assert.rejects(
    client.submit('/v1/demo/run', { items: 3 }, { idempotencyKey: 'client-retry-1' }),
    (e: unknown) => e instanceof EvidentApiError && e.status === 409 && e.code === 'idempotency_key_reused',
  );
  const cli = () =>
    runCli(
      ['submit', 'demo', '-', '--url', s.url, '--no-wait', '--idempotency-key', 'cli-retry-1'],
      { EVIDENT_API_KEY: key },
      JSON.stringify({ items: 2, label: 'cli' }),
    );
  const first = await cli();
  const second = await cli();
  assert.equal(first.code, 0, first.stderr);
  assert.equal(JSON.parse(second.stdout).job_id, JSON.parse(first.stdout).job_id);
});

/** Starts `evident-jobs submit` on a long demo job, presses Ctrl-C once it is accepted, returns what it said. */
async function interruptSubmit(extra: string[]): Promise<{ code: number; stderr: string; jobId: string }> {
  const child = spawnCli(['submit', 'demo', '-', '--url', s.url, '--interval', '100', ...extra], {
    EVIDENT_API_KEY: key,
  });
  child.stdin!.end(JSON.stringify({ items: 1, cpu_ms: 60_000 }));
  let stderr = '';
  const accepted = new Promise<string>((resolve) => {
    child.stderr!.on('data', (d) => {
      stderr += d;
      const m = /job (demo_\w+) accepted/.exec(stderr);
      if (m) resolve(m[1]!);
    });
  });
  const exited = new Promise<number>((r) => child.on('exit', (c) => r(c ?? -1)));
  const jobId = await accepted;
  await new Promise((r) => setTimeout(r, 300)); // inside the wait loop
  child.kill('SIGINT');
  return { code: await exited, stderr, jobId };
}

test('Ctrl-C in evident-jobs submit cancels the job and says so; --keep-running leaves it and says so', async () => {
  const client = createClient({ baseUrl: s.url, apiKey: key });
  const cancelled = await interruptSubmit([]);
  assert.equal(cancelled.code, 130, cancelled.stderr);
  assert.match(cancelled.stderr, new RegExp(`interrupted: job ${cancelled.jobId} cancelled`));
  assert.equal((await client.getJob(cancelled.jobId)).status, 'cancelled');

  const kept = await interruptSubmit(['--keep-running']);
  assert.equal(kept.code, 130, kept.stderr);
  assert.match(kept.stderr, new RegExp(`interrupted: job ${kept.jobId} keeps running`));
  assert.equal((await client.getJob(kept.jobId)).status, 'processing');
  await client.cancelJob(kept.jobId);
});

test('evident-jobs results: the full JSON or CSV on request; an unknown job is a clear error', async () => {
  const client = createClient({ baseUrl: s.url, apiKey: key });
  const acc = await client.submit('/v1/demo/run', { items: 3 });
  await client.waitForJob(acc.job_id, { intervalMs: 50 });
  const env = { EVIDENT_API_KEY: key };
  const json = await runCli(['results', acc.job_id, '--url', s.url, '--json'], env);
  assert.equal(json.code, 0, json.stderr);
  assert.equal(JSON.parse(json.stdout).rows.length, 3);
  const csv = await runCli(['results', acc.job_id, '--url', s.url, '--csv'], env);
  assert.match(csv.stdout, /^index,value\n0,/);
  const missing = await runCli(['results', 'demo_aaaaaaaaaaaaaaaaaaaaaaaaaa', '--url', s.url], env);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /404 not_found: no such job/);
});

test('waitForJob rides out 429 answers by waiting Retry-After', async () => {
  const answers: Array<{ status: number; body: unknown; headers: Record<string, string> }> = [
    { status: 429, body: { error: { code: 'rate_limited', message: 'slow down' } }, headers: { 'retry-after': '1' } },
    {
      status: 200,
      body: { job_id: 'demo_x', status: 'processing', progress: { stage: 's', percent: 50 } },
      headers: {},
    },
    { status: 200, body: { job_id: 'demo_x', status: 'completed' }, headers: {} },
  ];
  const at: number[] = [];
  const fakeFetch = (async () => {
    at.push(Date.now());
    const a = answers.shift()!;
    return new Response(JSON.stringify(a.body), {
      status: a.status,
      headers: { 'content-type': 'application/json', ...a.headers },
    });
  }) as typeof fetch;
  const client = createClient({ baseUrl: 'http://unused.invalid', apiKey: 'k', fetch: fakeFetch });
  const final = await client.waitForJob('demo_x', { intervalMs: 10 });
  assert.equal(final.status, 'completed');
  assert.equal(at.length, 3);
  assert.ok(at[1]! - at[0]! >= 950, 'waited for Retry-After');
});

test('waitForJob backs off between polls, and its timeout holds while every answer is a 429', async () => {
  const at: number[] = [];
  const processing = (async () => {
    at.push(Date.now());
    return new Response(JSON.stringify({ job_id: 'demo_x', status: 'processing' }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
  const slow = createClient({ baseUrl: 'http://unused.invalid', apiKey: 'k', fetch: processing });
  await assert.rejects(slow.waitForJob('demo_x', { intervalMs: 20, maxIntervalMs: 200, timeoutMs: 1000 }), /1000 ms/);
  // A constant 20 ms pause would poll about 50 times in that second; growing to 200 ms, about 10. (Only an upper
  // bound: a slow machine polls less, never more.)
  assert.ok(at.length <= 25, `${at.length} polls in 1 s`);

  const limited = (async () =>
    new Response(JSON.stringify({ error: { code: 'rate_limited', message: 'slow down' } }), {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '0' },
    })) as typeof fetch;
  const refused = createClient({ baseUrl: 'http://unused.invalid', apiKey: 'k', fetch: limited });
  await assert.rejects(
    refused.waitForJob('demo_x', { intervalMs: 10, timeoutMs: 200 }),
    /still processing after 200 ms/,
  );
  const aborted = AbortSignal.timeout(100);
  await assert.rejects(refused.waitForJob('demo_x', { intervalMs: 10_000, signal: aborted }), /abort|timeout/i);
});

test('Retry-After is read as seconds or as an HTTP date', () => {
  assert.equal(parseRetryAfter('7'), 7);
  assert.equal(parseRetryAfter(null), undefined);
  assert.equal(parseRetryAfter('soon'), undefined);
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now), 30);
  assert.equal(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now), 0);
});
