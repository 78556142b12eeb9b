// Hostile inputs against the threads: SMILES that used to hang or trap RDKit, prepare/CSV tasks that spin past
// their deadline, a client that leaves, a WebAssembly trap in a prepare and in a job run. Each answers (or
// fails) alone; the thread is replaced and the next normal request is served. Embedded mode, and PostgreSQL
// mode with the job run by a pg-boss worker in the process.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { createTempDatabase, probePostgres, type TempDatabase } from '@evident/testkit';
import type { ServiceConfig } from '../src/config.js';
import { demoKindModule, http, startTestServer, waitForStatus, type TestServer } from './helpers.js';

const hostileKindModule = fileURLToPath(new URL('./hostile-kind.ts', import.meta.url));
const cg = {
  target_uniprot: 'P00533',
  binding_site: { residues: ['K721', 'T790'] },
  num_molecules: 2,
  options: { max_evaluations: 100, population_size: 10, include_svg: false, docking: false },
};

const servers: TestServer[] = [];
let db: Promise<TempDatabase> | undefined;
after(async () => {
  for (const s of servers) await s.cleanup();
  await (await db)?.drop();
});

async function server(mode: 'embedded' | 'postgres', over: Partial<ServiceConfig> = {}) {
  if (mode === 'postgres') db ??= createTempDatabase('evident_jobs_faults');
  const databaseUrl = mode === 'postgres' ? (await db!).url : undefined;
  // One prepare thread and one job thread: a thread that was not replaced would hold up everything after it.
  const s = await startTestServer(
    {
      prepareThreads: 1,
      workerThreads: 1,
      requestTaskTimeoutMs: 5000,
      kindModules: [demoKindModule, hostileKindModule],
      ...(databaseUrl ? { databaseUrl } : {}),
      ...over,
    },
    { inProcessWorker: true },
  );
  servers.push(s);
  const key = (await s.store.createKey({ name: 'h', plan: 'enterprise', rpm: 100_000, concurrency: 50 })).key;
  return { s, key };
}

