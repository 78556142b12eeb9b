import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type GraphReader,
  MemoryGraph,
  type PlanDescription,
  type RangeBound,
  type RelationshipColumns,
  runCypher,
  type Value,
} from '../src/index.js';

// The in-memory graph with an ordered index on `name` (strings only), relationship columns that share their
// ends across the keys asked (as a columnar store's do, so the slot adjacency is over the same slots), and
// counters of what the planned query asked.
function indexed(g: MemoryGraph) {
  const asked = { expand: 0, ranges: [] as [RangeBound | undefined, RangeBound | undefined][], equal: [] as Value[] };
  const ends = new Map<string, RelationshipColumns | undefined>();
  const named = (label: string | undefined) =>
    [...g.scanNodes(label)].filter((n) => typeof n.properties.name === 'string');
  const reader: GraphReader = {
    scanNodes: (l) => g.scanNodes(l),
    expand: (n, d, t) => {
      asked.expand++;
      return g.expand(n, d, t);
    },
    countNodes: (l) => g.countNodes(l),
    countRelationships: (t) => g.countRelationships(t),
    countNodesWhere: (_l, key) => (key === 'name' ? 1 : undefined),
    findNodes(label, key, value) {
      if (key !== 'name') return undefined;
      asked.equal.push(value);
      return named(label).filter((n) => n.properties.name === value);
    },
    findNodesInRange(label, key, lower, upper) {
      if (key !== 'name') return undefined;
      asked.ranges.push([lower, upper]);
      const ok = (v: string, b: RangeBound | undefined, sign: 1 | -1) =>
        !b ||
        (typeof b.value === 'string' &&
          (b.inclusive
            ? sign * (v < b.value ? -1 : v > b.value ? 1 : 0) >= 0
            : sign * (v < b.value ? -1 : v > b.value ? 1 : 0) > 0));
      return named(label).filter(
        (n) => ok(n.properties.name as string, lower, 1) && ok(n.properties.name as string, upper, -1),
      );
    },
    slotOf: (n) => g.slotOf(n),
    nodeAt: (s) => g.nodeAt(s),
    scanColumns: (l, k) => g.scanColumns(l, k),
    scanRelationshipColumns(types, keys) {
      const at = types.join('\u0000');
      if (!ends.has(at)) ends.set(at, g.scanRelationshipColumns(types, []));
      const base = ends.get(at);
      const c = g.scanRelationshipColumns(types, keys);
      return c && base && { ...c, start: base.start, end: base.end };
    },
  };
  return { reader, asked };
}

/** `mixed`: a few names are INTEGERs (the in-memory graph then gives no `name` column: row by row). */
function graph(mixed = false): MemoryGraph {
  const g = new MemoryGraph();
  const nodes = Array.from({ length: 400 }, (_, i) =>
    g.createNode(i % 40 === 0 ? ['P', 'Q'] : [i % 2 === 0 ? 'P' : 'Q'], {
      // Nodes without a name, and a few whose name is not a string.
      ...(mixed && i % 97 === 5 ? { name: BigInt(i) } : i % 89 === 7 ? {} : { name: `n${i}` }),
      kind: `k${i % 5}`,
    }),
  );
  nodes.forEach((n, i) => {
    g.createRelationship('T', n, nodes[(i * 7 + 3) % 400]!, { w: (i % 10) / 10 });
    g.createRelationship('U', n, nodes[(i * 11) % 400]!, { w: (i % 4) / 4 });
    if (i % 40 === 0) g.createRelationship('T', n, n, { w: 0.9 });
  });
  return g;
}

const ops = (p: PlanDescription | undefined): string[] => (p ? [p.operator, ...p.children.flatMap(ops)] : []);

test('an aggregation over a relationship pattern from a selective index seek starts at the index, with the interpreter rows', () => {
  const g = graph();
  const queries = [
    "MATCH (a:P)-[r]->(b) WHERE a.name STARTS WITH 'n12' RETURN b.kind AS k, count(*) AS c ORDER BY k",
    "MATCH (a:P)<-[r:T]-(b) WHERE a.name STARTS WITH 'n12' AND r.w > 0.3 RETURN b.name AS k, count(*) AS c ORDER BY k",
    "MATCH (a:Q)-[r]-(b:P) WHERE a.name >= 'n36' AND a.name < 'n37' RETURN b.name AS k, count(*) AS c, avg(r.w) AS w ORDER BY k",
    "MATCH (a:P)-[r]-(b) WHERE a.name = 'n120' RETURN b.name AS k, count(*) AS c ORDER BY k",
    'MATCH (a:P)-[r:T]->(b) WHERE a.name = $name RETURN count(DISTINCT b) AS d, sum(r.w) AS s',
    "MATCH (a:P)-[r]-(b) WHERE a.name STARTS WITH 'n40' RETURN type(r) AS t, b.name AS k, count(*) AS c ORDER BY t, k",
  ];
  for (const q of queries) {
    const { reader, asked } = indexed(g);
    const params = { name: 'n122' };
    const planned = runCypher(reader, `PROFILE ${q}`, params);
    assert.ok(ops(planned.plan).includes('ColumnarExpandAggregate'), `${q}: ${ops(planned.plan).join(' ')}`);
    // No expansion row by row: the columns answered, from the index's nodes.
    assert.equal(asked.expand, 0, q);
    assert.ok(asked.ranges.length + asked.equal.length > 0, q);
    const interpreted = runCypher(indexed(g).reader, q, params, { planner: false });
    assert.deepEqual(planned.rows, interpreted.rows, q);
  }
});

test('a wide range, a null bound, a prefix without an upper end: the same rows as the interpreter', () => {
  const g = graph();
  const queries = [
    "MATCH (a:P)-[r]->(b) WHERE a.name STARTS WITH 'n' RETURN b.kind AS k, count(*) AS c ORDER BY k",
    'MATCH (a:P)-[r]->(b) WHERE a.name >= $none RETURN b.kind AS k, count(*) AS c ORDER BY k',
    "MATCH (a:P)-[r]->(b) WHERE a.name STARTS WITH 'n1\uffff' RETURN count(*) AS c",
    "MATCH (a)-[r:T]->(b) WHERE b.name STARTS WITH 'n12' AND a.name STARTS WITH 'n' RETURN a.kind AS k, count(*) AS c ORDER BY k",
    "MATCH (a:Q)-[r:U]->(b) WHERE a.name STARTS WITH 'n2' RETURN b.kind AS k, max(r.w) AS m, count(*) AS c ORDER BY k",
  ];
  for (const q of queries) {
    for (const h of [g, graph(true)]) {
      const planned = runCypher(indexed(h).reader, q, { none: null });
      const interpreted = runCypher(indexed(h).reader, q, { none: null }, { planner: false });
      assert.deepEqual(planned.rows, interpreted.rows, q);
    }
  }
  const empty = runCypher(indexed(g).reader, 'MATCH (a:P)-[r]->(b) WHERE a.name >= $none RETURN count(*) AS c', {
    none: null,
  });
  assert.deepEqual(empty.rows, [[0n]]);
});
