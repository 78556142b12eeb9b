// Chains of fixed hops from a scan read over slots and node columns (plan/chain-columns.ts): projections,
// aggregations and counts over them, compared with the clause-by-clause interpreter on random graphs with
// self-loops and parallel relationships (relationship uniqueness across the chain's hops), on a graph that can
// give only columns, slots and adjacency (so no relationship or row-by-row expansion was made).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type GraphReader, type MemoryGraph, runCypher } from '../src/index.js';
import { canon, operators, randomGraph, rowByRow, slotsOnly, sortLists } from './plan-graphs.js';

function graph(seed: number): MemoryGraph {
  const g = randomGraph(seed);
  // Nodes with two labels, so label tests on a chain's ends hold for more than one label.
  const some = [...g.nodes].slice(0, 40);
  for (const [i, n] of some.entries()) {
    const c = g.createNode(['A', 'C'], { t: 'drug', c: BigInt(i) });
    g.createRelationship(i % 2 ? 'R' : 'S', c, n, {});
    g.createRelationship('R', n, c, {});
    // A rare type (a pattern started at its relationships), with a self-loop.
    if (i % 4 === 0) g.createRelationship('RARE', n, i % 8 ? c : n, {});
  }
  return g;
}

// Relationship properties, for comparisons on a chain's relationships.
function weighted(seed: number): MemoryGraph {
  const g = graph(seed);
  const nodes = [...g.nodes];
  for (let i = 0; i < 400; i++) {
    const a = nodes[(i * 7) % nodes.length]!;
    const b = nodes[(i * 13 + 1) % nodes.length]!;
    g.createRelationship(i % 3 ? 'W' : 'R', a, b, { x: BigInt(i % 50), y: i % 4 === 0 ? 'low' : 'high' });
  }
  return g;
}

const WEIGHTED = [
  // Aggregations reading one chain relationship's columns (its type, its properties) beside two nodes'.
  'MATCH (a:A)-[r:W]->(b)-[s]->(c) WHERE s.x > 5 RETURN c.t AS t, avg(r.x) AS m, sum(r.x) AS s, count(*) AS n',
  'MATCH (a:B)-[r]->(b)-[s]->(c:A) RETURN type(s) AS t, a.k AS k, count(*) AS n, max(s.x) AS m, collect(s.y) AS ys',
  'MATCH (a:A)-[r:W]->(b)-[s:W]->(c) WHERE r.x > 20 AND s.y = "high" RETURN a.c AS a, c.c AS c',
  'MATCH (a)-[r]->(b)<-[s]-(c:B) WHERE r.x < 10 OPTIONAL MATCH (c)-->(o:A) RETURN b.t AS t, collect(c.c) AS cs, count(o) AS n ORDER BY t',
  'MATCH (a:B)-[r:W]-(b)-[s]->(c) WHERE r.x >= 25 AND r.y STARTS WITH "hi" RETURN count(*) AS n',
];

test('comparisons on the columns of a chain relationship give the row-by-row rows', () => {
  for (const seed of [46, 47]) {
    const g = weighted(seed);
    for (const q of WEIGHTED) {
      const slow = runCypher(rowByRow(g), q, {}, { planner: false });
      for (const rows of [runCypher(slotsOnly(g), q).rows, runCypher(rowByRow(g), q).rows]) {
        if (q.includes('ORDER BY')) assert.deepEqual(rows.map(sortLists), slow.rows.map(sortLists), `${q} (${seed})`);
        else assert.deepEqual(canon(rows), canon(slow.rows), `${q} (${seed})`);
      }
      const ops = operators(runCypher(g, `EXPLAIN ${q}`).plan!);
      assert.ok(ops.includes('ChainProjection'), q);
      if (q.includes('count(*) AS n,')) assert.ok(!ops.includes('Aggregate'), `${q}: ${ops}`);
      assert.ok(slow.rows.length > 0, q);
    }
  }
});

