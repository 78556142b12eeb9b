// The seed's contract details over HTTP: the estimate's form and the queue it counts, Content-Type on
// body-less requests, 415 for other media types.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { http, startTestServer, waitFor, type TestServer } from './helpers.js';
import { queuePlace } from '../src/queue/wait.js';

let s: TestServer;
let key: string;
before(async () => {
  s = await startTestServer({ workerThreads: 1 });
  key = (await s.store.createKey({ name: 'seed', plan: 'researcher' })).key;
});
after(() => s.cleanup());

const FORM = /^(\d+)-(\d+) (seconds|minutes|hours)$/;
const json = { 'content-type': 'application/json' };

test('a queued job says where it stands and its estimate counts the jobs ahead', async () => {
  // One worker thread: the first job runs, the next two wait in order.
  const running = await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 1, cpu_ms: 8000 } });
  assert.equal(running.status, 202, running.text);
  await waitFor(async () => {
    const st = await http(s.url, 'GET', `/v1/jobs/${running.body.job_id}`, { key });
    return st.body.progress?.stage !== 'queued' && st.body.queue_position === undefined;
  });
  const second = await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 1, cpu_ms: 4000 } });
  const third = await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 1, cpu_ms: 100 } });
  for (const r of [second, third]) {
    assert.equal(r.status, 202, r.text);
    assert.match(r.body.estimated_time, FORM);
  }
  assert.equal(second.body.queue_position, 1);
  assert.equal(third.body.queue_position, 2);
  // Alone, the third job is estimated at [0.09, 1.15] s; behind 4 s of queued work (and what is left of 8 s).
  assert.ok(third.body.estimated_seconds[0] >= 3, JSON.stringify(third.body));
  assert.ok(third.body.estimated_seconds[1] >= 7, JSON.stringify(third.body));
  const st = await http(s.url, 'GET', `/v1/jobs/${third.body.job_id}`, { key, headers: json });
  assert.equal(st.status, 200, st.text);
  assert.equal(st.body.queue_position, 2);
  assert.match(st.body.estimated_time, FORM);
  const list = await http(s.url, 'GET', '/v1/jobs?status=processing', { key });
  const listed = list.body.jobs.find((j: any) => j.job_id === third.body.job_id);
  assert.equal(listed.queue_position, 2);
  const runningNow = list.body.jobs.find((j: any) => j.job_id === running.body.job_id);
  assert.equal(runningNow.queue_position, undefined, 'a running job has no queue position');

  // DELETE with the seed's Content-Type header and no body cancels, like without the header.
  for (const r of [running, second, third]) {
    const del = await http(s.url, 'DELETE', `/v1/jobs/${r.body.job_id}`, { key, headers: json });
    assert.equal(del.status, 200, del.text);
    assert.equal(del.body.status, 'cancelled');
  }
});

test('Content-Type: application/json on body-less GET and DELETE is fine; other media types are 415', async () => {
  for (const path of ['/v1/jobs', '/v1/targets', '/v1/jobs/demo_aaaaaaaaaaaaaaaaaaaaaaaaaa']) {
    const r = await http(s.url, 'GET', path, { key, headers: json });
    assert.notEqual(r.status, 400, `${path}: ${r.text}`);
  }
  const missing = await http(s.url, 'DELETE', '/v1/jobs/demo_aaaaaaaaaaaaaaaaaaaaaaaaaa', { key, headers: json });
  assert.equal(missing.status, 404, missing.text);
  const text = await http(s.url, 'POST', '/v1/demo/run', {
    key,
    raw: '{"items":1}',
    headers: { 'content-type': 'text/plain' },
  });
  assert.equal(text.status, 415, text.text);
  assert.equal(text.body.error.code, 'unsupported_media_type');
  const form = await http(s.url, 'POST', '/v1/demo/run', {
    key,
    raw: 'items=1',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(form.status, 415, form.text);
  // A body-less DELETE with another Content-Type is not refused for its header.
  const del = await http(s.url, 'DELETE', '/v1/jobs/demo_aaaaaaaaaaaaaaaaaaaaaaaaaa', {
    key,
    headers: { 'content-type': 'text/plain' },
  });
  assert.equal(del.status, 404, del.text);
  // A POST still needs its body.
  const empty = await http(s.url, 'POST', '/v1/demo/run', { key, headers: json });
  assert.equal(empty.status, 400);
  assert.equal(empty.body.error.code, 'invalid_json');
});

test('queue waits: list scheduling of the remaining and queued work onto the worker slots', () => {
  const now = 100_000;
  const job = (id: string, phase: 'running' | 'queued', low: number, high: number, startedSecondsAgo?: number) => ({
    id,
    phase,
    started_at: startedSecondsAgo === undefined ? null : now - startedSecondsAgo * 1000,
    estimate_low: low,
    estimate_high: high,
  });
  const active = [job('a', 'running', 10, 20, 4), job('b', 'queued', 5, 8), job('c', 'queued', 1, 2)];
  // One slot: c waits for what is left of a (6..16 s) and all of b (5..8 s).
  assert.deepEqual(queuePlace(active, 'c', now, 1), { position: 2, wait: [11, 24] });
  // Two slots: b starts at once on the free slot; c waits for the earlier of a's rest and b.
  assert.deepEqual(queuePlace(active, 'b', now, 2), { position: 1, wait: [0, 0] });
  assert.deepEqual(queuePlace(active, 'c', now, 2), { position: 2, wait: [5, 8] });
  // Unknown slot count (scale-out): the running jobs are the capacity.
  assert.deepEqual(queuePlace(active, 'c', now), { position: 2, wait: [11, 24] });
  // A job past its estimate leaves no negative wait; a running job has no place.
  assert.deepEqual(queuePlace([job('a', 'running', 1, 2, 60), job('b', 'queued', 1, 1)], 'b', now, 1).wait, [0, 0]);
  assert.deepEqual(queuePlace(active, 'a', now, 1), { wait: [0, 0] });
});
