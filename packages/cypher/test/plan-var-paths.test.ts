// Variable-length expansion over node and relationship slots (plan/var-paths.ts): counts of paths without walking
// their last hop, and rows that bind only the end node, compared with the interpreter on random graphs with
// self-loops and parallel relationships, in every direction, with and without types, and from nodes with no
// relationships.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type GraphReader, MemoryGraph, runCypher } from '../src/index.js';
import { canon, operators, randomGraph, rowByRow } from './plan-graphs.js';

// Relationship columns and slots only for expansions: a query that works here built no relationship object.
const slotted = (g: MemoryGraph): GraphReader => ({
  scanNodes: (l) => g.scanNodes(l),
  expand: () => {
    throw new Error('expanded rows');
  },
  scanRelationshipColumns: (t, k) => g.scanRelationshipColumns(t, k),
  slotOf: (n) => g.slotOf(n),
  nodeAt: (s) => g.nodeAt(s),
});

function same(g: GraphReader, slow: GraphReader, q: string) {
  const want = runCypher(slow, q, {}, { planner: false });
  const got = runCypher(g, q);
  if (q.includes('ORDER BY')) assert.deepEqual(got.rows, want.rows, q);
  else assert.deepEqual(canon(got.rows), canon(want.rows), q);
  return got;
}

// A small graph where unbounded paths stay few: a chain with a self-loop, a parallel pair, a 2-cycle and a node
// with no relationships.
function small(): MemoryGraph {
  const g = new MemoryGraph();
  const n = Array.from({ length: 6 }, (_, i) => g.createNode([i % 2 === 0 ? 'A' : 'B'], { i: BigInt(i) }));
  const rel = (t: string, a: number, b: number) => g.createRelationship(t, n[a]!, n[b]!, {});
  rel('R', 0, 1);
  rel('R', 1, 2);
  rel('R', 1, 2);
  rel('S', 2, 2);
  rel('R', 2, 3);
  rel('S', 3, 2);
  rel('R', 3, 4);
  return g;
}

test('counts of variable-length paths over slots match the interpreter', () => {
  const shapes = [
    '-[*1..3]->',
    '<-[*1..3]-',
    '-[*1..3]-',
    '-[:R*1..3]->',
    '-[:S|R*2..3]-',
    '-[*0..2]->',
    '-[*0..0]-',
    '-[*2..2]-',
    '-[*3..2]->',
    '-[:R*1..1]->',
  ];
  for (const seed of [41]) {
    const g = randomGraph(seed);
    for (const p of shapes) {
      for (const q of [
        `MATCH (a:A)${p}(b) RETURN count(*) AS n`,
        `MATCH (a:A) WHERE a.c > 500 MATCH (a)${p}(b) RETURN count(b) AS n ORDER BY n DESC`,
      ]) {
        same(slotted(g), rowByRow(g), q);
        assert.ok(operators(runCypher(g, `EXPLAIN ${q}`).plan!).includes('ExpandCount'), q);
      }
    }
  }
  const g = small();
  for (const p of ['-[*]->', '-[*]-', '<-[:R*]-', '-[*2..]-', '-[*0..]->', '-[:S*]-']) {
    same(slotted(g), rowByRow(g), `MATCH (a)${p}(b) RETURN count(*) AS n`);
    same(slotted(g), rowByRow(g), `MATCH (a) OPTIONAL MATCH (a)${p}(b) RETURN a.i AS i, count(b) AS n`);
  }
});

test('a relationship bound earlier in the MATCH still excludes itself from the counted paths', () => {
  const g = small();
  for (const q of [
    'MATCH (x)-[r]->(a), (a)-[*1..3]-(b) RETURN count(*) AS n',
    'MATCH (x)-[r:R]->(a)-[*1..2]-(b) RETURN count(*) AS n',
  ]) {
    same(g, rowByRow(g), q);
  }
});

test('variable-length rows whose relationship list nothing reads bind only the end node, over slots', () => {
  const g = randomGraph(43);
  for (const q of [
    'MATCH (a:A)-[*1..2]->(b:B) WHERE a.c > 600 RETURN a.c AS a, b.c AS b',
    'MATCH (a:A)<-[:R*1..3]-(b) WHERE a.c > 700 RETURN a.c AS a, collect(b.c) AS bs',
    'MATCH (a:A)-[*0..2]-(b) WHERE a.c > 700 WITH a, b RETURN a.c AS a, b.c AS b ORDER BY a, b LIMIT 40',
    'MATCH (a:B)-[:S*2..2]-(b) WHERE a.c < -150 RETURN DISTINCT b.c AS b',
  ]) {
    same(slotted(g), rowByRow(g), q);
  }
  const s = small();
  for (const q of [
    'MATCH (a)-[*]-(b) RETURN a.i AS a, b.i AS b',
    'MATCH (a) OPTIONAL MATCH (a)-[:R*1..]->(b) RETURN a.i AS a, b.i AS b',
  ]) {
    same(slotted(s), rowByRow(s), q);
  }
});

