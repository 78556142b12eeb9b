// kb-console's replica flags, through the bin: --replica-heap-mb caps the thread queries run on, the thread is built
// at start without a request, and --replica-idle-seconds ends it when idle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { repoRoot } from '@evident/testkit';
import { quickstart } from '@evident/kb';
import { tempKb } from './helpers.js';

const BIN = ['--conditions=evident-source', '--import', 'tsx', 'packages/kb-server/src/bin/kb-console.ts'];

function env(): NodeJS.ProcessEnv {
  const e = { ...process.env };
  delete e.KB_DB_PATH;
  delete e.KB_CONSOLE_TOKEN;
  delete e.EVIDENT_THREAD_IDLE_SECONDS;
  return e;
}

async function until(what: string, ok: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !ok(); ) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const threadsOf = (pid: number) => Number(/^Threads:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

async function start(path: string, flags: string[]): Promise<{ child: ChildProcess; url: string; log: () => string }> {
  const child = spawn(process.execPath, [...BIN, '--db', path, '--port', '0', '--log-level', 'info', ...flags], {
    cwd: repoRoot,
    env: env(),
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += String(d)));
  // The start line, not pino's 'Server listening at ...'.
  const line = /^kb-console: .* at (http:\/\/[\d.]+:\d+)\//m;
  await until('the start line', () => line.test(err) || child.exitCode !== null, 60_000);
  const m = line.exec(err);
  assert.ok(m, `started: ${err}`);
  return { child, url: m[1]!, log: () => err };
}

const query = (url: string, cypher: string) =>
  fetch(`${url}/api/v1/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cypher, timeout_ms: 60_000 }),
  });

test('--replica-heap-mb and --replica-idle-seconds are checked', () => {
  for (const [flag, value] of [
    ['--replica-heap-mb', '8'],
    ['--replica-idle-seconds', '-1'],
  ] as const) {
    const r = spawnSync(process.execPath, [...BIN, '--db', '/nonexistent/x.kb', `${flag}=${value}`], {
      cwd: repoRoot,
      env: env(),
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`${flag} must be an integer from \\d+ to \\d+, got '${value}'`));
  }
});

test('the replica is built at start without a request, ends when idle, and runs under the heap cap given', async () => {
  const kb = tempKb('replica-flags.kb');
  const db = await quickstart(kb.path);
  await db.ingest(['BRCA1', 'gene'], ['associated_with', 'association'], ['breast cancer', 'disease'], {
    source_type: 'literature',
    source_id: 'PMID:1',
  });
  await db.close();
  // About 60 MB of strings: under the engine's 256 MB budget, past a 48 MB heap.
  const big = "UNWIND range(1, 1000000) AS x WITH collect('abcdefghijklmnopqrstuvwxyz' + x) AS l RETURN size(l)";
  let c = await start(kb.path, ['--replica-heap-mb', '48', '--replica-idle-seconds', '2']);
  try {
    await until('the replica built at start', () => /replica thread ready/.test(c.log()), 60_000);
    const ready = threadsOf(c.child.pid!);
    // Idle for 2 s: the thread ends, and with it its threads.
    await until('the idle replica to end', () => threadsOf(c.child.pid!) < ready, 30_000);
    const r = await query(c.url, big);
    assert.equal(r.status, 413);
    assert.equal(((await r.json()) as { error: { code: string } }).error.code, 'cypher_memory_limit');
    const after = await query(c.url, 'MATCH (g:gene) RETURN g.name AS n');
    assert.equal(after.status, 200);
  } finally {
    c.child.kill('SIGTERM');
    await new Promise((r) => c.child.once('exit', r));
  }
  // Without the cap the same query answers: the cap above was the flag's.
  c = await start(kb.path, []);
  try {
    const r = await query(c.url, big);
    assert.equal(r.status, 200, await r.clone().text());
    assert.deepEqual(((await r.json()) as { rows: unknown[][] }).rows, [[1_000_000]]);
  } finally {
    c.child.kill('SIGTERM');
    await new Promise((r) => c.child.once('exit', r));
    kb.cleanup();
  }
});
