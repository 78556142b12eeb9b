// The README's examples run verbatim from the repository root (@evident/testkit, readme.ts): the library example
// reads the example study and finds its planted targets; the enrichment example runs goana, camera and fry on it.
import assert from 'node:assert/strict';
import { testReadmeExamples } from '@evident/testkit';

testReadmeExamples('packages/target-discovery/README.md', {
  check: (_example, run) => {
    const words = run.stdout.trim().split(/\s+/);
    if (words[0] === 'enrichment') {
      // rows over GO BP for every method (the example's 2,000 genes leave hundreds of sets of 15-500 tested genes)
      assert.ok(Number(words[1]) > 0, run.stdout);
      assert.equal(words[2], 'camera,fry,goana', run.stdout);
      return;
    }
    // significant genes, the top target's symbol and fold change, the CSV's line count (a header and the genes
    // tested: the 2,000 less those filterByExpr removed)
    const [significant, symbol, lfc, lines] = words;
    assert.ok(Number(significant) >= 30, run.stdout);
    assert.match(symbol!, /^[A-Z0-9-]+$/, run.stdout);
    assert.ok(Math.abs(Number(lfc)) >= Math.log2(1.5), run.stdout);
    assert.ok(Number(lines) > 1000 && Number(lines) <= 2001, run.stdout);
  },
});
