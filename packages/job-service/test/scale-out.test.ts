// PostgreSQL mode with real processes: an API server, two `evident-jobs worker` processes sharing pg-boss,
// kill -9 of a worker mid-job; and rate limits shared across API instances through Redis.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { createTempDatabase, probePostgres, probeRedis, redisUrl, type TempDatabase } from '@evident/testkit';
import { demoValue } from './demo-kind.js';
import { openStore } from '../src/store/open.js';
import {
  http,
  jsonLine,
  killHard,
  onJsonLines,
  runCli,
  spawnCli,
  startTestServer,
  waitFor,
  waitForStatus,
} from './helpers.js';

const pgProbe = await probePostgres();
const redisProbe = await probeRedis();
let db: TempDatabase | undefined;
const children: ChildProcess[] = [];
const env = () => ({
  DATABASE_URL: db!.url,
  EVIDENT_RETRY_BASE_MS: '1000',
  // Deliveries would expire only after 10 minutes: recovering from a killed worker within the test's
  // time needs the heartbeat watch (stale after 3 s).
  EVIDENT_JOB_EXPIRE_MIN_SECONDS: '600',
  EVIDENT_HEARTBEAT_STALE_SECONDS: '3',
  EVIDENT_QUEUE_MAINTENANCE_SECONDS: '1',
  EVIDENT_LOG_LEVEL: 'info',
});

before(async () => {
  if (!pgProbe.skip) db = await createTempDatabase('evident_jobs_scale');
});
after(async () => {
  for (const c of children) await killHard(c);
  await db?.drop();
});

/** Starts a worker process and records the jobs it starts. */
async function worker(started: Map<string, number>): Promise<ChildProcess> {
  const child = spawnCli(['worker', '--threads', '1'], env());
  children.push(child);
  onJsonLines(child, (o) => {
    if (o.msg === 'job started') started.set(`${o.job_id}#${o.attempt}`, child.pid!);
  });
  await jsonLine(child, (o) => o.evident_jobs === 'worker ready');
  return child;
}

test('API process + two worker processes share the queue; kill -9 of a worker mid-job loses nothing', {
  skip: pgProbe.skip,
}, async () => {
  // Keys through the CLI, against the same DATABASE_URL as the server.
  const created = await runCli(['keys', 'create', '--plan', 'researcher', '--name', 'scale'], env());
  assert.equal(created.code, 0, created.stderr);
  const key = JSON.parse(created.stdout).key;

  const api = spawnCli(['serve', '--port', '0'], env());
  children.push(api);
  const { url, mode } = await jsonLine(api, (o) => o.evident_jobs === 'listening');
  assert.equal(mode, 'postgres');
  const started = new Map<string, number>();
  const w1 = await worker(started);
  const w2 = await worker(started);

  const ids: string[] = [];
  for (let i = 0; i < 6; i++)
    ids.push((await http(url, 'POST', '/v1/demo/run', { key, body: { items: 5 + i, cpu_ms: 400 } })).body.job_id);
  for (const [i, id] of ids.entries()) {
    const st = await waitForStatus(url, key, id);
    assert.equal(st.status, 'completed', JSON.stringify(st));
    const res = await http(url, 'GET', `/v1/results/${id}`, { key });
    assert.equal(res.body.rows.length, 5 + i);
  }
  const pids = new Set(ids.map((id) => started.get(`${id}#1`)));
  assert.deepEqual([...pids].sort(), [w1.pid, w2.pid].sort(), 'both workers ran jobs');

  // A long job; whichever worker takes it is killed; the other one notices and takes it over.
  const long = (await http(url, 'POST', '/v1/demo/run', { key, body: { items: 12, cpu_ms: 3000 } })).body.job_id;
  const victimPid = await waitFor(async () => started.get(`${long}#1`));
  const victim = victimPid === w1.pid ? w1 : w2;
  const survivor = victim === w1 ? w2 : w1;
  await waitFor(async () => (await http(url, 'GET', `/v1/jobs/${long}`, { key })).body.progress?.percent >= 10);
  await killHard(victim);
  const killedAt = Date.now();
  // Taken over once the heartbeat is stale (3 s), not when the delivery expires (600 s): the bound sits halfway,
  // far from both, so a slow machine does not decide the outcome.
  const halfExpiry = (Number(env().EVIDENT_JOB_EXPIRE_MIN_SECONDS) * 1000) / 2;
  const st = await waitForStatus(url, key, long, halfExpiry);
  assert.ok(Date.now() - killedAt < halfExpiry, 'taken over long before the delivery expired');
  assert.equal(st.status, 'completed', JSON.stringify(st));
  assert.equal(st.attempts, 2);
  assert.equal(started.get(`${long}#2`), survivor.pid);
  const res = await http(url, 'GET', `/v1/results/${long}`, { key });
  assert.deepEqual(
    res.body.rows.map((r: any) => r.value),
    Array.from({ length: 12 }, (_, i) => demoValue(i)),
  );

  // kill -9 of the API server: jobs already accepted still complete, and a new server serves them.
  const queued = (await http(url, 'POST', '/v1/demo/run', { key, body: { items: 2, cpu_ms: 300 } })).body.job_id;
  await killHard(api);
  const api2 = spawnCli(['serve', '--port', '0'], env());
  children.push(api2);
  const url2 = (await jsonLine(api2, (o) => o.evident_jobs === 'listening')).url;
  assert.equal((await waitForStatus(url2, key, queued)).status, 'completed');
});

test('REDIS_URL: two API instances share one rate-limit budget per key', {
  skip: pgProbe.skip || redisProbe.skip,
}, async () => {
  const a = await startTestServer({ databaseUrl: db!.url, redisUrl });
  const b = await startTestServer({ databaseUrl: db!.url, redisUrl });
  try {
    const store = await openStore({ databaseUrl: db!.url, dataDir: '' });
    const k = await store.createKey({ name: 'shared', plan: 'enterprise', rpm: 10, concurrency: 1 });
    await store.close();
    const codes: number[] = [];
    for (let i = 0; i < 12; i++)
      codes.push((await http(i % 2 ? b.url : a.url, 'GET', '/v1/jobs', { key: k.key })).status);
    assert.deepEqual(codes, [...Array(10).fill(200), 429, 429]);
    const r = await http(a.url, 'GET', '/v1/jobs', { key: k.key });
    assert.equal(r.body.error.code, 'rate_limited');
    assert.ok(Number(r.headers.get('retry-after')) > 0);
  } finally {
    await a.cleanup();
    await b.cleanup();
  }
});