test('a relationship list that is read, or a later hop whose relationship is read, walks relationships', () => {
  const g = small();
  for (const q of [
    'MATCH (a)-[rs*1..3]->(b) RETURN a.i AS a, size(rs) AS n',
    'MATCH p = (a)-[*1..3]-(b) RETURN length(p) AS n, b.i AS b',
    'MATCH (a)-[*1..2]->(b)-[r]->(c) RETURN a.i AS a, type(r) AS t',
  ]) {
    same(g, rowByRow(g), q);
    assert.throws(() => runCypher(slotted(g), q), /expanded rows/, q);
  }
});

test('counts over filters, pattern predicates and OPTIONAL MATCH above a variable-length path run once per end', () => {
  for (const g of [randomGraph(44), small()]) {
    for (const q of [
      'MATCH (a:A)-[*1..3]->(b) WHERE a.c > 600 AND b.c > 8 RETURN count(b) AS n',
      'MATCH (a:A)-[:R*0..2]-(b:B) WHERE a.c > 600 RETURN count(*) AS n',
      'MATCH (a:B)<-[*1..3]-(b) WHERE a.c > 600 AND EXISTS { (b)-->(:A) } RETURN count(b) AS n',
      'MATCH (a:B)-[*1..3]->(b) WHERE a.c > 600 AND NOT EXISTS { (b)-[:S]-() } RETURN count(*) AS n',
      // An OPTIONAL MATCH read by count(o): each row max(k, 1) times, a node with no such relationship once.
      'MATCH (a:A)-[*1..3]->(b) WHERE a.c > 600 OPTIONAL MATCH (b)<-[:S]-(o:B) RETURN count(b) AS n, count(o) AS o',
      'MATCH (a:A)-[*1..2]-(b) WHERE a.c > 600 OPTIONAL MATCH (b)-[x]->(o) RETURN count(*) AS n, count(x) AS x',
    ]) {
      same(g, rowByRow(g), q);
      assert.ok(operators(runCypher(g, `EXPLAIN ${q}`).plan!).includes('ExpandCount'), q);
    }
    // Not only counts, the list read, or a later hop kept apart from the path's relationships: rows as before.
    for (const q of [
      'MATCH (a:A)-[*1..2]->(b)-->(c:B) WHERE a.c > 600 RETURN count(c) AS n',
      'MATCH (a:A)-[*1..2]->(b) WHERE a.c > 600 AND b.c > 8 RETURN count(b) AS n, sum(b.c) AS s',
      'MATCH (a:A)-[rs*1..2]->(b) WHERE a.c > 600 AND b.c > 8 RETURN count(rs) AS n',
    ]) {
      same(g, rowByRow(g), q);
      assert.ok(!operators(runCypher(g, `EXPLAIN ${q}`).plan!).includes('ExpandCount'), q);
    }
  }
});

test('when every operator above the path is a test on the end node, counts build no end node', () => {
  const g = randomGraph(46);
  // Node columns, relationship columns and slots, but no node at a slot: a count that works built no end.
  const noEnds: GraphReader = {
    scanNodes: (l) => g.scanNodes(l),
    expand: () => {
      throw new Error('expanded rows');
    },
    scanColumns: (l, k) => g.scanColumns(l, k),
    scanRelationshipColumns: (t, k) => g.scanRelationshipColumns(t, k),
    slotOf: (n) => g.slotOf(n),
    nodeAt: () => {
      throw new Error('built an end node');
    },
  };
  for (const q of [
    'MATCH (a:A)-[*1..3]->(b) WHERE a.c > 600 AND b.c > 8 RETURN count(b) AS n',
    'MATCH (a:A)-[*1..3]-(b:B) WHERE a.c > 600 AND b.w <= 3.5 RETURN count(*) AS n',
    'MATCH (a:A)<-[:R*1..3]-(b) WHERE a.c > 600 AND NOT EXISTS { (b)-[:S]->(:A) } RETURN count(*) AS n',
    'MATCH (a:B)-[*0..2]->(b) WHERE a.c > 600 OPTIONAL MATCH (b)<-[x]-(o:B) RETURN count(b) AS n, count(x) AS o',
    'MATCH (a:B)-[*1..2]-(b:A) WHERE a.c > 600 AND b.k = true OPTIONAL MATCH (b)-[:R]-(o) RETURN count(*) AS n, count(o) AS o',
  ]) {
    same(noEnds, rowByRow(g), q);
  }
  // A filter that reads the start too runs on end rows.
  const q = 'MATCH (a:A)-[*1..2]->(b) WHERE a.c > 600 AND b.c > a.c RETURN count(*) AS n';
  same(g, rowByRow(g), q);
  assert.throws(() => runCypher(noEnds, q), /built an end node/);
});
