// `evident-jobs export` runs evident-export of the @evident/jobs-to-kb installed beside this package, resolved from
// this package's files, never from the current folder (issue 37, point 12; the bins themselves are run by
// packages/jobs-to-kb/test/bridge-bins.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot, tempDir } from '@evident/testkit';
import { bridgeProgram } from '../src/cli/export.js';

test("from the job service's files: the bridge's program of this installation (its sources here)", () => {
  const b = bridgeProgram();
  assert.ok(!('error' in b), JSON.stringify(b));
  assert.equal(b.file, join(repoRoot, 'packages', 'jobs-to-kb', 'src', 'cli', 'main.ts'));
  assert.ok(existsSync(b.file));
  // The sources run with the loader this test runs with (tsx), under the same conditions.
  assert.deepEqual(b.execArgv, process.execArgv);
});

test('where @evident/jobs-to-kb is not installed it says so, whatever ./node_modules/.bin holds', () => {
  const dir = tempDir('evident-jobs-export-');
  try {
    mkdirSync(join(dir.path, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(dir.path, 'node_modules', '.bin', 'evident-export'), '#!/bin/sh\n');
    const b = bridgeProgram(pathToFileURL(join(dir.path, 'cli', 'export.js')));
    assert.ok('error' in b);
    assert.match(b.error, /@evident\/jobs-to-kb, which is not installed beside @evident\/job-service/);
  } finally {
    dir.cleanup();
  }
});
