// OPTIONAL MATCH of one relationship after an aggregation's pattern, and pattern predicates on a node scan, as
// multiplicities and slot tests of the columnar aggregations (plan/optional-hop.ts), compared with the
// interpreter on random graphs with self-loops and parallel relationships.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type GraphReader, MemoryGraph, runCypher } from '../src/index.js';
import { canon, columnarOnly, operators, randomGraph, rowByRow, seeded, slotsOnly } from './plan-graphs.js';

const columnar = columnarOnly;

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

test('an OPTIONAL MATCH of one relationship under a row-by-row aggregation is folded into it as a multiplicity', () => {
  for (const seed of [36, 37]) {
    const g = randomGraph(seed);
    for (const q of [
      'MATCH (n:A)-->(m) OPTIONAL MATCH (m)<--(o:B) RETURN n.t AS t, collect(m.c) AS c, count(o) AS o',
      'MATCH (n:B)-[:S]-(m) OPTIONAL MATCH (m)-[x]->(o) RETURN count(DISTINCT m) AS d, count(x) AS x, count(*) AS c',
      'MATCH (n)-[*1..2]->(m:A) OPTIONAL MATCH (m)--(o:A) RETURN n.k AS k, count(m) AS c, count(o) AS o, avg(m.w) AS w',
      'MATCH (n:A)-->(m) OPTIONAL MATCH (m)<--(o:B) WITH n, m, o RETURN n.t AS t, count(o) AS o ORDER BY o DESC, t',
      // No input row: one group, avg null, count(o) 0.
      'MATCH (n:Missing)-->(m) OPTIONAL MATCH (m)-->(o) RETURN avg(m.c) AS a, count(o) AS o, collect(m.c) AS c',
    ]) {
      // With adjacency (the MemoryGraph) and without (expanding relationships to count the matches).
      same(g, q, g);
      same(g, q, rowByRow(g));
      const plan = runCypher(g, `EXPLAIN ${q}`).plan!;
      assert.ok(!operators(plan).includes('Optional'), q);
    }
  }
});

test('any other OPTIONAL MATCH of one relationship from a bound node is an OptionalExpand', () => {
  for (const seed of [38, 39]) {
    const g = randomGraph(seed);
    for (const q of [
      'MATCH (n:A) WHERE n.c > 500 OPTIONAL MATCH (n)<--(o:B) RETURN n.c AS c, o.c AS o, o IS NULL AS none',
      'MATCH (n:B) OPTIONAL MATCH (n)-[r:R]->(o) WHERE r.w > 1 OR o.c < 0 RETURN n.c AS c, o.t AS t',
      'MATCH (n:A) OPTIONAL MATCH (n)--(o:A) RETURN DISTINCT o.t AS t',
      'OPTIONAL MATCH (x:Missing) OPTIONAL MATCH (x)-->(y) RETURN x, y',
      'MATCH (a:A), (b:B) WHERE a.c > 700 AND b.c > 700 OPTIONAL MATCH (a)-[r]->(b) RETURN a.c AS a, b.c AS b, r IS NULL AS none',
      'MATCH (n:A)-->(m) OPTIONAL MATCH (m)<--(o:B) RETURN count(DISTINCT o) AS d, collect(o.c)[0..2] AS c',
    ]) {
      same(g, q, g);
      same(g, q, rowByRow(g));
      // Or taken into a chain read over slots as its last hop (chain-columns.ts): no inner plan per row either way.
      const ops = operators(runCypher(g, `EXPLAIN ${q}`).plan!);
      assert.ok(ops.includes('OptionalExpand') || ops.includes('ChainProjection'), q);
    }
  }
});

