// Large inputs of the embedded store are files written by the preparing thread and read by the job's thread:
// the event loop never writes their bytes into SQLite nor reads them back (431 + 208 ms for a 33 MB input before).
// The job row names the file; a file no job names (a refused submission, a stop mid-way) is removed at start.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { tempDir } from '@evident/testkit';
import { startServer } from '../src/service.js';
import type { SqliteStore } from '../src/store/sqlite.js';
import { INPUT_FILE_MIN_BYTES } from '../src/store/input-files.js';
import { blobResult, blobText } from './blob-kind.js';
import { demoKindModule, http, testConfig, waitForStatus } from './helpers.js';

const blobKindModule = fileURLToPath(new URL('./blob-kind.ts', import.meta.url));
const dir = tempDir('evident-jobs-input-files-');
after(() => dir.cleanup());
const cfg = testConfig({ dataDir: dir.path, kindModules: [demoKindModule, blobKindModule] });
const inputs = join(dir.path, 'inputs');

type Row = { input: Buffer; input_file: string | null };
const rowOf = (store: SqliteStore, id: string) =>
  store.db.prepare(`select input, input_file from job_inputs where job_id = ?`).get(id) as Row;

test('a large input is a file the thread wrote; the row holds its name, not its bytes; the run reads it', async () => {
  let s = await startServer(cfg, { logger: false });
  const key = (await s.store.createKey({ name: 'f', plan: 'researcher' })).key;
  // Base64-like text gzips to about three quarters of its length: well past the file threshold.
  const bytes = INPUT_FILE_MIN_BYTES * 2;
  const big = await http(s.url, 'POST', '/v1/blob/run', { key, body: { bytes, seed: 7 } });
  assert.equal(big.status, 202, big.text);
  const small = await http(s.url, 'POST', '/v1/blob/run', { key, body: { bytes: 10, seed: 7 } });
  assert.equal(small.status, 202, small.text);

  const row = rowOf(s.store as SqliteStore, big.body.job_id);
  assert.equal(row.input.length, 0, 'the input bytes did not go through the event loop into SQLite');
  assert.ok(row.input_file, 'the row names the file');
  const file = join(inputs, row.input_file);
  assert.deepEqual(JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')), { text: blobText(bytes, 7) });
  const smallRow = rowOf(s.store as SqliteStore, small.body.job_id);
  assert.equal(smallRow.input_file, null, 'a small input stays in the database');
  assert.ok(smallRow.input.length > 0);

  for (const [r, n] of [
    [big, bytes],
    [small, 10],
  ] as const) {
    assert.equal((await waitForStatus(s.url, key, r.body.job_id)).status, 'completed');
    const result = await http(s.url, 'GET', `/v1/results/${r.body.job_id}`, { key });
    assert.deepEqual(result.body, blobResult(blobText(n, 7)), 'the run read the whole input');
  }

  // A file no job names (as a refused submission or a stop between the thread's write and the insert leaves it)
  // is removed at the next start; the job's own file stays.
  await s.close();
  const stray = join(inputs, 'stray.json.gz');
  writeFileSync(stray, 'x');
  s = await startServer(cfg, { logger: false });
  try {
    assert.ok(!existsSync(stray));
    assert.deepEqual(readdirSync(inputs), [row.input_file]);
  } finally {
    await s.close();
  }
});

test('a submission refused after its input file was written leaves no file', async () => {
  const s = await startServer(cfg, { logger: false });
  try {
    const key = (await s.store.createKey({ name: 'g', plan: 'enterprise', rpm: 1000, concurrency: 1 })).key;
    const before = new Set(readdirSync(inputs));
    // The first holds the key's one slot (a long demo job); the second is prepared, written, then refused (429).
    const first = await http(s.url, 'POST', '/v1/demo/run', { key, body: { items: 1, cpu_ms: 20_000 } });
    assert.equal(first.status, 202, first.text);
    const refused = await http(s.url, 'POST', '/v1/blob/run', {
      key,
      body: { bytes: INPUT_FILE_MIN_BYTES * 2, seed: 1 },
    });
    assert.equal(refused.status, 429, refused.text);
    await http(s.url, 'DELETE', `/v1/jobs/${first.body.job_id}`, { key });
    // The refused input's file is removed in the background.
    for (let i = 0; i < 50 && readdirSync(inputs).some((f) => !before.has(f)); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(
      readdirSync(inputs).filter((f) => !before.has(f)),
      [],
    );
  } finally {
    await s.close();
  }
});
