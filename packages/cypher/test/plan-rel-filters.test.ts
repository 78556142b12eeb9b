// A named relationship read only by comparisons of its properties right after its Expand goes by adjacency,
// the comparisons tested on the relationship columns; ORDER BY … LIMIT over an OPTIONAL MATCH whose rows the
// order does not read keeps the best input rows (with ties) before the OPTIONAL MATCH. Each against the
// interpreter's rows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryGraph, runCypher } from '../src/index.js';
import { canon, rowByRow, seeded } from './plan-graphs.js';

type Plan = NonNullable<ReturnType<typeof runCypher>['plan']>;
const all = (p: Plan): Plan[] => [p, ...p.children.flatMap(all)];

// Relationship properties of both numeric kinds, some missing (null compares to nothing), one a string.
function weightedGraph(seed: number): MemoryGraph {
  const r = seeded(seed);
  const g = new MemoryGraph();
  for (let i = 0; i < 200; i++) {
    const props: Record<string, unknown> = { name: `n${Math.floor(r() * 150)}` };
    if (r() < 0.9) props.c = BigInt(Math.floor(r() * 30));
    g.createNode(r() < 0.5 ? ['A'] : r() < 0.5 ? ['B'] : ['C'], props as never);
  }
  const nodes = [...g.nodes];
  for (let i = 0; i < 700; i++) {
    const a = nodes[Math.floor(r() * nodes.length)]!;
    const b = r() < 0.05 ? a : nodes[Math.floor(r() * nodes.length)]!;
    const props: Record<string, unknown> = {};
    if (r() < 0.9) props.w = r();
    if (r() < 0.8) props.n = BigInt(Math.floor(r() * 5));
    if (r() < 0.5) props.s = r() < 0.5 ? 'x' : 'y';
    g.createRelationship(r() < 0.7 ? 'R' : 'S', a, b, props as never);
  }
  return g;
}

const slow = (g: MemoryGraph, q: string, params = {}) => runCypher(rowByRow(g), q, params, { planner: false }).rows;

test('relationship comparisons right after an Expand are tested on its columns, with the row-by-row results', () => {
  for (const seed of [41, 42]) {
    const g = weightedGraph(seed);
    for (const q of [
      'MATCH (a:A)-[r]->(b) WHERE r.w > 0.6 RETURN b.c AS k, collect(a.name) AS ns',
      'MATCH (a:B)<-[r:R]-(b) WHERE r.n >= 2 AND b.c > 10 AND r.w < 0.9 RETURN a.name AS x, b.name AS y',
      'MATCH (a:C)-[r]-(b:A) WHERE r.n = 1.0 RETURN a.name AS x, b.c AS c',
      'MATCH (a:A)-[r]->(b:C) WHERE r.w <= $t RETURN a.name AS x, b.c AS c',
      // Not a number: the relationships are expanded row by row, with the same results.
      'MATCH (a:A)-[r]->(b) WHERE r.s = "x" RETURN b.name AS y',
      'MATCH (a:A)-[r]->(b) WHERE r.w > $s RETURN b.name AS y',
    ]) {
      const params = { t: 0.3, s: 'text' };
      const got = runCypher(g, q, params).rows;
      assert.deepEqual(canon(got), canon(slow(g, q, params)), `${q} (${seed})`);
      // By adjacency, or in a chain read over slots (chain-columns.ts), the comparison on r's columns either way.
      const ops = all(runCypher(g, `EXPLAIN ${q}`, params).plan!);
      const chain = ops.find((p) => p.operator === 'ChainProjection');
      if (chain) assert.match(chain.details, /\[r(:\w+)?\].* WHERE .*r\./, q);
      else
        assert.match(
          ops.find((p) => p.operator === 'Expand')?.details ?? '',
          /\[r(:\w+)?\].*by adjacency.* WHERE r\./,
          q,
        );
    }
    // Read elsewhere too: a relationship per row.
    for (const q of [
      'MATCH (a:A)-[r]->(b) WHERE r.w > 0.6 RETURN r.n AS n',
      'MATCH (a:A)-[r]->(b)-[s]->(c) WHERE r.w > 0.6 RETURN count(*) AS n',
    ]) {
      assert.deepEqual(canon(runCypher(g, q).rows), canon(slow(g, q)), `${q} (${seed})`);
      const expand = all(runCypher(g, `EXPLAIN ${q}`).plan!).find((p) => p.operator === 'Expand');
      assert.doesNotMatch(expand?.details ?? '', /\[r(:\w+)?\].*by adjacency/, q);
    }
  }
});

test('ORDER BY … LIMIT over an OPTIONAL MATCH keeps the best input rows and their ties before it', () => {
  for (const seed of [43, 44]) {
    const g = weightedGraph(seed);
    for (const [q, key] of [
      [
        'MATCH (a:A)<-[r]-(b) WHERE b.c > 5 OPTIONAL MATCH (b)<--(o:B) RETURN b.name AS name, a.c AS c, o.name AS o ORDER BY name DESC LIMIT 4',
        0,
      ],
      ['MATCH (a:B)-[r]->(b) OPTIONAL MATCH (b)-[:S]->(o) RETURN b.c AS c, o.name AS o ORDER BY c, a.name LIMIT 7', 0],
      ['MATCH (a:C)-->(b:A) OPTIONAL MATCH (a)--(o:C) RETURN a.name AS x, o.c AS oc ORDER BY x SKIP 3 LIMIT 5', 0],
      [
        'MATCH (a:A)-->(b) OPTIONAL MATCH (b)<--(o) WITH b, o ORDER BY b.c DESC LIMIT 6 RETURN b.name AS y, o.name AS o',
        0,
      ],
    ] as const) {
      const got = runCypher(g, q).rows;
      const want = slow(g, q);
      // Rows tied on the order's keys may be any of the tied ones: the keys in order, and each row one of the query's.
      assert.deepEqual(
        got.map((row) => row[key]),
        want.map((row) => row[key]),
        `${q} (${seed})`,
      );
      const unlimited = canon(slow(g, q.replace(/ SKIP \d+/, '').replace(/ LIMIT \d+/, '')));
      for (const row of canon(got)) assert.ok(unlimited.includes(row), `${q}: ${row}`);
      const ops = all(runCypher(g, `EXPLAIN ${q}`).plan!);
      assert.ok(
        ops.some((p) => p.operator === 'Top' && /WITH TIES/.test(p.details)),
        q,
      );
      // With every row in the limit, the whole result.
      const wide = q.replace(/LIMIT \d+/, 'LIMIT 100000');
      assert.deepEqual(canon(runCypher(g, wide).rows), canon(slow(g, wide)), wide);
    }
    // The order reads the OPTIONAL MATCH's variable: no Top below it.
    const q = 'MATCH (a:A)-->(b) OPTIONAL MATCH (b)-->(o) RETURN b.name AS y, o.name AS o ORDER BY o DESC LIMIT 3';
    assert.deepEqual(runCypher(g, q).rows, slow(g, q), q);
    assert.ok(!all(runCypher(g, `EXPLAIN ${q}`).plan!).some((p) => /WITH TIES/.test(p.details)), q);
  }
});
