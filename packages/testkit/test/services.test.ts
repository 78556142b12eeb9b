import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { existsSync } from 'node:fs';
import { probePostgres, probeRedis, createTempDatabase, referencePath, tempDir } from '../src/index.js';

const pgProbe = await probePostgres();
const redisProbe = await probeRedis();

test('a temporary PostgreSQL database is created empty and dropped', { skip: pgProbe.skip }, async () => {
  const db = await createTempDatabase();
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  const r = await c.query(`select count(*)::int as n from information_schema.tables where table_schema = 'public'`);
  assert.equal(r.rows[0].n, 0);
  await c.end();
  await db.drop();
  const again = new pg.Client({ connectionString: db.url });
  await assert.rejects(again.connect(), /does not exist/);
});

test('the Redis probe answers', { skip: redisProbe.skip }, () => {
  assert.equal(redisProbe.available, true);
});

test('reference data is found beside the repository', () => {
  assert.ok(existsSync(referencePath('target-discovery', 'README.md')));
  assert.throws(() => referencePath('no-such-file'), /reference data missing/);
});

test('tempDir cleans up after itself', () => {
  const d = tempDir();
  assert.ok(existsSync(d.path));
  d.cleanup();
  assert.ok(!existsSync(d.path));
});
