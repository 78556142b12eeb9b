// Graceful restarts (embedded): a running job goes back to the queue without spending one of its attempts.
// PostgreSQL: a job whose queue entry is gone is failed, not left processing.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { tempDir, createTempDatabase, probePostgres } from '@evident/testkit';
import { startServer } from '../src/service.js';
import { PostgresStore } from '../src/store/postgres.js';
import { enqueue, startBoss } from '../src/runner/pgboss.js';
import { http, testConfig, waitFor, waitForStatus } from './helpers.js';

const dir = tempDir('evident-jobs-restart-');
after(() => dir.cleanup());

test('embedded: stopping the server mid-job requeues it uncounted; the next start completes it', async () => {
  const cfg = testConfig({ dataDir: dir.path, workerThreads: 1 });
  let s = await startServer(cfg, { logger: false });
  const key = (await s.store.createKey({ name: 'r', plan: 'researcher' })).key;
  const id = (await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 4, cpu_ms: 3000 } })).body.job_id;
  await waitFor(async () => (await http(s.url, 'GET', `/v1/jobs/${id}`, { key })).body.progress?.percent >= 10);
  await s.close();
  s = await startServer(cfg, { logger: false });
  try {
    const st = await waitForStatus(s.url, key, id);
    assert.equal(st.status, 'completed');
    assert.equal(st.attempts, 1);
  } finally {
    await s.close();
  }
});

const pg = await probePostgres();
test('postgres: jobs still processing that the queue no longer holds are failed by the sweeper', {
  skip: pg.skip,
}, async () => {
  const db = await createTempDatabase('evident_jobs_sweep');
  const cfg = testConfig({ databaseUrl: db.url });
  const store = new PostgresStore(db.url);
  const boss = await startBoss(cfg, 'api');
  try {
    await store.migrate();
    const k = await store.createKey({ name: 's', plan: 'researcher' });
    const mk = async (id: string) => {
      const r = await store.insertJob(
        {
          id,
          key_id: k.key_id,
          kind: 'demo',
          max_attempts: 3,
          estimate_low: 1,
          estimate_high: 2,
          callback_url: null,
          input: gzipSync('{}'),
        },
        10,
      );
      assert.ok(r.ok);
      return r.job;
    };
    await mk('demo_lost');
    const queued = await mk('demo_queued');
    await enqueue(boss, cfg, queued);
    await mk('demo_fresh');
    const failed = await store.failOrphansOfQueue!(Date.now() + 1000, Date.now());
    // 'demo_fresh' is as orphaned as 'demo_lost' here because the cut-off is in the future.
    assert.deepEqual(failed.sort(), ['demo_fresh', 'demo_lost']);
    assert.equal((await store.getJob('demo_lost'))!.error_code, 'worker_lost');
    assert.equal((await store.getJob('demo_queued'))!.status, 'processing');
    assert.deepEqual(await store.failOrphansOfQueue!(0, Date.now()), [], 'younger jobs are left alone');
  } finally {
    await boss.stop({ graceful: false, timeout: 1000 });
    await store.close();
    await db.drop();
  }
});

test('embedded: a second server on the same data directory is refused while the first runs', async () => {
  const d = tempDir('evident-jobs-lock-');
  const cfg = testConfig({ dataDir: d.path });
  const s = await startServer(cfg, { logger: false });
  try {
    await assert.rejects(startServer(cfg, { logger: false }), /another evident-jobs server/);
  } finally {
    await s.close();
    d.cleanup();
  }
});

test('postgres: a run outliving its queue delivery is stopped and retried, then failed with the reason', {
  skip: pg.skip,
}, async () => {
  const db = await createTempDatabase('evident_jobs_limit');
  const { startTestServer } = await import('./helpers.js');
  // Deliveries expire after max(1 s, 0.3 x high estimate): a 3 s demo job (high estimate 5.5 s) gets 2 s.
  const s = await startTestServer(
    { databaseUrl: db.url, jobExpireMinSeconds: 1, jobExpireFactor: 0.3, maxAttempts: 2, retryBaseMs: 1000 },
    { inProcessWorker: true },
  );
  try {
    const key = (await s.store.createKey({ name: 'l', plan: 'researcher' })).key;
    const id = (await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 2, cpu_ms: 3000 } })).body.job_id;
    const st = await waitForStatus(s.url, key, id, 30_000);
    assert.equal(st.status, 'failed');
    assert.equal(st.error.code, 'job_failed');
    assert.match(st.error.message, /time limit/);
    assert.equal(st.attempts, 2);
  } finally {
    await s.cleanup();
    await db.drop();
  }
});
