// Counts over a whole label with one pattern predicate or one OPTIONAL MATCH (label-totals.ts), read from totals
// kept with the per-slot degrees, and row-by-row pattern predicates and OPTIONAL MATCH counts reading those degrees: the interpreter's counts on a graph whose columns are kept across queries,
// for each direction, typed and untyped hops, labelled and unlabelled far ends, NOT EXISTS, self-loops; and a
// write that gives new arrays is seen by the next count.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type GraphReader, type MemoryGraph, runCypher } from '../src/index.js';
import type { NodeColumns, RelationshipColumns } from '../src/columns.js';
import { canon, randomGraph, rowByRow } from './plan-graphs.js';

/** The graph's node and relationship columns kept across queries (the same arrays until `write`). */
function kept(g: MemoryGraph) {
  let nodes = new Map<string, NodeColumns | undefined>();
  let rels = new Map<string, RelationshipColumns | undefined>();
  const view: GraphReader = {
    scanNodes: (l) => g.scanNodes(l),
    expand: (n, d, t) => g.expand(n, d, t),
    slotOf: (n) => g.slotOf(n),
    nodeAt: (s) => g.nodeAt(s),
    adjacent: (n, d, t) => g.adjacent(n, d, t),
    countNodes: (l) => g.countNodes(l),
    scanColumns: (l, keys) => {
      const k = `${l}\u0000${[...keys].sort().join('\u0000')}`;
      if (!nodes.has(k)) nodes.set(k, g.scanColumns(l, keys));
      return nodes.get(k);
    },
    scanRelationshipColumns: (types, keys) => {
      const k = `${[...types].sort().join('\u0000')}\u0001${[...keys].sort().join('\u0000')}`;
      if (!rels.has(k)) rels.set(k, g.scanRelationshipColumns(types, keys));
      return rels.get(k);
    },
  };
  const write = () => {
    nodes = new Map();
    rels = new Map();
  };
  return { view, write };
}

const QUERIES = [
  'MATCH (n:A) WHERE EXISTS { (n)-->(:B) } RETURN count(*) AS c',
  'MATCH (n:A) WHERE NOT EXISTS { (n)<-[:R]-(:A) } RETURN count(*) AS c, count(n) AS d',
  'MATCH (n:B) WHERE EXISTS { (n)--() } RETURN count(*) AS c',
  'MATCH (n:A) OPTIONAL MATCH (n)<--(o:B) RETURN count(*) AS c, count(o) AS k',
  'MATCH (n:B) OPTIONAL MATCH (n)-[:S]->(o) RETURN count(o) AS k, count(*) AS c',
  'MATCH (n:A) OPTIONAL MATCH (n)--(o:A) RETURN count(*) AS c, count(o) AS k',
  // Row by row, each node's answer read from the kept degrees once a query asked for the same hop before.
  'MATCH (a:A)-[:R]->(b) WHERE EXISTS { (b)-->(:B) } RETURN a.c AS ac, b.c AS bc',
  'MATCH (a:B)<--(b) WHERE NOT EXISTS { (b)<-[:S]-() } RETURN a.c AS ac, b.c AS bc',
  'MATCH (a:A {k: true})-->(b) OPTIONAL MATCH (b)<-[:S]-(o:A) RETURN b.c AS bc, count(o) AS k',
];

test('whole-label counts with a pattern predicate or an OPTIONAL MATCH equal the interpreter counts', () => {
  for (const seed of [1, 2, 3]) {
    const g = randomGraph(seed);
    const { view } = kept(g);
    for (const q of QUERIES) {
      const slow = canon(runCypher(rowByRow(g), q, {}, { planner: false }).rows);
      for (let t = 0; t < 3; t++) assert.deepEqual(canon(runCypher(view, q).rows), slow, q);
    }
  }
});

test('a write that gives new arrays is seen by the next whole-label count', () => {
  const g = randomGraph(4);
  const k = kept(g);
  const a = g.createNode(['A'], {} as never);
  for (const q of QUERIES) runCypher(k.view, q);
  for (const n of [...g.nodes].slice(0, 40)) g.createRelationship('R', n, a, {});
  g.createRelationship('S', a, a, {});
  k.write();
  for (const q of QUERIES) {
    assert.deepEqual(
      canon(runCypher(k.view, q).rows),
      canon(runCypher(rowByRow(g), q, {}, { planner: false }).rows),
      q,
    );
  }
});
