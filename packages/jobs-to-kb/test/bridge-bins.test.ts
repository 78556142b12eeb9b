// The export bridge through the real, built bins (issue 37, point 12), each run from a folder of its own whose
// node_modules/.bin holds a planted `evident-export` that must never run:
// - `evident-jobs export` finds its child beside its own installation (it exited 127 from another folder, and ran
//   whatever ./node_modules/.bin/evident-export was);
// - `--kb` naming the job store, another SQLite file, a file that is not SQLite, a PostgreSQL database of something
//   else, or a `file:` or other URL is refused naming --kb and what it is, with nothing written (the job store
//   gained the KB's tables; `file:///etc/passwd` created ./file:/etc/passwd).
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { configFromEnv, createClient, openStore, startServer } from '@evident/job-service';
import { open } from '@evident/kb';
import { createTempDatabase, probePostgres, repoRoot, tempDir } from '@evident/testkit';
import { discoveryRequest } from './helpers.js';

const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);
const EVIDENT_JOBS = bin('evident-jobs');
const EVIDENT_EXPORT = bin('evident-export');

const work = tempDir('jobs-to-kb-bins-');
/** The folder every bin runs from: a stranger's project with its own node_modules/.bin/evident-export. */
const cwd = join(work.path, 'elsewhere');
const planted = join(cwd, 'node_modules', '.bin', 'evident-export');
const plantedRan = join(work.path, 'planted-evident-export-ran');
/** PATH without any node_modules/.bin (as for a user who runs the installed bin by its path, not through npx). */
const PATH = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((p) => p && !p.includes(join('node_modules', '.bin')))
  .join(delimiter);

let server: Awaited<ReturnType<typeof startServer>>;
let jobStore: string;
let env: NodeJS.ProcessEnv;
let jobId: string;

function run(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // The bin itself (its #!/usr/bin/env node line), with no loader or condition of this test process.
  const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 128 : -1), stdout, stderr }));
  });
}

/** The file's bytes, as a digest: a refused --kb leaves it as it was. */
const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

const sqliteTables = (file: string) => {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY 1").all() as { name: string }[])
      .map((r) => r.name)
      .filter((n) => !n.startsWith('sqlite_'));
  } finally {
    db.close();
  }
};

before(async () => {
  for (const b of [EVIDENT_JOBS, EVIDENT_EXPORT])
    assert.ok(existsSync(b), `${b} is missing: build the bins first (npm run build)`);
  mkdirSync(join(cwd, 'node_modules', '.bin'), { recursive: true });
  writeFileSync(planted, `#!/bin/sh\ntouch '${plantedRan}'\necho '{"ingested":1}'\n`);
  chmodSync(planted, 0o755);
  const dataDir = join(work.path, 'jobs-data');
  server = await startServer(
    { ...configFromEnv({}), port: 0, dataDir, workerThreads: 2, logLevel: 'silent' },
    { logger: false },
  );
  jobStore = join(dataDir, 'evident-jobs.sqlite');
  assert.ok(existsSync(jobStore), 'the job store is where the issue found it');
  const key = (await server.store.createKey({ name: 'bins', plan: 'researcher' })).key;
  env = { PATH, HOME: process.env.HOME, EVIDENT_URL: server.url, EVIDENT_API_KEY: key };
  const client = createClient({ baseUrl: server.url, apiKey: key });
  const accepted = await client.submit('/v1/targets/discover', discoveryRequest());
  const done = await client.waitForJob(accepted.job_id, { intervalMs: 100, maxIntervalMs: 1000, timeoutMs: 300_000 });
  assert.equal(done.status, 'completed', JSON.stringify(done.error));
  jobId = done.job_id;
});

after(async () => {
  await server?.close().catch(() => {});
  work.cleanup();
});

beforeEach(() => rmSync(plantedRan, { force: true }));

/** Whether the planted program ran since the last look (each test is judged on its own runs). */
const plantedDidNotRun = () => {
  const ran = existsSync(plantedRan);
  rmSync(plantedRan, { force: true });
  assert.equal(ran, false, 'the planted ./node_modules/.bin/evident-export ran');
};

describe('evident-jobs export finds evident-export beside its own installation', () => {
  test('from another folder it runs the installed program, not ./node_modules/.bin/evident-export', async () => {
    const kb = join(work.path, 'out', 'findings.kb');
    const r = await run(EVIDENT_JOBS, ['export', jobId, '--kb', kb, '--top', '3']);
    plantedDidNotRun();
    assert.equal(r.code, 0, r.stderr);
    const result = JSON.parse(r.stdout);
    assert.equal(result.job_id, jobId);
    assert.equal(result.claims, 3);
    assert.equal(result.ingested, 3);
    await using db = await open(kb);
    // The three claims are the job's: its source takes back exactly them.
    assert.equal((await db.retractCascade(`evident-job:${jobId}`, 'test')).claim_ids.length, 3);
  });

  test('the arguments reach the child as given: its own refusals come back with its exit status', async () => {
    const r = await run(EVIDENT_JOBS, ['export', jobId, '--kb', join(work.path, 'x.kb'), '--top', '0']);
    plantedDidNotRun();
    assert.equal(r.code, 1);
    assert.match(r.stderr, /evident-export: invalid_parameters/);
    assert.match(r.stderr, /\/top: must be an integer >= 1/);
  });
});

