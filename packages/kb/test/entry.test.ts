import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot, tempDir } from '@evident/testkit';
import { configureCurator, ingestText, KbDB, KbExtractionUnavailableError, open, quickstart } from '@evident/kb';
import * as core from '@evident/kb-core';

// A child process imports '@evident/kb', opens a base and ingests text (heuristic extraction), with a module
// resolution hook (fixtures/record-loads.mjs) writing down every module it loads.
const CHILD = `
const { quickstart } = await import('@evident/kb');
const { join } = await import('node:path');
const db = await quickstart(join(process.argv[1], 'child.kb'));
await db.ingestText('Olaparib inhibits PARP1.', { source_id: 'note:1' });
await db.close();
`;
const RECORD = fileURLToPath(new URL('./fixtures/record-loads.mjs', import.meta.url));

const HEAVY = /\/node_modules\/(ai|@ai-sdk\/[^/]+|fastify|@fastify\/[^/]+|@modelcontextprotocol\/[^/]+|cytoscape)\//;

test("import '@evident/kb' and heuristic ingestText load no AI SDK, provider, Fastify, MCP, Cytoscape", (t) => {
  const dir = tempDir('evident-kb-entry-');
  t.after(dir.cleanup);
  const log = join(dir.path, 'loaded.txt');
  const r = spawnSync(
    process.execPath,
    [
      '--conditions=evident-source',
      '--import',
      'tsx',
      '--import',
      RECORD,
      '--input-type=module',
      '-e',
      CHILD,
      dir.path,
    ],
    { cwd: repoRoot, encoding: 'utf8', timeout: 60_000, env: { ...process.env, EVIDENT_LOAD_LOG: log } },
  );
  assert.equal(r.status, 0, r.stderr);
  const loaded = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  assert.ok(
    loaded.some((u) => u.includes('/packages/kb-extract/')),
    'the hook saw the extraction load',
  );
  const heavy = loaded.filter((u) => HEAVY.test(u));
  assert.deepEqual(heavy, [], `loaded: ${heavy.join(', ')}`);
});

test('open, quickstart, KbDB.open and KbDB.restore from @evident/kb give bases with extraction', async (t) => {
  const dir = tempDir('evident-kb-entry-');
  t.after(dir.cleanup);
  const a = await quickstart(join(dir.path, 'a.kb'));
  const r = await a.ingestText('Olaparib inhibits PARP1.', { source_id: 'note:1' });
  assert.equal(r.ingested, 1);
  assert.deepEqual(await a.configureCurator('heuristic'), { curator: 'heuristic' });
  assert.deepEqual(await configureCurator(a, 'heuristic'), { curator: 'heuristic' }, 'the db-first functions remain');
  assert.equal((await ingestText(a, 'Olaparib inhibits PARP1.', { source_id: 'note:1' })).duplicates, 1);
  await a.snapshot(join(dir.path, 'a.snap'));
  await a.close();
  assert.ok(a instanceof KbDB && a instanceof core.KbDB);
  const restored = await KbDB.restore(join(dir.path, 'a.snap'), join(dir.path, 'b.kb'));
  assert.equal((await restored.curate([])).ingested, 0);
  await restored.close();
  for (const db of [await open(join(dir.path, 'c.kb')), await KbDB.open(join(dir.path, 'd.kb'))]) {
    assert.equal((await db.curate([])).ingested, 0);
    await db.close();
  }
});

test('a base opened through @evident/kb-core alone says where extraction is', async (t) => {
  const dir = tempDir('evident-kb-entry-');
  t.after(dir.cleanup);
  const db = await core.open(join(dir.path, 'core.kb'));
  t.after(() => db.close());
  await assert.rejects(
    db.ingestText('Olaparib inhibits PARP1.'),
    (e: unknown) =>
      e instanceof KbExtractionUnavailableError &&
      e.code === 'extraction_unavailable' &&
      e.status === 501 &&
      /import \{ open \} from '@evident\/kb'/.test(e.message),
  );
});
