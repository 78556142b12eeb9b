// A variable-length expansion with more hops in the same MATCH (`(a)-[*1..2]->(b)-[:T]->(c)`), planned over
// relationship slots (plan/slot-groups.ts): relationship uniqueness across the whole pattern as a test on slots,
// no relationship object or list built. Random patterns on small random memory graphs (self-loops, parallel
// relationships, nodes without relationships) are compared with the interpreter, and must run on a graph that
// gives no relationship objects.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type GraphReader, MemoryGraph, runCypher } from '../src/index.js';
import { canon, rowByRow, seeded, sortLists } from './plan-graphs.js';

// Relationship columns, node slots and adjacency only: a query that works here built no relationship object.
const slotted = (g: MemoryGraph): GraphReader => ({
  adjacent: (n, d, t) => g.adjacent(n, d, t),
  scanNodes: (l) => g.scanNodes(l),
  expand: () => {
    throw new Error('expanded rows');
  },
  scanRelationshipColumns: (t, k) => g.scanRelationshipColumns(t, k),
  slotOf: (n) => g.slotOf(n),
  nodeAt: (s) => g.nodeAt(s),
  // Labels as node slots (tested before an end's row is built).
  scanColumns: (l, k) => g.scanColumns(l, k),
  // A pattern may start at a rare relationship type, read from the columns.
  countRelationships: (t) => g.countRelationships(t),
  countNodes: (l) => g.countNodes(l),
  scanRelationships: () => {
    throw new Error('scanned relationships');
  },
});

function smallRandom(seed: number): MemoryGraph {
  const r = seeded(seed);
  const g = new MemoryGraph();
  const size = 4 + Math.floor(r() * 5);
  const nodes = Array.from({ length: size }, (_, i) =>
    g.createNode(r() < 0.5 ? ['A'] : ['B'], { i: BigInt(i), c: BigInt(Math.floor(r() * 10)) }),
  );
  const rels = size + Math.floor(r() * size * 1.5);
  for (let k = 0; k < rels; k++) {
    const a = nodes[Math.floor(r() * (size - 1))]!; // the last node may have no relationships
    const b = r() < 0.1 ? a : nodes[Math.floor(r() * size)]!;
    const type = ['R', 'S', 'T'][Math.floor(r() * 3)]!;
    g.createRelationship(type, a, b, {});
    // Parallel relationships, of the same type or another.
    if (r() < 0.15) g.createRelationship(r() < 0.5 ? type : 'R', a, b, {});
  }
  return g;
}

function randomPattern(r: () => number): { pattern: string; last: string } {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const hops = 2 + Math.floor(r() * 2);
  const varAt = Math.floor(r() * hops);
  let pattern = `(n0${r() < 0.3 ? pick([':A', ':B']) : ''})`;
  for (let i = 0; i < hops; i++) {
    const types = pick(['', '', ':R', ':S|T', ':T']);
    const named = r() < 0.3 && i !== varAt ? `r${i}` : '';
    const range = i === varAt || r() < 0.2 ? pick(['*1..2', '*0..2', '*2..3', '*1..3', '*1..1', '*0..1']) : '';
    const inner = `${named}${types}${range}`;
    const body = inner ? `[${inner}]` : '';
    const dir = pick(['out', 'in', 'both'] as const);
    pattern += dir === 'out' ? `-${body}->` : dir === 'in' ? `<-${body}-` : `-${body}-`;
    pattern += `(n${i + 1}${r() < 0.25 ? pick([':A', ':B']) : ''})`;
  }
  return { pattern, last: `n${hops}` };
}

function same(g: GraphReader, slow: GraphReader, q: string) {
  const want = runCypher(slow, q, {}, { planner: false });
  const got = runCypher(g, q);
  assert.deepEqual(canon(got.rows.map(sortLists)), canon(want.rows.map(sortLists)), q);
}

test('variable-length paths with more hops match the interpreter over relationship slots', () => {
  const r = seeded(4040);
  for (let k = 0; k < 60; k++) {
    const g = smallRandom(100 + k);
    const { pattern, last } = randomPattern(r);
    const where = r() < 0.4 ? ` WHERE ${last}.c > 3` : '';
    for (const ret of [
      'RETURN count(*) AS n',
      `RETURN count(${last}) AS n, collect(${last}.i) AS xs`,
      `RETURN DISTINCT n0.i AS a, ${last}.i AS b`,
      `RETURN n0.i AS a, ${last}.i AS b`,
      `OPTIONAL MATCH (${last})-[:R]->(o) RETURN count(*) AS n, count(o) AS o`,
    ]) {
      const q = `MATCH ${pattern}${where} ${ret}`;
      same(slotted(g), rowByRow(g), q);
      // The same plan on a graph without slots: its walks fall back to relationships.
      same(rowByRow(g), rowByRow(g), q);
    }
  }
});

test('uniqueness across the pattern: a hop never reuses a relationship of the path before it', () => {
  // a -R-> b twice (parallel), b -R-> a, a self-loop at b: every exclusion case on two nodes.
  const g = new MemoryGraph();
  const a = g.createNode(['A'], { i: 0n });
  const b = g.createNode(['B'], { i: 1n });
  g.createRelationship('R', a, b, {});
  g.createRelationship('R', a, b, {});
  g.createRelationship('R', b, a, {});
  g.createRelationship('S', b, b, {});
  for (const q of [
    'MATCH (x:A)-[*1..2]-(y)-[:R]-(z) RETURN count(*) AS n',
    'MATCH (x:A)-[*1..3]->(y)-->(z)<--(w) RETURN count(*) AS n',
    'MATCH (x)-[*0..2]-(y)-[:S]-(z)-[*1..2]-(w) RETURN x.i AS x, w.i AS w',
    'MATCH (x)-[:R*1..2]->(y)-[*1..2]-(z) RETURN DISTINCT x.i AS x, z.i AS z',
    'MATCH (x)-[*]-(y)-[]-(z) RETURN count(*) AS n',
  ]) {
    same(slotted(g), rowByRow(g), q);
  }
});

test('a pattern started at a rare relationship type reads its slots from the columns', () => {
  for (let k = 0; k < 10; k++) {
    const g = smallRandom(300 + k);
    // Many R and S, one U: the pattern starts at U.
    const nodes = [...g.nodes];
    g.createRelationship('U', nodes[k % nodes.length]!, nodes[(k * 3) % nodes.length]!, {});
    for (const q of [
      'MATCH (a)-[*1..2]->(b)-[:U]->(c) RETURN count(*) AS n',
      'MATCH (a:A)-[*0..2]-(b)<-[u:U]-(c) RETURN a.i AS a, c.i AS c',
      'MATCH (a)-[:U]-(b)-[*1..3]-(c:B) RETURN count(*) AS n, collect(c.i) AS cs',
      // A second pattern part kept apart from the first's path.
      'MATCH (a:A)-[*1..2]-(b), (c)-[:U]-(d) RETURN a.i AS a, b.i AS b, c.i AS c',
    ]) {
      same(slotted(g), rowByRow(g), q);
      same(g, rowByRow(g), q);
    }
  }
});

test('a hop whose relationship is read keeps the whole pattern on relationship objects', () => {
  const g = smallRandom(7);
  const q = 'MATCH (a)-[*1..2]->(b)-[r]->(c) RETURN type(r) AS t, count(*) AS n';
  same(g, rowByRow(g), q);
  assert.throws(() => runCypher(slotted(g), q), /expanded rows/);
});
