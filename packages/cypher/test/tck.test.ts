// The openCypher TCK subset in ../shared/reference/cypher-tck: the pass rate must not fall below the level
// the engine reached (1536 of 1539 scenarios when this floor was set). A regression fails this test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { referencePath } from '@evident/testkit';
import { runFeatures } from '../tck/runner.js';

test('the TCK clauses and expressions pass at or above the recorded level', () => {
  const results = runFeatures([referencePath('cypher-tck', 'features')]);
  const all = results.flatMap((f) => f.scenarios);
  const passed = all.filter((s) => s.passed).length;
  assert.equal(all.length, 1539, 'every scenario (outlines expanded) is counted');
  assert.ok(passed >= 1536, `passed ${passed} of ${all.length}, below the floor of 1536`);
});

test('a scenario whose expectation is wrong fails rather than passes', async () => {
  const { runScenario } = await import('../tck/runner.js');
  assert.throws(() =>
    runScenario(
      [
        { text: 'an empty graph' },
        { text: 'executing query:', doc: 'RETURN 1 AS x' },
        { text: 'the result should be, in any order:', table: [['x'], ['2']] },
      ],
      undefined,
    ),
  );
  assert.throws(() => runScenario([{ text: 'a step nobody knows' }], undefined), /unknown step/);
});