const QUERIES = [
  'MATCH (a:A)<-[r]-(b:B)-[s]->(c) RETURN c.t AS t, a.c AS x',
  'MATCH (a:A)<-[r]-(b:B)-[s]->(c) RETURN c.t AS t, a.c AS x ORDER BY t DESC, x LIMIT 9',
  'MATCH (a)-[r]-(b)-[s]-(c) RETURN a.c AS x, c.c AS y',
  'MATCH (a:A)-[:R]->(b)-[:R]->(c)-[:R]->(d) RETURN a.c AS x, d.w AS w',
  'MATCH (a:A)-->(b)<--(c) RETURN a, c',
  'MATCH (a:C)-[:S|R]-(b:A)-[:R]->(c:C) RETURN b.c AS b, c.t AS t',
  'MATCH (a:A)-[:R]->(b:B) WHERE a:C RETURN a.c AS x, b.k AS k',
  "MATCH (a:A)-[r]->(b)-[s]->(c) WHERE a.t = 'gene' AND a.c > 100 RETURN b.c AS b, c.c AS c",
  'MATCH (a:B)-[r]->(b)-[s]->(c) RETURN DISTINCT c.t AS t ORDER BY t',
  'MATCH (a:A)<-[r]-(b:B)-[s]->(c) RETURN c.t AS t, count(*) AS n, max(a.c) AS m, collect(b.k) AS ks',
  // collect over columns (each list in the walk's order: compared as multisets, as every collect here).
  'MATCH (a:A)<-[r]-(b:B)-[s]->(c) RETURN c.t AS t, collect(b.c) AS cs, collect(a.t) AS ts ORDER BY t',
  'MATCH (a:A)<-[r]-(b:B)-[s]->(c) RETURN count(*) AS n',
  'MATCH (a:A)<-[r]-(b:B)-[s]->(c) RETURN c.t AS t, count(*) AS n, sum(a.c) AS s, avg(a.w) AS w, min(c.c) AS m',
  'MATCH (a:A)-[:R]->(b)-[:R]->(c:B) RETURN c AS c, count(*) AS n, count(DISTINCT a) AS d, max(a.c) AS m',
  // min/max of FLOATs: over the chain's rows (the columns cannot order NaN and -0.0 as Cypher does).
  'MATCH (a:A)-[:R]->(b)-[:R]->(c:B) RETURN c.t AS t, count(*) AS n, max(a.w) AS w',
  'MATCH (a)-[r]-(b)-[s]-(c) RETURN count(*) AS n, count(c) AS m, sum(c.c) AS s',
  'MATCH (a)-[r]-(b)-[s]-(c) RETURN count(s) AS n, count(*) AS m',
  'MATCH (a:A)-[:R]->(b)-[:S]->(c) RETURN a.c + c.c AS sum, labels(c) AS l, c:A AS isA',
  'MATCH (a:A)-[:R]->(b)-[:S]->(c) WITH c.t AS t, a RETURN t, count(DISTINCT a) AS n ORDER BY n DESC, t LIMIT 3',
  'MATCH (a:Missing)-->(b)-->(c) RETURN c.c AS c',
  'MATCH (a:A)-[r:RARE]-(b)-[s]->(c) RETURN a.c AS a, b.c AS b, c.t AS t',
  // Comparisons and pattern predicates on the chain's nodes, and a WITH passing its variables on.
  'MATCH (a:A)-[r]-(b:B) WHERE b.c > 100 AND EXISTS { (b)-->(:A) } WITH a, b, r RETURN DISTINCT b.t AS t, a.c AS c ORDER BY t, c LIMIT 8',
  "MATCH (a:B)-[r:R]->(b)<-[s]-(c) WHERE b.t STARTS WITH 'pro' AND NOT EXISTS { (c)<-[:S]-(:B) } AND a.k = true RETURN a.c AS a, c.c AS c",
  'MATCH (a:A)-[r]->(b) WITH a, b MATCH (b)-[s]->(c:B) WHERE c.w < 3.5 RETURN a.c AS a, count(*) AS n, sum(c.c) AS s',
  // An OPTIONAL MATCH of one hop at the chain's end: its far end null where it finds nothing.
  'MATCH (a:C)<-[r]-(b) WHERE b.c > 100 OPTIONAL MATCH (b)<-[]-(o:A) WITH a, b, r, o RETURN b.c AS b, a.c AS c, o.t AS t ORDER BY b DESC, c, t LIMIT 9',
  'MATCH (a:B)-[r:S]->(b) OPTIONAL MATCH (b)-[:S]->(o:B) RETURN a.c AS a, o AS o, o.c AS oc',
  'MATCH (a:B)-[r:S]->(b) OPTIONAL MATCH (b)-[:S]->(o:B) RETURN a.t AS t, count(o) AS n, count(*) AS m, sum(o.c) AS s',
  // Read only by count(o): folded into the aggregation over columns as a multiplicity per match.
  'MATCH (a:A)<-[r]-(b:B)-[s]->(c) OPTIONAL MATCH (c)-->(o:A) RETURN b.t AS t, count(o) AS n, count(*) AS m, sum(b.c) AS s, collect(c.c) AS cs',
  "MATCH (a)-[:RARE]-(b)-[s]-(c) WHERE a.c >= 0 AND c.t <> 'gene' RETURN a.c AS a, c.c AS c",
  'MATCH (a)-[:RARE]->(b)<-[:R]-(c:B) RETURN count(*) AS n',
];

