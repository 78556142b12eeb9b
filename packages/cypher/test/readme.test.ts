// The README's examples run verbatim (a new user's first lines): parsed by Node, run in an empty directory
// against the package's sources.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readmeExamples, runReadmeExample } from '@evident/testkit';

const examples = readmeExamples('packages/cypher/README.md');

test('the README has an example to run', () => {
  assert.ok(examples.length >= 1);
});

for (const example of examples) {
  test(`README.md:${example.line} runs verbatim`, { timeout: 600_000 }, () => {
    const run = runReadmeExample(example, { files: [], timeoutMs: 540_000 });
    assert.equal(run.status, 0, `exit ${run.status}:\n${run.stderr}`);
    assert.ok(run.stdout.trim().length > 0, 'the example prints its result');
  });
}
