// The README's examples run verbatim (a new user's first lines): parsed by Node, run in an empty directory
// against the package's sources, with the file they read copied beside them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readmeExamples, runReadmeExample } from '@evident/testkit';
import { toolsOrSkip } from './helpers.js';
const { skip } = await toolsOrSkip();
const here = dirname(fileURLToPath(import.meta.url));
const examples = readmeExamples('packages/docking/README.md');

test('the README has an example to run', () => {
  assert.ok(examples.length >= 1);
});

for (const example of examples) {
  test(`README.md:${example.line} runs verbatim`, { skip, timeout: 600_000 }, () => {
    const run = runReadmeExample(example, { files: [join(here, 'fixtures', '2src.pdb')], timeoutMs: 540_000 });
    assert.equal(run.status, 0, `exit ${run.status}:\n${run.stderr}`);
    assert.ok(run.stdout.trim().length > 0, 'the example prints its result');
  });
}