test('a pattern part may start at a rare relationship type (RelationshipScan), with the row-by-row results', () => {
  for (const seed of [40, 41]) {
    const g = randomGraph(seed);
    // One rare type among the 900 relationships.
    const nodes = [...g.nodes];
    for (let i = 0; i < 12; i++) g.createRelationship('RARE', nodes[(i * 37) % 300]!, nodes[(i * 11 + 5) % 300]!, {});
    g.createRelationship('RARE', nodes[7]!, nodes[7]!, {});
    for (const q of [
      'MATCH (a:A)-[r:RARE]->(b) RETURN a.c AS a, b.c AS b',
      'MATCH (a)<-[:RARE]-(b:B)-[s]-(c) RETURN a.c AS a, count(s) AS n',
      'MATCH (a:A)-[:R]->(b)-[:RARE]-(c) WHERE c.c > 0 RETURN a.c AS a, c.c AS c',
      'MATCH (a:B)-[r:RARE]-(b) RETURN type(r) AS t, count(*) AS n, count(DISTINCT b) AS d',
      'MATCH (a:A)-[r:RARE]->(b)<-[:RARE]-(c) RETURN count(*) AS n',
    ]) {
      same(g, q, g);
      // Started at the type's relationships: a scan of them, or a chain read from their columns.
      const plan = runCypher(g, `EXPLAIN ${q}`).plan!;
      const fromRels = (d: typeof plan): boolean =>
        d.operator === 'RelationshipScan' ||
        d.operator === 'ColumnarExpandAggregate' ||
        (d.operator === 'ChainProjection' && d.details.startsWith('relationships ')) ||
        d.children.some(fromRels);
      assert.ok(fromRels(plan), q);
    }
  }
});

// The same arrays across queries, as a graph that keeps its columns (the KB's snapshot cache) gives them.
const keeping = (g: MemoryGraph): GraphReader => {
  const rels = new Map<string, ReturnType<MemoryGraph['scanRelationshipColumns']>>();
  const nodes = new Map<string, ReturnType<MemoryGraph['scanColumns']>>();
  return {
    ...columnar(g),
    scanRelationshipColumns: (t, k) => {
      const key = `${t.join('|')}/${k.join('|')}`;
      if (!rels.has(key)) rels.set(key, g.scanRelationshipColumns(t, k));
      return rels.get(key);
    },
    scanColumns: (l, k) => {
      const key = `${l}/${k.join('|')}`;
      if (!nodes.has(key)) nodes.set(key, g.scanColumns(l, k));
      return nodes.get(key);
    },
  };
};

test('degrees kept across queries are told apart by direction and labels, zero-degree nodes counted once (OPTIONAL MATCH, pattern predicates)', () => {
  const g = randomGraph(45);
  // Nodes with no relationships at all: each stands for one row with o null.
  for (let i = 0; i < 5; i++) g.createNode(['A'], {});
  const kept = keeping(g);
  for (let round = 0; round < 2; round++) {
    for (const q of [
      'MATCH (n:A) OPTIONAL MATCH (n)<--(o:B) RETURN count(*) AS c, count(o) AS o',
      'MATCH (n:A) OPTIONAL MATCH (n)-->(o:B) RETURN count(*) AS c, count(o) AS o',
      'MATCH (n:A) OPTIONAL MATCH (n)--(o:B) RETURN count(*) AS c, count(o) AS o',
      'MATCH (n:A) OPTIONAL MATCH (n)--(o:A) RETURN count(*) AS c, count(o) AS o',
      'MATCH (n:A) OPTIONAL MATCH (n)-[:S]-(o) RETURN count(*) AS c, count(o) AS o',
      'MATCH (n:B) OPTIONAL MATCH (n)-[x:R]->(o:A) RETURN n.t AS t, count(*) AS c, count(x) AS x',
      'MATCH (n:A) OPTIONAL MATCH (n)-[:Missing]->(o) RETURN count(*) AS c, count(o) AS o',
      // Pattern predicates read the same kept degrees.
      'MATCH (n:A) WHERE EXISTS { (n)<--(:B) } RETURN count(*) AS c',
      'MATCH (n:A) WHERE NOT EXISTS { (n)--(:B) } RETURN n.t AS t, count(*) AS c',
    ]) {
      same(g, q, kept);
    }
    // Label memberships kept across queries are told apart by label.
    const rows: GraphReader = {
      ...kept,
      scanNodes: (l) => g.scanNodes(l),
      expand: (n, d, t) => g.expand(n, d, t),
      slotOf: (n) => g.slotOf(n),
    };
    for (const q of [
      // Path counts per end over the kept slot adjacency: its zeroed count array is reused by the next query.
      'MATCH (a:A)-[*1..2]->(b) WHERE b.c > 0 RETURN count(*) AS n',
      'MATCH (a:B)-[:R*1..3]-(b) WHERE EXISTS { (b)-->(:A) } RETURN count(b) AS n',
      'MATCH (n:A)-->(o:B) RETURN n.c AS c, o.c AS o',
      'MATCH (n:B)-->(o:A) WHERE n.c > 0 RETURN n.c AS c, o.c AS o',
      'MATCH (n:A) WHERE n.c > 0 OPTIONAL MATCH (n)--(o:A) RETURN n.c AS c, o.c AS o',
    ]) {
      same(g, q, rows);
    }
  }
});

