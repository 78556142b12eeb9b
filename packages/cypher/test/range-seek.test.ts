import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type GraphReader, MemoryGraph, type PlanDescription, type RangeBound, runCypher } from '../src/index.js';

// A graph with an ordered index on `age` that records the ranges it is asked for.
function indexed(): { reader: GraphReader; asked: [RangeBound | undefined, RangeBound | undefined][] } {
  const g = new MemoryGraph();
  for (let i = 0; i < 200; i++) g.createNode([i % 2 === 0 ? 'P' : 'Q'], { age: BigInt(i % 50), name: `n${i}` });
  g.createNode(['P'], { age: 'forty', name: 'text' });
  g.createNode(['P'], { name: 'none' });
  const asked: [RangeBound | undefined, RangeBound | undefined][] = [];
  const reader: GraphReader = {
    scanNodes: (l) => g.scanNodes(l),
    expand: (n, d, t) => g.expand(n, d, t),
    countNodes: (l) => g.countNodes(l),
    countNodesWhere: (_l, key) => (key === 'age' ? 4 : undefined),
    findNodesInRange(label, key, lower, upper) {
      asked.push([lower, upper]);
      const out = [];
      for (const n of g.scanNodes(label)) {
        const v = n.properties[key];
        if (typeof v !== 'bigint') continue;
        const lo =
          lower && typeof lower.value === 'bigint' ? (lower.inclusive ? v >= lower.value : v > lower.value) : true;
        const hi =
          upper && typeof upper.value === 'bigint' ? (upper.inclusive ? v <= upper.value : v < upper.value) : true;
        if (lo && hi) out.push(n);
      }
      return out;
    },
  };
  return { reader, asked };
}

const ops = (p: PlanDescription | undefined): string[] => (p ? [p.operator, ...p.children.flatMap(ops)] : []);

test('a range on an indexed key is a NodeIndexRangeSeek with the interpreter results', () => {
  const { reader, asked } = indexed();
  const queries = [
    'MATCH (n:P) WHERE n.age > 40 RETURN n.name ORDER BY n.name',
    'MATCH (n:P) WHERE 10 <= n.age AND n.age < $hi RETURN n.name ORDER BY n.name',
    'MATCH (n) WHERE n.age >= 48 AND n.name STARTS WITH "n1" RETURN n.name ORDER BY n.name',
    'MATCH (n:P) WHERE n.age < null RETURN count(*)',
    'MATCH (m:Q {name: "n1"}) MATCH (n:P) WHERE n.age < m.age RETURN n.name ORDER BY n.name',
  ];
  for (const q of queries) {
    const planned = runCypher(reader, `PROFILE ${q}`, { hi: 12n });
    // A count over the seek is a columnar aggregation, which starts at the same index (column-filters.ts).
    const seeks = ops(planned.plan).some((o) => o === 'NodeIndexRangeSeek' || o === 'ColumnarAggregate');
    assert.ok(seeks, `${q}: ${JSON.stringify(ops(planned.plan))}`);
    const interpreted = runCypher(reader, q, { hi: 12n }, { planner: false });
    assert.deepEqual(planned.rows, interpreted.rows, q);
  }
  assert.deepEqual(asked[1], [
    { value: 10n, inclusive: true },
    { value: 12n, inclusive: false },
  ]);
  // Without the index (no countNodesWhere for the key), a label scan.
  const plan = runCypher(reader, 'EXPLAIN MATCH (n:P) WHERE n.name > "n5" RETURN n').plan;
  assert.ok(!ops(plan).includes('NodeIndexRangeSeek'));
});

test('a variable-length relationship list bound before its MATCH is planned: the path must be that list', () => {
  const g = new MemoryGraph();
  const [a, b, c] = [g.createNode(['A'], { n: 'a' }), g.createNode([], { n: 'b' }), g.createNode([], { n: 'c' })];
  g.createRelationship('T', a, b, {});
  g.createRelationship('T', b, c, {});
  g.createRelationship('T', a, c, {});
  const q =
    'MATCH (x:A)-[r1]->()-[r2]->(y) WITH [r1, r2] AS rs, x AS first, y AS second MATCH (first)-[rs*]->(second) RETURN first.n, second.n';
  const planned = runCypher(g, `PROFILE ${q}`);
  assert.ok(ops(planned.plan).includes('VarLengthExpand'));
  assert.deepEqual(planned.rows, [['a', 'c']]);
  assert.deepEqual(runCypher(g, q, {}, { planner: false }).rows, planned.rows);
  const back =
    'MATCH (x:A)-[r1]->()-[r2]->(y) WITH [r1, r2] AS rs, y AS first, x AS second MATCH (first)-[rs*]->(second) RETURN first.n';
  assert.deepEqual(runCypher(g, back).rows, []);
  assert.deepEqual(runCypher(g, back, {}, { planner: false }).rows, []);
});
