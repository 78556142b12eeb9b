// Embedded mode with real processes: the keys CLI, and jobs surviving kill -9 of the server.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '@evident/testkit';
import { demoValue } from './demo-kind.js';
import { http, jsonLine, killHard, runCli, spawnCli, waitFor, waitForStatus } from './helpers.js';

const dir = tempDir('evident-jobs-durable-');
const children: ChildProcess[] = [];
after(async () => {
  for (const c of children) await killHard(c);
  dir.cleanup();
});

async function serve(extra: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawnCli(['serve', '--data-dir', dir.path, '--port', '0', '--workers', '1', ...extra], {
    EVIDENT_RETRY_BASE_MS: '100',
    ...env,
  });
  children.push(child);
  const line = await jsonLine(child, (o) => o.evident_jobs === 'listening');
  assert.equal(line.mode, 'embedded');
  assert.match(line.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  return { child, url: line.url };
}

async function runningJob(url: string, key: string, body: object): Promise<string> {
  const sub = await http(url, 'POST', '/v1/demo/run', { key, body });
  assert.equal(sub.status, 202, sub.text);
  const id = sub.body.job_id as string;
  await waitFor(async () => (await http(url, 'GET', `/v1/jobs/${id}`, { key })).body.progress?.percent >= 10);
  return id;
}

test('keys CLI: create prints the key once, list never shows it, revoke; enterprise needs limits', async () => {
  const c = await runCli([
    'keys',
    '--data-dir',
    dir.path,
    'create',
    '--plan',
    'enterprise',
    '--name',
    'lab',
    '--rpm',
    '1000',
    '--concurrency',
    '4',
  ]);
  assert.equal(c.code, 0, c.stderr);
  const created = JSON.parse(c.stdout);
  assert.deepEqual(Object.keys(created).sort(), ['key', 'key_id', 'plan', 'signing_secret']);
  assert.equal(created.plan, 'enterprise');
  const l = await runCli(['keys', '--data-dir', dir.path, 'list']);
  const listed = JSON.parse(l.stdout);
  assert.equal(listed.length, 1);
  assert.equal(listed[0].key_id, created.key_id);
  assert.equal(listed[0].rpm, 1000);
  assert.ok(!l.stdout.includes(created.key), 'the key itself is never listed');
  const noLimits = await runCli(['keys', '--data-dir', dir.path, 'create', '--plan', 'enterprise', '--name', 'x']);
  assert.notEqual(noLimits.code, 0);
  assert.match(noLimits.stderr, /--rpm and --concurrency/);
  const badPlan = await runCli(['keys', '--data-dir', dir.path, 'create', '--plan', 'gold', '--name', 'x']);
  assert.notEqual(badPlan.code, 0);
  const r = await runCli(['keys', '--data-dir', dir.path, 'revoke', created.key_id]);
  assert.equal(r.code, 0);
  assert.ok(JSON.parse((await runCli(['keys', '--data-dir', dir.path, 'list'])).stdout)[0].revoked_at);
});

test('kill -9 of the server mid-job: after a restart the job is retried from a clean state and completes', async () => {
  const key = JSON.parse(
    (await runCli(['keys', '--data-dir', dir.path, 'create', '--plan', 'researcher', '--name', 'k9'])).stdout,
  ).key;
  let s = await serve();
  const id = await runningJob(s.url, key, { items: 30, cpu_ms: 4000 });
  await killHard(s.child);
  s = await serve();
  const done = await waitForStatus(s.url, key, id);
  assert.equal(done.status, 'completed');
  assert.equal(done.attempts, 2);
  const res = await http(s.url, 'GET', `/v1/results/${id}`, { key });
  assert.deepEqual(
    res.body.rows.map((r: any) => r.value),
    Array.from({ length: 30 }, (_, i) => demoValue(i)),
  );
  await killHard(s.child);
});

test('kill -9 during the last allowed attempt: the job is failed with a reason, not left processing', async () => {
  const key = JSON.parse(
    (await runCli(['keys', '--data-dir', dir.path, 'create', '--plan', 'researcher', '--name', 'k9b'])).stdout,
  ).key;
  let s = await serve(['--max-attempts', '1']);
  const id = await runningJob(s.url, key, { items: 3, cpu_ms: 4000 });
  await killHard(s.child);
  s = await serve(['--max-attempts', '1']);
  const st = await waitForStatus(s.url, key, id);
  assert.equal(st.status, 'failed');
  assert.equal(st.error.code, 'worker_lost');
  assert.match(st.error.message, /stopped/);
  const processing = await http(s.url, 'GET', '/v1/jobs?status=processing', { key });
  assert.equal(processing.body.jobs.length, 0);
  await killHard(s.child);
});

test('kill -9 while a callback is being delivered: the restarted server delivers it', async () => {
  const key = JSON.parse(
    (await runCli(['keys', '--data-dir', dir.path, 'create', '--plan', 'researcher', '--name', 'cb'])).stdout,
  ).key;
  const seen: string[] = [];
  let hang = true;
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      seen.push(body);
      if (!hang) res.writeHead(204).end(); // while `hang`, the request is left unanswered
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  try {
    const env = {
      EVIDENT_ALLOW_PRIVATE_CALLBACKS: '1',
      EVIDENT_CALLBACK_TIMEOUT_MS: '1500',
      EVIDENT_CALLBACK_ATTEMPTS: '2',
      EVIDENT_CALLBACK_BASE_DELAY_MS: '100',
    };
    let s = await serve([], env);
    const port = (receiver.address() as { port: number }).port;
    const sub = await http(s.url, 'POST', '/v1/demo/run', {
      key,
      body: { items: 2, callback_url: `http://127.0.0.1:${port}/hook` },
    });
    await waitFor(async () => seen.length >= 1);
    await killHard(s.child);
    hang = false;
    s = await serve([], env);
    await waitFor(async () => seen.length >= 2);
    const doc = JSON.parse(seen[seen.length - 1]!);
    assert.equal(doc.job_id, sub.body.job_id);
    assert.equal(doc.status, 'completed');
    await killHard(s.child);
  } finally {
    receiver.closeAllConnections();
    receiver.close();
  }
});

test('server logs never contain API keys, signing secrets, results-link tokens or the link secret', async () => {
  const created = JSON.parse(
    (await runCli(['keys', '--data-dir', dir.path, 'create', '--plan', 'researcher', '--name', 'logs'])).stdout,
  );
  const child = spawnCli(['serve', '--data-dir', dir.path, '--port', '0', '--workers', '1'], {
    EVIDENT_LOG_LEVEL: 'debug',
    EVIDENT_ALLOW_PRIVATE_CALLBACKS: '1',
  });
  children.push(child);
  let logs = '';
  child.stdout!.on('data', (d) => (logs += d));
  child.stderr!.on('data', (d) => (logs += d));
  const { url } = await jsonLine(child, (o) => o.evident_jobs === 'listening');
  const key = created.key as string;
  const sub = await http(url, 'POST', '/v1/demo/run', {
    key,
    body: { items: 2, fail: 'first_attempt', callback_url: 'http://127.0.0.1:9/nothing-listens' },
  });
  await waitForStatus(url, key, sub.body.job_id);
  await http(url, 'GET', '/v1/jobs', { key: `${key.slice(0, -2)}xx` });
  await http(url, 'GET', `/v1/jobs?cursor=${encodeURIComponent(key)}`, { key });
  // A results link made and opened: its token is in the URL the server logs.
  const link = await http(url, 'POST', `/v1/results/${sub.body.job_id}/links`, { key, body: {} });
  assert.equal(link.status, 201, link.text);
  assert.equal((await http(url, 'GET', new URL(link.body.url).pathname + new URL(link.body.url).search)).status, 200);
  // Wait for what the assertions read, not for a fixed time: the last requests' lines (their URLs carried the key
  // and the token) and the first callback attempt (which signs with the secret).
  await waitFor(
    async () =>
      logs.includes('cursor=evk_[redacted]') &&
      logs.includes('token=evl_[redacted]') &&
      logs.includes('callback failed'),
  );
  await killHard(child);
  assert.ok(logs.includes('request completed'), 'requests were logged');
  const db = new Database(join(dir.path, 'evident-jobs.sqlite'), { readonly: true });
  const linkSecret = (
    db.prepare(`select value from service_secrets where name = 'result_links'`).get() as {
      value: Buffer;
    }
  ).value;
  db.close();
  const secrets = [
    key,
    key.slice(4, 30),
    created.signing_secret,
    link.body.token,
    link.body.token.slice(4, 30),
    linkSecret.toString('hex'),
    linkSecret.toString('base64'),
    linkSecret.toString('base64url'),
  ];
  for (const [i, secret] of secrets.entries()) {
    const at = logs.indexOf(secret);
    assert.ok(at < 0, `secret ${i} reached the log: ...${logs.slice(Math.max(0, at - 200), at + 60)}`);
  }
});
