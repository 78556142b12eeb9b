import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CypherArithmeticError,
  CypherError,
  CypherLimitError,
  CypherSemanticError,
  type GraphReader,
  MemoryGraph,
  runCypher,
  type Value,
} from '../src/index.js';

const rows = (g: MemoryGraph, q: string, p?: Record<string, unknown>) => runCypher(g, q, p).rows;

test('null and ternary logic', () => {
  const g = new MemoryGraph();
  assert.deepEqual(rows(g, 'RETURN null = null AS a, null OR true AS b, null AND true AS c, 1 IN [null, 2] AS d'), [
    [null, true, null, null],
  ]);
  assert.deepEqual(rows(g, 'RETURN 1 = 1.0 AS a, [1, 2] < [1, 3] AS b, 1 < "a" AS c'), [[true, true, null]]);
});

test('aggregation groups by the other columns; an empty input still gives one row without keys', () => {
  const g = new MemoryGraph();
  rows(g, "UNWIND [['a', 1], ['a', 2], ['b', 5]] AS x CREATE (:P {g: x[0], v: x[1]})");
  assert.deepEqual(rows(g, 'MATCH (p:P) RETURN p.g AS g, sum(p.v) AS s, collect(p.v) AS c ORDER BY g'), [
    ['a', 3n, [1n, 2n]],
    ['b', 5n, [5n]],
  ]);
  assert.deepEqual(rows(g, 'MATCH (p:Nope) RETURN count(p) AS n, avg(p.v) AS a'), [[0n, null]]);
});

test('ORDER BY puts nulls last ascending; SKIP and LIMIT after it', () => {
  const g = new MemoryGraph();
  assert.deepEqual(rows(g, 'UNWIND [3, null, 1, 2] AS x RETURN x ORDER BY x SKIP 1 LIMIT 2'), [[2n], [3n]]);
  assert.deepEqual(rows(g, 'UNWIND [3, null, 1] AS x RETURN x ORDER BY x DESC'), [[null], [3n], [1n]]);
});

test('OPTIONAL MATCH, variable-length paths and path values', () => {
  const g = new MemoryGraph();
  rows(g, 'CREATE (a:N {k: 1})-[:T]->(b:N {k: 2})-[:T]->(c:N {k: 3})');
  assert.deepEqual(rows(g, 'MATCH (a:N {k: 1})-[:T*2]->(c) RETURN c.k'), [[3n]]);
  assert.deepEqual(rows(g, 'MATCH p = (:N {k: 1})-[:T*]->() RETURN length(p) AS l ORDER BY l'), [[1n], [2n]]);
  assert.deepEqual(rows(g, 'MATCH (c:N {k: 3}) OPTIONAL MATCH (c)-[:T]->(x) RETURN x'), [[null]]);
});

test('writes count their side effects; a relationship keeps its node from plain DELETE', () => {
  const g = new MemoryGraph();
  rows(g, 'CREATE (:A {x: 1})-[:R]->(:B)');
  assert.equal(g.takeStats().nodes_created, 2);
  assert.throws(() => rows(g, 'MATCH (a:A) DELETE a'), /DETACH/);
  rows(g, 'MATCH (a:A) DETACH DELETE a');
  const s = g.takeStats();
  assert.equal(s.nodes_deleted, 1);
  assert.equal(s.relationships_deleted, 1);
  rows(g, 'MERGE (b:B) ON MATCH SET b.seen = true');
  assert.deepEqual(rows(g, 'MATCH (b:B) RETURN b.seen'), [[true]]);
});

test('parameters, CASE, list comprehensions and UNION', () => {
  const g = new MemoryGraph();
  assert.deepEqual(
    rows(g, 'RETURN [x IN $xs WHERE x > 1 | x * 10] AS l, CASE $k WHEN 1 THEN "one" ELSE "other" END AS c', {
      xs: [1n, 2n, 3n],
      k: 1n,
    }),
    [[[20n, 30n], 'one']],
  );
  assert.deepEqual(rows(g, 'RETURN 1 AS x UNION RETURN 1 AS x'), [[1n]]);
  assert.deepEqual(rows(g, 'RETURN 1 AS x UNION ALL RETURN 1 AS x'), [[1n], [1n]]);
});

