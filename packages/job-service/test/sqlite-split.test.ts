// The embedded store keeps job inputs and results apart from the job row (a row is rewritten whole on every
// update); a store made before that split is moved over when it is opened.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { tempDir } from '@evident/testkit';
import { SqliteStore } from '../src/store/sqlite.js';

test('a store with inputs and results in the job row is migrated: nothing is lost, new jobs work', async () => {
  const dir = tempDir('evident-jobs-split-');
  try {
    const old = new Database(join(dir.path, 'evident-jobs.sqlite'));
    old.exec(`
      create table api_keys (key_id text primary key, name text not null, plan text not null, rpm integer,
        concurrency integer, key_hash text not null unique, signing_secret text not null, created_at integer not null,
        revoked_at integer);
      create table jobs (seq integer primary key autoincrement, id text not null unique,
        key_id text not null references api_keys(key_id), kind text not null, status text not null, phase text not null,
        attempts integer not null default 0, max_attempts integer not null, run_after integer not null,
        created_at integer not null, started_at integer, completed_at integer, progress_stage text,
        progress_percent real, error_code text, error_message text, estimate_low real not null,
        estimate_high real not null, callback_url text, callback_due integer, input blob not null, result blob);
      insert into api_keys values ('k1', 'n', 'researcher', null, null, 'h', 's', 1, null);
      insert into jobs (id, key_id, kind, status, phase, max_attempts, run_after, created_at, estimate_low,
        estimate_high, input, result) values
        ('done1', 'k1', 'demo', 'completed', 'done', 3, 1, 1, 1, 2, x'01', x'0203'),
        ('queued1', 'k1', 'demo', 'processing', 'queued', 3, 1, 2, 1, 2, x'04', null);`);
    old.close();
    const store = new SqliteStore(dir.path);
    await store.migrate();
    assert.deepEqual(await store.getResult('done1'), Buffer.from([2, 3]));
    const attempt = await store.claimNext(Date.now());
    assert.equal(attempt?.job.id, 'queued1');
    assert.deepEqual(attempt?.input, Buffer.from([4]));
    const columns = (store.db.pragma('table_info(jobs)') as Array<{ name: string }>).map((c) => c.name);
    assert.ok(!columns.includes('input') && !columns.includes('result'), columns.join());
    assert.ok(await store.completeJob('queued1', Buffer.from('r'), [], Date.now()));
    assert.deepEqual(await store.getResult('queued1'), Buffer.from('r'));
    await store.migrate(); // a second open changes nothing
    assert.deepEqual(await store.getResult('done1'), Buffer.from([2, 3]));
    await store.close();
  } finally {
    dir.cleanup();
  }
});