test('an OPTIONAL MATCH read by counts right after a fixed hop counts each relationship with its far end k', () => {
  for (const seed of [47, 48]) {
    const g = randomGraph(seed);
    for (const q of [
      'MATCH (a:A)-->(b)-->(c) WHERE a.c > 600 OPTIONAL MATCH (c)<--(o:B) RETURN count(*) AS n, count(o) AS o',
      'MATCH (a:B) WHERE a.c > 600 MATCH (a)-[:R]-(b)-[x]-(c) OPTIONAL MATCH (c)-[y:S]->(o) RETURN count(c) AS n, count(y) AS y',
      'MATCH (a:A)<--(b) WHERE a.c > 700 OPTIONAL MATCH (b)--(o:A) RETURN count(b) AS n, count(o) AS o',
    ]) {
      same(g, q, g);
      same(g, q, rowByRow(g));
      // One relationship pattern is a columnar aggregation; longer ones count their last hop.
      const ops = operators(runCypher(g, `EXPLAIN ${q}`).plan!);
      assert.ok(ops.includes('ExpandCount') || ops.includes('ColumnarExpandAggregate'), q);
      assert.ok(!ops.includes('Aggregate'), q);
    }
  }
});

test('an OPTIONAL MATCH projected to properties of both ends over a column scan reads the columns, in row order', () => {
  for (const seed of [49, 50]) {
    const g = randomGraph(seed);
    for (let i = 0; i < 4; i++) g.createNode(['A'], { c: 900n + BigInt(i) });
    for (const q of [
      'MATCH (n:A) WHERE n.c > 500 OPTIONAL MATCH (n)<--(o:B) RETURN n.c AS c, o.c AS o',
      'MATCH (n:B) WHERE n.c < 100 OPTIONAL MATCH (n)-[:S]-(o) RETURN o.t AS t, n.k AS k, o.w AS w',
      'MATCH (n:A) WHERE n.c > 0 OPTIONAL MATCH (n)-->(o:A) RETURN n.c AS c, o.c AS o LIMIT 7',
      'MATCH (n) WHERE n.t = "gene" OPTIONAL MATCH (n)-[:Missing]->(o) RETURN n.c AS c, o.c AS o',
    ]) {
      if (!q.includes('LIMIT')) same(g, q, columnar(g));
      // The order (and a LIMIT's rows) of the row-by-row OptionalExpand.
      assert.deepEqual(runCypher(columnar(g), q).rows, runCypher(rowByRow(g), q).rows, q);
      assert.ok(operators(runCypher(g, `EXPLAIN ${q}`).plan!).includes('OptionalColumnScan'), q);
    }
    // The relationship or the far node itself read: row by row.
    const q = 'MATCH (n:A) WHERE n.c > 500 OPTIONAL MATCH (n)<-[r]-(o:B) RETURN n.c AS c, r.w AS w';
    same(g, q, g);
    assert.ok(!operators(runCypher(g, `EXPLAIN ${q}`).plan!).includes('OptionalColumnScan'), q);
  }
});