const probe = await probePostgres();
for (const mode of ['embedded', 'postgres'] as const) {
  const skip = mode === 'postgres' ? probe.skip : false;

  test(`${mode}: SMILES that hung or trapped RDKit answer 400 at their path; normal submissions then 202`, {
    skip,
    timeout: 120_000,
  }, async () => {
    const { s, key } = await server(mode);
    for (const n of [700, 650, 750, 1000, 2000]) {
      const r = await http(s.url, 'POST', '/v1/compounds/generate', {
        key,
        body: { ...cg, reference_ligands: ['CCO', 'C'.repeat(n)] },
      });
      assert.equal(r.status, 400, `${n}: ${r.text}`);
      assert.equal(r.body.error.code, 'invalid_parameters');
      assert.deepEqual(
        r.body.error.details.map((d: { path: string }) => d.path),
        ['/reference_ligands/1'],
      );
      assert.match(r.body.error.details[0].message, /more than 250 atoms/);
    }
    const ok = await http(s.url, 'POST', '/v1/compounds/generate', {
      key,
      body: { ...cg, reference_ligands: ['CCO'] },
    });
    assert.equal(ok.status, 202, ok.text);
    assert.equal((await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 3 } })).status, 202);
    assert.equal((await waitForStatus(s.url, key, ok.body.job_id, 60_000)).status, 'completed');
  });

  test(`${mode}: a prepare past its deadline answers 503 prepare_timeout; its thread is replaced`, {
    skip,
    timeout: 60_000,
  }, async () => {
    const { s, key } = await server(mode);
    const spun = await http(s.url, 'POST', '/v1/hostile/run', { key, body: { mode: 'spin' } });
    assert.equal(spun.status, 503, spun.text);
    assert.equal(spun.body.error.code, 'prepare_timeout');
    assert.match(spun.body.error.message, /took longer than 5\.0 s/);
    // The only prepare thread spun forever: it answers again only because it was replaced.
    const ok = await http(s.url, 'POST', '/v1/compounds/generate', {
      key,
      body: { ...cg, reference_ligands: ['CCO'] },
    });
    assert.equal(ok.status, 202, ok.text);
  });

  test(`${mode}: a large body whose check runs past the deadline answers 413 naming the limit; a small one 503`, {
    skip,
    timeout: 60_000,
  }, async () => {
    // Bodies above 1 KB go to the large-body thread as bytes. The spin stands in for a body too large to check in
    // time (a 95 MB matrix of \u0041 escapes under load): it always runs past the deadline, whatever the machine.
    const { s, key } = await server(mode, { requestTaskTimeoutMs: 1000, inlineJsonLimitBytes: 1024 });
    const body = `{"mode":"spin"${' '.repeat(4096)}}`;
    const big = await http(s.url, 'POST', '/v1/hostile/run', {
      key,
      raw: body,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(big.status, 413, big.text);
    assert.equal(big.body.error.code, 'payload_too_large');
    assert.match(big.body.error.message, /body of 0\.0 MB took longer than 1\.0 s/);
    assert.match(big.body.error.message, /EVIDENT_REQUEST_TASK_TIMEOUT_MS/);
    // The same prepare from a small body (parsed inline) stays a 503: its time is not the body's size.
    const small = await http(s.url, 'POST', '/v1/hostile/run', { key, body: { mode: 'spin' } });
    assert.equal(small.status, 503, small.text);
    assert.equal(small.body.error.code, 'prepare_timeout');
    // A large body that checks in time is still accepted.
    const ok = await http(s.url, 'POST', '/v1/hostile/run', {
      key,
      raw: `{"mode":"ok"${' '.repeat(4096)}}`,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(ok.status, 202, ok.text);
  });

  test(`${mode}: a prepare whose client leaves is cancelled and frees its thread`, {
    skip,
    timeout: 60_000,
  }, async () => {
    // A deadline far beyond the test's timeout: only the cancellation can free the one prepare thread.
    const { s, key } = await server(mode, { requestTaskTimeoutMs: 600_000 });
    const leave = new AbortController();
    const gone = fetch(`${s.url}/v1/hostile/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'spin' }),
      signal: leave.signal,
    });
    setTimeout(() => leave.abort(), 500);
    await assert.rejects(gone, /abort/i);
    const ok = await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 2 } });
    assert.equal(ok.status, 202, ok.text);
  });

  test(`${mode}: a WebAssembly trap in a prepare answers 500 engine_fault; the next RDKit request is served`, {
    skip,
    timeout: 60_000,
  }, async () => {
    const { s, key } = await server(mode);
    const trapped = await http(s.url, 'POST', '/v1/hostile/run', { key, body: { mode: 'trap' } });
    assert.equal(trapped.status, 500, trapped.text);
    assert.equal(trapped.body.error.code, 'engine_fault');
    assert.match(trapped.body.error.message, /WebAssembly/);
    // Same thread pool of one: RDKit in the trapped thread would fail this (it did, as a 500, before).
    const ok = await http(s.url, 'POST', '/v1/compounds/generate', {
      key,
      body: { ...cg, reference_ligands: ['CCO'] },
    });
    assert.equal(ok.status, 202, ok.text);
  });

  test(`${mode}: a WebAssembly trap in a job run fails that job (engine_fault, no retry); later jobs complete`, {
    skip,
    timeout: 120_000,
  }, async () => {
    const { s, key } = await server(mode);
    // RDKit is loaded in the one job thread first, then trapped there, then needed again.
    const first = await http(s.url, 'POST', '/v1/compounds/generate', {
      key,
      body: { ...cg, reference_ligands: ['CCO'] },
    });
    assert.equal((await waitForStatus(s.url, key, first.body.job_id, 60_000)).status, 'completed');
    const sub = await http(s.url, 'POST', '/v1/hostile/run', { key, body: { mode: 'trap', at: 'run' } });
    assert.equal(sub.status, 202, sub.text);
    const failed = await waitForStatus(s.url, key, sub.body.job_id, 60_000);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error.code, 'engine_fault');
    assert.equal(failed.attempts, 1);
    const next = await http(s.url, 'POST', '/v1/compounds/generate', {
      key,
      body: { ...cg, reference_ligands: ['CCO'] },
    });
    assert.equal((await waitForStatus(s.url, key, next.body.job_id, 60_000)).status, 'completed');
  });

  test(`${mode}: a CSV past its deadline answers 503 csv_timeout; the next CSV is made`, {
    skip,
    timeout: 60_000,
  }, async () => {
    const { s, key } = await server(mode);
    const spin = await http(s.url, 'POST', '/v1/hostile/run', { key, body: { mode: 'spin', at: 'csv' } });
    const fine = await http(s.url, 'POST', '/v1/hostile/run', { key, body: { mode: 'ok' } });
    for (const r of [spin, fine]) assert.equal((await waitForStatus(s.url, key, r.body.job_id)).status, 'completed');
    const slow = await http(s.url, 'GET', `/v1/results/${spin.body.job_id}?format=csv`, { key });
    assert.equal(slow.status, 503, slow.text);
    assert.equal(slow.body.error.code, 'csv_timeout');
    const csv = await http(s.url, 'GET', `/v1/results/${fine.body.job_id}?format=csv`, { key });
    assert.equal(csv.status, 200);
    assert.equal(csv.text, 'mode,at\nok,prepare\n');
  });
}
