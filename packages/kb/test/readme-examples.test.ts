// Every README example of the KB packages runs verbatim on the minimum Node version (issue #14): each `js`/`ts`
// block is first parsed by Node's own parser (`node --check`: syntax Node 20 lacks, such as `await using`, fails
// here), then run as a module in an empty directory, against the library's sources. A block that needs
// PostgreSQL gets a fresh database in DATABASE_URL (skipped, with a message, when none is reachable).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTempDatabase, probePostgres, repoRoot, tempDir } from '@evident/testkit';

// The KB packages' READMEs, and the repository's (its "Use the knowledge base" example).
const READMES = ['packages/kb', 'packages/kb-core', 'packages/kb-extract', 'packages/kb-server', '.'].map((p) =>
  join(p, 'README.md'),
);
const FENCE = /^```(js|javascript|mjs|ts|typescript)\n([\s\S]*?)^```/gm;

interface Example {
  readme: string;
  line: number;
  code: string;
}

function examples(): Example[] {
  const out: Example[] = [];
  for (const readme of READMES) {
    let text: string;
    try {
      text = readFileSync(join(repoRoot, readme), 'utf8');
    } catch {
      continue;
    }
    for (const m of text.matchAll(FENCE))
      out.push({ readme, line: text.slice(0, m.index).split('\n').length, code: m[2]! });
  }
  return out;
}

const found = examples();
const pg = await probePostgres();

test('the KB READMEs have examples to run', () => {
  assert.ok(found.length >= 4, `found ${found.length}`);
});

for (const ex of found) {
  const needsPg = ex.code.includes('DATABASE_URL');
  test(`${ex.readme}:${ex.line} runs verbatim`, { skip: needsPg ? pg.skip : false }, async (t) => {
    const dir = tempDir('evident-readme-');
    t.after(dir.cleanup);
    // The example imports '@evident/kb' as a user would; the repository's node_modules provides it.
    symlinkSync(join(repoRoot, 'node_modules'), join(dir.path, 'node_modules'), 'dir');
    const file = join(dir.path, 'example.mjs');
    writeFileSync(file, ex.code);
    const check = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
    assert.equal(check.status, 0, `Node ${process.version} cannot parse it:\n${check.stderr}`);
    const env: NodeJS.ProcessEnv = { ...process.env };
    let db: Awaited<ReturnType<typeof createTempDatabase>> | undefined;
    if (needsPg) {
      db = await createTempDatabase('evident_readme');
      env.DATABASE_URL = db.url;
    }
    try {
      const run = spawnSync(process.execPath, ['--conditions=evident-source', '--import', 'tsx', file], {
        cwd: dir.path,
        env,
        encoding: 'utf8',
        timeout: 120_000,
      });
      assert.equal(run.status, 0, `exit ${run.status}:\n${run.stderr}`);
    } finally {
      await db?.drop();
    }
  });
}
