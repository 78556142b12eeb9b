// A pattern predicate on a column scan's node is answered per slot by the scan (rewrite.ts existsIntoColumnScan):
// the rows of projections, ORDER BY … LIMIT, DISTINCT, an OPTIONAL MATCH and counts over it equal the
// interpreter's, and the plan has no ExpandExists or SemiApply left.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCypher } from '../src/index.js';
import { canon, operators, randomGraph, rowByRow } from './plan-graphs.js';

const QUERIES = [
  'MATCH (n:A) WHERE n.c > 100 AND EXISTS { (n)-->(:B) } RETURN n.c AS c, n.t AS t',
  'MATCH (n:A) WHERE n.c > 0 AND NOT EXISTS { (n)-[:R]->(:A) } RETURN n.c AS c ORDER BY c DESC LIMIT 7',
  'MATCH (n:B) WHERE n.w < 5 AND EXISTS { (n)<-[:S]-() } AND NOT EXISTS { (n)--(:B) } RETURN DISTINCT n.t AS t',
  'MATCH (n:A) WHERE n.c >= 50 AND NOT EXISTS { (n)-->(:A) } OPTIONAL MATCH (n)<--(o:B) RETURN n.c AS c, o.c AS oc',
  'MATCH (n:B) WHERE n.c < 300 AND EXISTS { (n)-->() } RETURN n.t AS t, count(*) AS k',
  'MATCH (n:A) WHERE n.c > 10 AND EXISTS { (n)<--(:A) } RETURN count(n) AS k',
];

test('pattern predicates folded into a column scan give the interpreter rows', () => {
  for (const seed of [1, 2, 3]) {
    const g = randomGraph(seed);
    for (const q of QUERIES) {
      const fast = runCypher(g, q).rows;
      const slow = runCypher(rowByRow(g), q, {}, { planner: false }).rows;
      const ordered = /ORDER BY/.test(q);
      assert.deepEqual(ordered ? fast : canon(fast), ordered ? slow : canon(slow), q);
      const ops = operators(runCypher(g, `EXPLAIN ${q}`).plan!);
      assert.ok(!ops.includes('ExpandExists') && !ops.includes('SemiApply'), `${q}: ${ops.join(' ')}`);
    }
  }
});
