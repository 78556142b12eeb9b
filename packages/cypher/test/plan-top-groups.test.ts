// ORDER BY … LIMIT over a ColumnarExpandAggregate (top-groups.ts): only the groups whose first sort key is at
// least the k-th best become rows. Compared with the interpreter where the order is total, and with the same
// columnar aggregation fully sorted (no LIMIT: a Sort, stable over the same groups) where ties decide the rows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type GraphReader, MemoryGraph, type RelationshipColumns, runCypher } from '../src/index.js';
import { kthSmallest } from '../src/plan/top-groups.js';
import { canon, operators, randomGraph, rowByRow, seeded } from './plan-graphs.js';

const relColumns = (g: MemoryGraph): GraphReader => ({
  scanNodes: () => {
    throw new Error('scanned rows');
  },
  expand: () => [],
  scanColumns: (l, k) => g.scanColumns(l, k),
  scanRelationshipColumns: (t, k) => g.scanRelationshipColumns(t, k),
  adjacent: (n, d, t) => g.adjacent(n, d, t),
  nodeAt: (s) => g.nodeAt(s),
});

function graph(seed: number): MemoryGraph {
  const g = randomGraph(seed);
  // Some relationship weights, some null: avg/max per group can be null.
  for (const r of [...g.relationships]) if (r.id % 4 !== 0) g.setProperty(r, 'w', (r.id % 13) / 4 - 1);
  // A string key of many values, some shared, some missing: many groups with tied counts.
  for (const n of [...g.nodes]) if (n.id % 11 !== 0) g.setProperty(n, 'name', `n${(n.id * 7) % 173}`);
  return g;
}

test('Top over a columnar aggregation gives the rows of the full order, ties at the boundary included', () => {
  const r = seeded(77);
  for (const seed of [31, 32, 33]) {
    const g = graph(seed);
    for (const body of [
      'MATCH (a:B)<-[r]-(b) RETURN a.name AS name, count(r) AS deg ORDER BY deg DESC, name',
      'MATCH (a)<-[r]-(b) RETURN a.name AS name, count(r) AS deg ORDER BY deg, name DESC',
      'MATCH (a)-[r]->(b) WITH a, b, r RETURN a.name AS name, count(*) AS deg ORDER BY deg DESC, name',
      'MATCH (a)-[r]-(b) RETURN a.name AS c, b.t AS t, count(*) AS n ORDER BY n DESC, c, t',
      'MATCH (a)-[r]->(b) RETURN a.name AS c, sum(r.w) AS s ORDER BY s DESC, c',
      'MATCH (a)-[r]->(b) RETURN a.name AS c, max(b.c) AS m ORDER BY m, c',
      'MATCH (a)-[r]->(b) RETURN a.name AS c, avg(r.w) AS m ORDER BY m DESC, c',
      // No tie-break: which tied groups are kept follows group order.
      'MATCH (a:A)-[r]->(b) RETURN a.name AS c, count(*) AS n ORDER BY n DESC',
      'MATCH (a)<-[r:R]-(b) RETURN a AS a, count(*) AS n ORDER BY n',
      'MATCH (a)-[r]->(b) RETURN a.t AS t, count(*) AS n ORDER BY t DESC, n',
    ]) {
      const full = runCypher(relColumns(g), body).rows;
      const total = !/ORDER BY \w+( DESC)?$/.test(body);
      const slowFull = total ? runCypher(rowByRow(g), body, {}, { planner: false }).rows : undefined;
      if (slowFull) assert.deepEqual(canon(full), canon(slowFull), body);
      for (let i = 0; i < 6; i++) {
        const skip = r() < 0.4 ? Math.floor(r() * 5) : 0;
        const limit = [0, 1, 2, 3, 5, 10, 40, 1000][Math.floor(r() * 8)]!;
        const q = `${body}${skip ? ` SKIP ${skip}` : ''} LIMIT ${limit}`;
        const fast = runCypher(relColumns(g), q);
        assert.deepEqual(fast.rows, full.slice(skip, skip + limit), `${q} (seed ${seed})`);
        if (slowFull) assert.deepEqual(fast.rows, slowFull.slice(skip, skip + limit), `${q} (seed ${seed})`);
        const ops = operators(runCypher(g, `EXPLAIN ${q}`).plan!);
        if (limit > 0) assert.ok(ops.includes('Top') && ops.includes('ColumnarExpandAggregate'), `${q}: ${ops}`);
      }
    }
  }
});