test('runtime errors are typed; a read-only graph refuses writes; budgets cut a query off', () => {
  const g = new MemoryGraph();
  assert.throws(() => rows(g, 'RETURN 1 / 0'), CypherArithmeticError);
  const readOnly: GraphReader = { scanNodes: () => g.scanNodes(), expand: (n, d, t) => g.expand(n, d, t) };
  assert.throws(() => runCypher(readOnly, 'CREATE (n)'), CypherSemanticError);
  assert.throws(() => runCypher(g, 'UNWIND range(1, 10) AS x RETURN x', {}, { maxRows: 5 }), CypherLimitError);
  assert.throws(
    () => runCypher(g, 'UNWIND range(1, 3000) AS a UNWIND range(1, 3000) AS b RETURN count(*)', {}, { timeoutMs: 1 }),
    (e: unknown) => e instanceof CypherLimitError && e.code === 'cypher_timeout',
  );
});

test('a WHERE equality on a node property is answered by the graph index instead of a scan', () => {
  const g = new MemoryGraph();
  rows(g, 'UNWIND range(1, 50) AS i CREATE (:N {k: i})-[:T]->(:M {k: i})');
  let scans = 0;
  let lookups = 0;
  const indexed: GraphReader = {
    scanNodes: (label) => {
      scans++;
      return g.scanNodes(label);
    },
    findNodes: (label, key, value) => {
      lookups++;
      return [...g.scanNodes(label)].filter((n) => n.properties[key] === value);
    },
    expand: (n, d, t) => g.expand(n, d, t),
  };
  const r = runCypher(indexed, 'MATCH (a:N)-[:T]->(b) WHERE $k = a.k AND b.k > 0 RETURN b.k AS k', { k: 7n });
  assert.deepEqual(r.rows, [[7n]]);
  assert.equal(scans, 0);
  assert.equal(lookups, 1);
  // Without an equality the planner scans.
  runCypher(indexed, 'MATCH (a:N) WHERE a.k > 48 RETURN a.k');
  assert.equal(scans, 1);
});

test('CALL runs a registered procedure; unknown procedures and wrong arguments are refused before running', () => {
  const g = new MemoryGraph();
  const procedures = new Map([
    [
      'demo.square',
      {
        inputs: [{ name: 'x', type: 'INTEGER?' }],
        outputs: [{ name: 'y', type: 'INTEGER?' }],
        *call([x]: Value[]) {
          yield [typeof x === 'bigint' ? x * x : null];
        },
      },
    ],
  ]);
  const run = (q: string, p: Record<string, unknown> = {}) => runCypher(g, q, p, { procedures });
  assert.deepEqual(run('UNWIND [2, 3] AS n CALL demo.square(n) YIELD y RETURN n, y').rows, [
    [2n, 4n],
    [3n, 9n],
  ]);
  assert.deepEqual(run('CALL demo.square', { x: 5n }).rows, [[25n]]);
  assert.throws(
    () => run('CALL demo.nothing()'),
    (e: unknown) => e instanceof CypherError && e.detail === 'ProcedureNotFound',
  );
  assert.throws(() => run('CALL demo.square(1, 2)'), /takes 1 arguments/);
  assert.throws(
    () => run("CALL demo.square('a')"),
    (e: unknown) => e instanceof CypherError && e.detail === 'InvalidArgumentType',
  );
});

test('EXISTS subqueries see the outer row and never write', () => {
  const g = new MemoryGraph();
  rows(g, 'CREATE (:A {k: 1})-[:T]->(:B {k: 1}), (:A {k: 2})-[:T]->(:B {k: 3}), (:A {k: 4})');
  assert.deepEqual(rows(g, 'MATCH (a:A) WHERE EXISTS { (a)-->(b) WHERE b.k = a.k } RETURN a.k'), [[1n]]);
  assert.deepEqual(rows(g, 'MATCH (a:A) WHERE EXISTS { MATCH (a)-->() RETURN true } RETURN a.k ORDER BY a.k'), [
    [1n],
    [2n],
  ]);
  assert.throws(() => rows(g, 'MATCH (a) WHERE EXISTS { MATCH (a)-->(b) SET b.x = 1 RETURN b } RETURN a'));
});
