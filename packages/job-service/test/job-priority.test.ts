// Job threads run below the event loop's priority (issue 37: during the jobs case of the hostile bench the loop
// waited for a CPU behind the job's thread and its Vina processes). Linux: a nice value belongs to a thread there,
// and the processes a thread starts inherit it; elsewhere the threads are left as they are.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { getPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { JOB_NICE_DEFAULT } from '../src/config.js';
import { ThreadPool } from '../src/runner/thread-pool.js';
import { lowerThreadPriority } from '@evident/worker-threads';
import type { PriorityResult } from './priority-kind.js';
import { demoKindModule, http, startTestServer, waitForStatus, type TestServer } from './helpers.js';

const priorityKindModule = fileURLToPath(new URL('./priority-kind.ts', import.meta.url));
const linux = process.platform === 'linux';
const base = getPriority();
const lowered = (steps: number) => Math.min(19, base + steps);

async function runOn(pool: ThreadPool): Promise<PriorityResult> {
  const input = Buffer.from(JSON.stringify({ label: 'x', prepared_nice: -100 }));
  const done = await pool.run({ type: 'run', kind: 'priority', input: gzipSync(input), attempt: 1 }).result;
  assert.equal(done.type, 'done');
  return JSON.parse(gunzipSync((done as { result: Uint8Array }).result).toString('utf8'));
}

test('a pool with nice runs its tasks, and the processes they start, that much below the caller', {
  skip: !linux,
}, async () => {
  const pool = new ThreadPool(1, { kindModules: [priorityKindModule], nice: 5 });
  try {
    const r = await runOn(pool);
    assert.equal(r.run_nice, lowered(5), 'the thread');
    assert.equal(r.child_nice, lowered(5), 'a process the thread started');
    assert.equal(getPriority(), base, 'the calling thread keeps its priority');
  } finally {
    await pool.close();
  }
});

test('a pool without nice runs its tasks at the caller priority', { skip: !linux }, async () => {
  const pool = new ThreadPool(1, { kindModules: [priorityKindModule] });
  try {
    const r = await runOn(pool);
    assert.equal(r.run_nice, base);
    assert.equal(r.child_nice, base);
  } finally {
    await pool.close();
  }
});

let s: TestServer | undefined;
after(() => s?.cleanup());

test('the server runs jobs below the event loop and prepares submissions at its priority', {
  skip: !linux,
}, async () => {
  s = await startTestServer({ kindModules: [demoKindModule, priorityKindModule] });
  const key = (await s.store.createKey({ name: 'p', plan: 'enterprise', rpm: 100_000, concurrency: 10 })).key;
  const sub = await http(s.url, 'POST', '/v1/priority/run', { key, body: { label: 'a' } });
  assert.equal(sub.status, 202, sub.text);
  assert.equal((await waitForStatus(s.url, key, sub.body.job_id)).status, 'completed');
  const r = (await http<PriorityResult>(s.url, 'GET', `/v1/results/${sub.body.job_id}`, { key })).body;
  assert.equal(r.prepared_nice, base, 'a submission is prepared at the loop priority: a client waits for it');
  assert.equal(r.run_nice, lowered(JOB_NICE_DEFAULT));
  assert.equal(r.child_nice, lowered(JOB_NICE_DEFAULT));
  assert.equal(getPriority(), base, 'the event loop keeps its priority');
});

test('lowerThreadPriority changes nothing for 0, a negative or a non-number', () => {
  for (const steps of [0, -3, Number.NaN]) assert.equal(lowerThreadPriority(steps), undefined);
  assert.equal(getPriority(), base);
});