describe('--kb must be a KB location: refused, naming --kb and what it is, with nothing written', () => {
  for (const [name, file] of [
    ['evident-jobs export', EVIDENT_JOBS],
    ['evident-export', EVIDENT_EXPORT],
  ] as const) {
    const args = (kb: string) => (name === 'evident-export' ? [jobId, '--kb', kb] : ['export', jobId, '--kb', kb]);

    test(`${name}: the job store (data/evident-jobs.sqlite)`, async () => {
      const tables = sqliteTables(jobStore);
      assert.ok(tables.includes('jobs') && tables.includes('api_keys'), tables.join());
      const r = await run(file, args(jobStore));
      plantedDidNotRun();
      assert.equal(r.code, 1, r.stdout);
      assert.match(
        r.stderr,
        /invalid_kb: --kb \S*evident-jobs\.sqlite is the job store of evident-jobs, not an Evident KB/,
      );
      assert.match(r.stderr, /nothing was written/);
      assert.deepEqual(sqliteTables(jobStore), tables, 'no table was added to the job store');
      assert.equal((await server.store.listKeys()).length, 1, 'the job service still reads its store');
    });

    test(`${name}: an SQLite file of something else, and a file that is not SQLite`, async () => {
      const other = join(work.path, `${name.replace(/ /g, '-')}-other.sqlite`);
      const db = new Database(other);
      db.exec("CREATE TABLE log (line TEXT); INSERT INTO log VALUES ('kept')");
      db.close();
      const text = join(work.path, `${name.replace(/ /g, '-')}-notes.txt`);
      writeFileSync(text, 'not a database\n');
      const before = [digest(other), digest(text)];
      const r1 = await run(file, args(other));
      assert.equal(r1.code, 1);
      assert.match(
        r1.stderr,
        /--kb \S+-other\.sqlite is an SQLite database of something else, not an Evident KB \(tables log\)/,
      );
      const r2 = await run(file, args(text));
      assert.equal(r2.code, 1);
      assert.match(r2.stderr, /--kb \S+-notes\.txt is not an SQLite database/);
      assert.deepEqual([digest(other), digest(text)], before);
      assert.deepEqual(sqliteTables(other), ['log']);
      plantedDidNotRun();
    });

    test(`${name}: a file: URL, or any scheme but postgres://, is refused and creates nothing`, async () => {
      const target = join(work.path, 'passwd');
      writeFileSync(target, 'root:x:0:0::/root:/bin/sh\n');
      const before = readdirSync(cwd);
      for (const [kb, said] of [
        [`file://${target}`, /--kb file:\/\/\S+ is a 'file:' URL/],
        ['FILE:kb.sqlite', /is a 'file:' URL/],
        ['sqlite:kb.sqlite', /is a 'sqlite:' URL; only postgres:\/\/ and postgresql:\/\/ URLs are KB locations/],
        ['http://127.0.0.1/kb', /is a 'http:' URL/],
      ] as const) {
        const r = await run(file, args(kb));
        assert.equal(r.code, 1, kb);
        assert.match(r.stderr, said, kb);
      }
      assert.deepEqual(readdirSync(cwd), before, 'no file: folder (or any other) was created in the current folder');
      assert.equal(readFileSync(target, 'utf8'), 'root:x:0:0::/root:/bin/sh\n');
      plantedDidNotRun();
    });
  }

  test('a directory is refused; an empty file is an empty database, where a base is created', async () => {
    const r = await run(EVIDENT_EXPORT, [jobId, '--kb', work.path]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /invalid_kb: --kb \S+ is a directory/);
    const empty = join(work.path, 'empty.kb');
    writeFileSync(empty, '');
    const ok = await run(EVIDENT_EXPORT, [jobId, '--kb', empty, '--top', '1']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(JSON.parse(ok.stdout).ingested, 1);
    // And the base it made is a KB the next export accepts.
    const again = await run(EVIDENT_EXPORT, [jobId, '--kb', empty, '--top', '1']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).duplicates, 1);
  });
});

const pgProbe = await probePostgres();

describe('--kb as a postgres:// URL', { skip: pgProbe.skip }, () => {
  const tablesOf = async (url: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const { rows } = await c.query<{ t: string }>(
        'SELECT table_name AS t FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1',
      );
      return rows.map((r) => r.t);
    } finally {
      await c.end();
    }
  };

  test("the job service's own database (its PostgreSQL job store) is refused; nothing is created in it", async () => {
    const database = await createTempDatabase('jobs_to_kb_store');
    try {
      const store = await openStore({ databaseUrl: database.url, dataDir: work.path });
      await store.close();
      const tables = await tablesOf(database.url);
      assert.ok(tables.includes('evident_jobs'), tables.join());
      const r = await run(EVIDENT_JOBS, ['export', jobId, '--kb', database.url]);
      plantedDidNotRun();
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stderr, /invalid_kb: --kb postgres:\S+ is the job store of evident-jobs, not an Evident KB/);
      assert.deepEqual(await tablesOf(database.url), tables);
    } finally {
      await database.drop();
    }
  });

  test('a database of something else is refused; an empty one gets a base', async () => {
    const database = await createTempDatabase('jobs_to_kb_pg');
    try {
      const c = new pg.Client({ connectionString: database.url });
      await c.connect();
      await c.query('CREATE TABLE orders (id int)');
      await c.end();
      const r = await run(EVIDENT_EXPORT, [jobId, '--kb', database.url]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /--kb postgres:\S+ is a database of something else, not an Evident KB \(tables orders\)/);
      assert.deepEqual(await tablesOf(database.url), ['orders']);
    } finally {
      await database.drop();
    }
    const fresh = await createTempDatabase('jobs_to_kb_pg');
    try {
      const r = await run(EVIDENT_JOBS, ['export', jobId, '--kb', fresh.url, '--top', '2']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(JSON.parse(r.stdout).ingested, 2);
      const again = await run(EVIDENT_JOBS, ['export', jobId, '--kb', fresh.url, '--top', '2']);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(JSON.parse(again.stdout).duplicates, 2);
    } finally {
      await fresh.drop();
    }
    plantedDidNotRun();
  });
});