// Thousands of matches: the slot pairs grow past their first arrays, and a LIMIT stops inside a chunk and across
// the blocks of nodes the pairs are made in.
test('an OPTIONAL MATCH over a column scan with thousands of matches gives the row-by-row rows, with and without LIMIT', () => {
  // Sizes around the pairs' first arrays (1,024), a LIMIT chunk (256) and a block of nodes (1,024).
  for (const [seed, size, maxDegree] of [
    [53, 3000, 5],
    [54, 700, 9],
    [55, 1100, 2],
  ] as const) {
    const r = seeded(seed);
    const g = new MemoryGraph();
    const bs = Array.from({ length: 40 }, (_, i) => g.createNode(['B'], { c: BigInt(i) }));
    for (let i = 0; i < size; i++) {
      const a = g.createNode(['A'], { c: BigInt(i) });
      const degree = Math.floor(r() * maxDegree);
      for (let d = 0; d < degree; d++) g.createRelationship('R', bs[Math.floor(r() * bs.length)]!, a, {});
    }
    checkOptionalPairs(g);
  }
});

function checkOptionalPairs(g: MemoryGraph) {
  // The far end with a label (its adjacency narrowed to it) and without.
  for (const [far, tail] of ['(o:B)', '(o)'].flatMap((f) =>
    ['', ' LIMIT 300', ' LIMIT 1500', ' LIMIT 7000'].map((t) => [f, t] as const),
  )) {
    const q = `MATCH (n:A) WHERE n.c >= 10 OPTIONAL MATCH (n)<--${far} RETURN n.c AS c, o.c AS o${tail}`;
    const expected = runCypher(rowByRow(g), q).rows;
    // By the graph's kept adjacency arrays (with slots: the pairs' own loop, run first so that it grows the
    // pairs' arrays), and by its adjacency per node.
    assert.deepEqual(runCypher(slotsOnly(g), q).rows, expected, q);
    assert.deepEqual(runCypher(columnar(g), q).rows, expected, q);
    assert.ok(operators(runCypher(g, `EXPLAIN ${q}`).plan!).includes('OptionalColumnScan'), q);
  }
}

test('counts over filters and pattern predicates right above a fixed hop are counted per relationship', () => {
  for (const seed of [51, 52]) {
    const g = randomGraph(seed);
    for (const q of [
      'MATCH (a:A)-[:R]-(b)-->(c) WHERE c.c > 100 AND a.c < 300 RETURN count(*) AS n',
      'MATCH (a:B)-->(b)-->(c:A) WHERE EXISTS { (c)-->(:B) } RETURN count(*) AS n',
      'MATCH (a:A)-->(b)<--(c) WHERE a.c > 400 AND NOT (c)-[:S]->(:A) OPTIONAL MATCH (c)<--(o:B) RETURN count(*) AS n, count(o) AS o',
      // Not a test on the far slot alone: the operators run on each far end's row.
      'MATCH (a:A)-->(b)-->(c) WHERE c.c > a.c AND b.c > 0 RETURN count(*) AS n',
    ]) {
      same(g, q, g);
      same(g, q, rowByRow(g));
      const ops = operators(runCypher(g, `EXPLAIN ${q}`).plan!);
      assert.ok(ops.includes('ExpandCount') && !ops.includes('Aggregate'), q);
    }
    // The hop's relationship read above it: counted row by row.
    const q = 'MATCH (a:A)-->(b)-[r]->(c) WHERE r.w > 1 OR c.c > 0 RETURN count(*) AS n';
    same(g, q, g);
  }
});
