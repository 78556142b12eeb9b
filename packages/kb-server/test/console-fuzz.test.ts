// Fuzz: 600 seeded requests to the KB console (console-fuzz-cases.ts). Every error answer is in the one error
// shape with the status its case may get, never a 5xx, and the console keeps serving.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { quickstart, type KbDB } from '@evident/kb';
import { describe, runFuzz } from '@evident/testkit';
import { startConsole, type RunningConsole } from '../src/console/server.js';
import { consoleRequests, isSmall } from './console-fuzz-cases.js';
import { tempKb } from './helpers.js';

const LIMIT = 16 * 1024;
const TIMEOUT_MS = 1500;
const kb = tempKb('fuzz.kb');
let db: KbDB;
let c: RunningConsole;

before(async () => {
  db = await quickstart(kb.path);
  await db.ingest(['BRCA1', 'gene'], ['associated_with', 'association'], ['breast cancer', 'disease'], {
    source_type: 'literature',
    source_id: 'PMID:1',
  });
  await db.ingest(['PARP1', 'protein'], ['interacts_with', 'molecular'], ['BRCA1', 'gene'], {
    source_type: 'experiment',
    source_id: 'exp-7',
  });
  c = await startConsole(db, {
    port: 0,
    bodyLimit: LIMIT,
    limits: { requestTimeoutMs: TIMEOUT_MS, headersTimeoutMs: TIMEOUT_MS },
  });
});
after(async () => {
  await c?.close();
  await db?.close();
  kb.cleanup();
});

test('600 malformed requests: the one error shape, the expected statuses, no 5xx; the console still serves', async () => {
  const reqs = consoleRequests(600, 4242, { bodyLimit: LIMIT, requestTimeoutMs: TIMEOUT_MS });
  const summary = await runFuzz(c.url, reqs, { concurrency: 16, small: isSmall });
  console.log(`# statuses: ${JSON.stringify(summary.statuses)}`);
  assert.deepEqual(summary.failures.map(describe), []);
  assert.equal(summary.server_errors_5xx, 0);
  for (const code of [400, 404, 405, 408, 413, 415, 421, 431]) assert.ok(summary.statuses[code], `no ${code} seen`);
  const health = await fetch(`${c.url}/api/v1/health`);
  assert.equal(health.status, 200);
});