test('the profile of such a Top counts only the group rows built', () => {
  const g = graph(34);
  const q = 'MATCH (a)<-[r]-(b) RETURN a.name AS name, count(r) AS deg ORDER BY deg DESC, name LIMIT 3';
  const p = runCypher(relColumns(g), `PROFILE ${q}`).plan!;
  const find = (d: typeof p, name: string): typeof p | undefined =>
    d.operator === name ? d : d.children.map((c) => find(c, name)).find((x) => x);
  const groups = runCypher(relColumns(g), q.replace(' LIMIT 3', '')).rows.length;
  const built = find(p, 'ColumnarExpandAggregate')!.rows!;
  assert.ok(built >= 3 && built < groups / 4, `${built} of ${groups} groups built`);
});

test('kthSmallest is the k-th value of the sorted array', () => {
  const r = seeded(5);
  for (let t = 0; t < 200; t++) {
    const n = 1 + Math.floor(r() * 60);
    const a = Float64Array.from({ length: n }, () => Math.floor(r() * (t % 3 === 0 ? 3 : 50)) - 10);
    const sorted = [...a].sort((x, y) => x - y);
    const k = Math.floor(r() * n);
    assert.equal(kthSmallest(a.slice(), k), sorted[k], `${[...a]} k=${k}`);
  }
});

// Slot adjacency needs slotOf and relationship columns sharing their ends across the keys asked (as the KB's do).
function slotted(g: MemoryGraph): GraphReader {
  const ends = new Map<string, RelationshipColumns | undefined>();
  return {
    ...relColumns(g),
    slotOf: (n) => g.slotOf(n),
    scanRelationshipColumns(types, keys) {
      const at = types.join('\u0000');
      if (!ends.has(at)) ends.set(at, g.scanRelationshipColumns(types, []));
      const base = ends.get(at);
      const c = g.scanRelationshipColumns(types, keys);
      return c && base && { ...c, start: base.start, end: base.end };
    },
  };
}

// A rare label (C): its relationships are few, so the aggregation starts from its nodes' adjacency.
function rareLabelGraph(seed: number): MemoryGraph {
  const r = seeded(seed);
  const g = new MemoryGraph();
  for (let i = 0; i < 400; i++) {
    const x = r();
    const props: Record<string, unknown> = { t: ['gene', 'protein', 'disease'][Math.floor(r() * 3)] };
    if (r() < 0.9) props.name = `n${Math.floor(r() * 150)}`;
    if (r() < 0.85) props.c = BigInt(Math.floor(r() * 20));
    g.createNode(x < 0.08 ? ['C'] : x < 0.5 ? ['A'] : ['B', ...(x > 0.95 ? ['C'] : [])], props as never);
  }
  const nodes = [...g.nodes];
  for (let i = 0; i < 1500; i++) {
    const a = nodes[Math.floor(r() * nodes.length)]!;
    const b = r() < 0.03 ? a : nodes[Math.floor(r() * nodes.length)]!;
    const props = r() < 0.8 ? { w: Math.floor(r() * 8) / 4 } : {};
    g.createRelationship(r() < 0.6 ? 'R' : 'S', a, b, props as never);
  }
  return g;
}

test("an aggregation from a rare label walks its nodes' adjacency, with the row-by-row results", () => {
  for (const seed of [41, 42, 43]) {
    const g = rareLabelGraph(seed);
    for (const q of [
      'MATCH (a:C)<-[r]-(b) RETURN a.name AS name, count(r) AS deg ORDER BY deg DESC, name LIMIT 7',
      'MATCH (a:C)-[r]->(b) WHERE b.c > 8 RETURN b.t AS t, avg(r.w) AS w, count(*) AS n',
      'MATCH (a:C)-[r:R]-(b:A) WHERE r.w >= 1 RETURN b.name AS k, count(*) AS n, sum(r.w) AS s',
      'MATCH (b:A)-[r:S]->(a:C) RETURN a.t AS t, count(DISTINCT b) AS n',
      'MATCH (a:B:C)<-[r]-(b) RETURN type(r) AS t, count(*) AS n, max(b.c) AS m',
      'MATCH (a)-[r]->(b:C) WHERE a.c < 5 RETURN a.t AS t, count(*) AS n',
    ]) {
      const slow = runCypher(rowByRow(g), q, {}, { planner: false });
      const fast = runCypher(slotted(g), q);
      if (q.includes('ORDER BY')) assert.deepEqual(fast.rows, slow.rows, `${q} (seed ${seed})`);
      else assert.deepEqual(canon(fast.rows), canon(slow.rows), `${q} (seed ${seed})`);
      assert.ok(operators(runCypher(g, `EXPLAIN ${q}`).plan!).includes('ColumnarExpandAggregate'), q);
    }
  }
});
