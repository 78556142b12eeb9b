// OPTIONAL MATCH of one relationship after an aggregation's pattern, and pattern predicates on a node scan, as
// multiplicities and slot tests of the columnar aggregations (plan/optional-hop.ts), compared with the
// interpreter on random graphs with self-loops and parallel relationships.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type GraphReader, type MemoryGraph, runCypher } from '../src/index.js';
import { canon, operators, randomGraph, rowByRow } from './plan-graphs.js';

// Columns and adjacency only: a query that works here built no node row and expanded no relationship.
const columnar = (g: MemoryGraph): GraphReader => ({
  scanNodes: () => {
    throw new Error('scanned rows');
  },
  expand: () => {
    throw new Error('expanded rows');
  },
  scanColumns: (l, k) => g.scanColumns(l, k),
  scanRelationshipColumns: (t, k) => g.scanRelationshipColumns(t, k),
  adjacent: (n, d, t) => g.adjacent(n, d, t),
  nodeAt: (s) => g.nodeAt(s),
});

function same(g: MemoryGraph, q: string, fast: GraphReader) {
  const slow = runCypher(rowByRow(g), q, {}, { planner: false });
  const got = runCypher(fast, q);
  if (q.includes('ORDER BY')) assert.deepEqual(got.rows, slow.rows, q);
  else assert.deepEqual(canon(got.rows), canon(slow.rows), q);
  return got;
}

test('an OPTIONAL MATCH of one relationship under a node-scan aggregation is a multiplicity per slot', () => {
  for (const seed of [31, 32]) {
    const g = randomGraph(seed);
    for (const q of [
      'MATCH (n) OPTIONAL MATCH (n)<--(o:B) RETURN n.t AS t, count(*) AS c, avg(n.c) AS a, count(o) AS o',
      'MATCH (n:A) OPTIONAL MATCH (n)-[:S]-(o) RETURN count(*) AS c, count(o) AS o, sum(n.c) AS s',
      'MATCH (n:B) WHERE n.c > 100 OPTIONAL MATCH (n)-[x:R]->(o:A) RETURN n.k AS k, count(x) AS x, max(n.c) AS m',
      // FLOAT sums weighted by adding each value once per row, as row by row does.
      'MATCH (n) OPTIONAL MATCH (n)-->(o) RETURN n.t AS t, sum(n.w) AS s, avg(n.w) AS a, min(n.c) AS lo',
      'MATCH (n) WHERE EXISTS { (n)-->(:A) } RETURN n.t AS t, count(*) AS c',
      'MATCH (n:A) WHERE n.c < 300 AND NOT (n)<-[:S]-(:B) OPTIONAL MATCH (n)--(o:A) RETURN count(*) AS c, count(o) AS o',
      'MATCH (n) OPTIONAL MATCH (n)<--(o:B) RETURN n.t AS t, count(*) AS c ORDER BY c DESC, t LIMIT 2',
    ]) {
      same(g, q, columnar(g));
      assert.ok(operators(runCypher(g, `EXPLAIN ${q}`).plan!).includes('ColumnarAggregate'), q);
    }
  }
});

test('an OPTIONAL MATCH of one relationship under a relationship aggregation is a multiplicity per row', () => {
  for (const seed of [33, 34]) {
    const g = randomGraph(seed);
    for (const r of [...g.relationships]) if (r.id % 3 !== 0) g.setProperty(r, 'w', (r.id % 17) / 4);
    for (const q of [
      'MATCH (a)-[r]->(b) OPTIONAL MATCH (b)<--(o:B) RETURN type(r) AS p, count(*) AS c, count(o) AS o',
      'MATCH (a:A)-[r]->(b) OPTIONAL MATCH (b)<--(o:B) RETURN b.t AS t, avg(r.w) AS w, count(*) AS c, count(o) AS o',
      'MATCH (a:B)<-[r]-(b) OPTIONAL MATCH (b)<--(o:B) RETURN a.t AS t, count(r) AS d, count(o) AS o ORDER BY d DESC, t LIMIT 3',
      'MATCH (a)-[r:R]-(b) OPTIONAL MATCH (a)-[:S]->(o) RETURN count(DISTINCT b) AS n, count(o) AS o, sum(b.c) AS s',
    ]) {
      same(g, q, columnar(g));
      assert.ok(operators(runCypher(g, `EXPLAIN ${q}`).plan!).includes('ColumnarExpandAggregate'), q);
    }
  }
});

test('an OPTIONAL MATCH whose variables the aggregation reads otherwise stays row by row', () => {
  const g = randomGraph(35);
  for (const q of [
    'MATCH (n) OPTIONAL MATCH (n)<--(o:B) RETURN n.t AS t, count(DISTINCT o) AS o',
    'MATCH (n) OPTIONAL MATCH (n)<--(o:B) RETURN o.t AS t, count(*) AS c',
    'MATCH (n) OPTIONAL MATCH (n)<--(o:B) WHERE o.c > 10 RETURN count(o) AS c',
    'MATCH (a)-[r]->(b) OPTIONAL MATCH (b)<--(o:B)-->(p) RETURN type(r) AS t, count(p) AS c',
  ]) {
    same(g, q, g);
    const ops = operators(runCypher(g, `EXPLAIN ${q}`).plan!);
    assert.ok(!ops.includes('ColumnarAggregate') && !ops.includes('ColumnarExpandAggregate'), q);
  }
});
