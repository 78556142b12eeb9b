// Jobs run on worker threads: status requests stay fast while CPU-heavy jobs run.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { http, startTestServer, waitFor, waitForStatus, type TestServer } from './helpers.js';

let s: TestServer | undefined;
after(() => s?.cleanup());

test('the HTTP event loop stays responsive while two CPU-bound jobs run', async () => {
  s = await startTestServer({ workerThreads: 2 });
  const key = (await s.store.createKey({ name: 'r', plan: 'enterprise', rpm: 100_000, concurrency: 10 })).key;
  // 60 s of busy loop per job, in 3 s slices: on the event loop each slice would stall every request for up to 3 s.
  // The bounds below sit at half a slice, so a loaded machine's scheduling noise does not cross them and a job on
  // the event loop cannot stay under them. The jobs are cancelled once sampled.
  const ids: string[] = [];
  for (let i = 0; i < 2; i++)
    ids.push((await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 10, cpu_ms: 60_000 } })).body.job_id);
  await waitFor(async () => {
    const st = await Promise.all(ids.map((id) => http(s!.url, 'GET', `/v1/jobs/${id}`, { key })));
    return st.every((r) => r.body.started_at);
  });
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  // A fixed number of requests, not a time window: how many fit in a window depends on the machine.
  const latencies: number[] = [];
  const sampleStart = performance.now();
  while (latencies.length < 30 || performance.now() - sampleStart < 3500) {
    const t0 = performance.now();
    const r: { status: number; body: any } = await http(s!.url, 'GET', `/v1/jobs/${ids[0]}`, { key });
    latencies.push(performance.now() - t0);
    assert.equal(r.status, 200);
    assert.equal(r.body.status, 'processing');
  }
  h.disable();
  const st = await Promise.all(ids.map((id) => http(s!.url, 'GET', `/v1/jobs/${id}`, { key })));
  assert.ok(
    st.every((r) => r.body.status === 'processing'),
    'both jobs were still running throughout',
  );
  latencies.sort((a, b) => a - b);
  const max = latencies[latencies.length - 1]!;
  console.log(
    `# ${latencies.length} status requests, median ${latencies[latencies.length >> 1]!.toFixed(1)} ms, max ${max.toFixed(1)} ms`,
  );
  assert.ok(max < 1500, `slowest status request took ${max.toFixed(0)} ms`);
  assert.ok(h.max / 1e6 < 1500, `event loop stalled for ${(h.max / 1e6).toFixed(0)} ms`);
  for (const id of ids) await http(s.url, 'DELETE', `/v1/jobs/${id}`, { key });
  for (const id of ids) assert.equal((await waitForStatus(s.url, key, id)).status, 'cancelled');
});
