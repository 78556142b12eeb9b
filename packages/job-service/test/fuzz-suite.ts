// Fuzz: 1,200 seeded malformed requests (fuzz-cases.ts: bad JSON, wrong types, huge numbers, missing headers,
// oversize bodies, odd paths and queries, hostile SMILES, NUL bytes, __proto__ bodies, parser refusals, wrong
// methods, HEAD on POST routes, oversized headers, stalled bodies). Every answer must be a 4xx in the one error
// shape (the status each case may get), never a 5xx, and the server must keep serving.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { describe, runFuzz } from '@evident/testkit';
import type { ServiceConfig } from '../src/config.js';
import { isSmall, jobApiRequests } from './fuzz-cases.js';
import { http, waitForStatus, type TestServer } from './helpers.js';

const LIMIT = 16 * 1024;
const REQUEST_TIMEOUT_MS = 1500;

export function fuzzSuite(
  mode: string,
  start: (over: Partial<ServiceConfig>) => Promise<TestServer>,
  skip: string | false = false,
): void {
  let s: TestServer;
  let key: string;
  before(async () => {
    if (skip) return;
    // Bodies above 4 KB take the threaded parse path, so both paths are fuzzed; stalled bodies are cut quickly.
    s = await start({
      bodyLimitBytes: LIMIT,
      inlineJsonLimitBytes: 4096,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      headersTimeoutMs: REQUEST_TIMEOUT_MS,
    });
    key = (await s.store.createKey({ name: 'fuzz', plan: 'enterprise', rpm: 1_000_000, concurrency: 5 })).key;
  });
  after(async () => {
    if (!skip) await s.cleanup();
  });

  test(`${mode}: 1,200 malformed requests all get well-formed 4xx errors; the server still serves`, {
    skip,
  }, async () => {
    const reqs = jobApiRequests(1200, 12345, { key, bodyLimit: LIMIT, requestTimeoutMs: REQUEST_TIMEOUT_MS });
    const summary = await runFuzz(s.url, reqs, { concurrency: 25, small: isSmall });
    console.log(`# statuses: ${JSON.stringify(summary.statuses)}`);
    assert.deepEqual(summary.failures.map(describe), []);
    assert.equal(summary.server_errors_5xx, 0);
    for (const code of [400, 401, 404, 405, 408, 413, 415, 417, 431]) {
      assert.ok(summary.statuses[code], `no ${code} seen`);
    }
    for (const why of [
      'hostile SMILES',
      'NUL byte',
      '__proto__',
      'HEAD on a POST route',
      'stalled body',
      'CONNECT',
      'Expect',
      'deep objects',
      'many keys',
    ]) {
      assert.ok(summary.by_generator[why], `no ${why} case sent`);
    }
    assert.ok((summary.statuses[-1] ?? 0) < 50, 'few oversize bodies cut off after their 413');

    assert.equal((await http(s.url, 'GET', '/healthz')).status, 200);
    const ok = await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 2 } });
    assert.equal(ok.status, 202);
    assert.equal((await waitForStatus(s.url, key, ok.body.job_id)).status, 'completed');
    // RDKit still answers after the hostile SMILES: a normal reference ligand is accepted.
    const cg = await http(s.url, 'POST', '/v1/compounds/generate', {
      key,
      body: {
        target_uniprot: 'P00533',
        binding_site: { residues: ['K721'] },
        num_molecules: 1,
        reference_ligands: ['CCO'],
      },
    });
    assert.equal(cg.status, 202, cg.text);
    await http(s.url, 'DELETE', `/v1/jobs/${cg.body.job_id}`, { key });
  });
}