test('chains of fixed hops read over slots and columns give the row-by-row rows', () => {
  for (const seed of [41, 42, 43]) {
    const g = graph(seed);
    for (const q of QUERIES) {
      const slow = runCypher(rowByRow(g), q, {}, { planner: false });
      let got: ReturnType<typeof runCypher>;
      try {
        got = runCypher(slotsOnly(g), q);
      } catch (e) {
        throw new Error(`${q} (${seed}): ${(e as Error).message}`);
      }
      // Also planned on the graph itself, and on one without columns (the chain's row-by-row fallback).
      for (const rows of [got.rows, runCypher(g, q).rows, runCypher(rowByRow(g), q).rows]) {
        if (q.includes('ORDER BY')) assert.deepEqual(rows.map(sortLists), slow.rows.map(sortLists), `${q} (${seed})`);
        else assert.deepEqual(canon(rows.map(sortLists)), canon(slow.rows.map(sortLists)), `${q} (${seed})`);
      }
      const plan = runCypher(g, `EXPLAIN ${q}`).plan!;
      assert.ok(operators(plan).includes('ChainProjection'), q);
      // Aggregations of node properties of at most two chain nodes run over the columns, not row by row (with an
      // OPTIONAL MATCH's hop, over the chain's rows: count(o) counts only the matches).
      if (/(sum|avg)\(/.test(q) && !q.includes('OPTIONAL'))
        assert.ok(!operators(plan).includes('Aggregate'), `${q}: ${operators(plan)}`);
      if (!q.includes('Missing')) assert.ok(slow.rows.length > 0, q);
    }
  }
});

test('a chain keeps the row-by-row plan where a relationship or another variable is read', () => {
  const g = graph(44);
  for (const q of [
    'MATCH (a:A)-[r]->(b)-[s]->(c) RETURN type(r) AS t, c.c AS c',
    'MATCH (a:A)-[r]->(b)-[s]->(c) WHERE b.c > c.c RETURN c.c AS c',
    'MATCH (a:A)-[r*1..2]->(b)-[s]->(c) RETURN size(r) AS n, c.c AS c',
    'MATCH (a:A)-[r]->(b)-[s]->(a) RETURN a.c AS c',
  ]) {
    const slow = runCypher(rowByRow(g), q, {}, { planner: false });
    assert.deepEqual(canon(runCypher(g, q).rows), canon(slow.rows), q);
    assert.ok(!operators(runCypher(g, `EXPLAIN ${q}`).plan!).includes('ChainProjection'), q);
  }
});

test('a LIMIT over a chain stops its walk', () => {
  const g = graph(45);
  let built = 0;
  const counted: GraphReader = {
    ...slotsOnly(g),
    nodeAt: (s) => {
      built++;
      return g.nodeAt(s);
    },
  };
  const all = runCypher(g, 'MATCH (a)-[r]-(b)-[s]-(c) RETURN count(*) AS n').rows[0]![0] as bigint;
  assert.ok(all > 5_000n, `${all}`);
  // Nodes are built only for the rows made: a chunk's, not the whole walk's.
  const got = runCypher(counted, 'MATCH (a)-[r]-(b)-[s]-(c) RETURN a, c LIMIT 5');
  assert.equal(got.rows.length, 5);
  assert.ok(built <= 2 * 256, `${built} nodes built`);
});

test('a chain may start at a range seek, on a label or on every node, read as column comparisons', () => {
  const g = graph(48);
  let seeks = 0;
  // An ordered index on `c`: the planner starts at a range seek, which the chain reads as a column scan.
  const indexed: GraphReader = {
    ...slotsOnly(g),
    countNodes: (l) => g.countNodes(l),
    countNodesWhere: (_l, key) => (key === 'c' ? 2 : undefined),
    findNodesInRange(label, key, lower, upper) {
      seeks++;
      return [...g.scanNodes(label)].filter((n) => {
        const v = n.properties[key];
        if (typeof v !== 'bigint') return false;
        const lo = !lower || (lower.inclusive ? v >= (lower.value as bigint) : v > (lower.value as bigint));
        const hi = !upper || (upper.inclusive ? v <= (upper.value as bigint) : v < (upper.value as bigint));
        return lo && hi;
      });
    },
  };
  for (const q of [
    'MATCH (a:A)-[r]->(b) WHERE a.c > 500 AND a.c <= 700 RETURN b.t AS t, collect(b.c) AS cs',
    'MATCH (a:B)<-[r:R]-(b)-[s]-(c:A) WHERE a.c < 0 RETURN a.c AS a, c.c AS c',
    // No label on the seek's node (every node's index): its bounds over every node's columns.
    'MATCH (a)<-[r]-(b:A)<-[s]-(c:B) WHERE a.c >= 600 AND a.c < 650 RETURN c.t AS k, avg(b.w) AS w, count(*) AS n',
    'MATCH (a)-[r]-(b) WHERE a.c > 790 RETURN a.c AS a, b.c AS b',
  ]) {
    const slow = runCypher(rowByRow(g), q, {}, { planner: false });
    assert.deepEqual(canon(runCypher(indexed, q).rows.map(sortLists)), canon(slow.rows.map(sortLists)), q);
    const plan = runCypher(indexed, `EXPLAIN ${q}`).plan!;
    assert.ok(operators(plan).includes('ChainProjection'), `${q}: ${operators(plan)}`);
    assert.match(plan.children[0]!.details + (plan.children[0]!.children[0]?.details ?? ''), /a\.c [<>]/, q);
    assert.ok(slow.rows.length > 0, q);
  }
  // Planned as a seek, run over the label's columns from the nodes the index gives.
  assert.ok(seeks > 0);
});
