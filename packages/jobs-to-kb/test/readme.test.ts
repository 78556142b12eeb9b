// The README's example runs as written (from the repository root, on the sources) and prints what it says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, testOutputPath } from '@evident/testkit';

test('the README example exports, repeats as a no-op and retracts', () => {
  const readme = readFileSync(join(repoRoot, 'packages/jobs-to-kb/README.md'), 'utf8');
  const code = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(code, 'the README has a ts example');
  // Inside the repository, so that its imports resolve through the workspace's node_modules.
  const dir = testOutputPath('jobs-to-kb');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'readme-example.ts');
  writeFileSync(file, code);
  const run = spawnSync(process.execPath, ['--conditions=evident-source', '--import', 'tsx', file], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 300_000,
  });
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stdout.trim().split('\n');
  const first = /^(\d+) claims from evident-job:td_\S+$/.exec(lines[0]!);
  assert.ok(first, lines[0]);
  const n = Number(first[1]);
  assert.ok(n > 0 && n <= 10, `${n} claims (top 10)`);
  assert.equal(lines[1], '0 new claims on a second export');
  const claims = lines.slice(2, -1);
  assert.equal(claims.length, n);
  for (const l of claims)
    assert.match(l, /^\S+ (up|down)regulated_in tumor 0\.\d+ http:\/\/127\.0\.0\.1:\d+\/v1\/results\/td_/);
  assert.equal(lines.at(-1), '0 claims left after retraction');
});
