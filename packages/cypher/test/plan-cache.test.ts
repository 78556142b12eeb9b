// The plan cache (src/plan-cache.ts): a text asked again runs the plan made the first time, with the rows an
// uncached run gives, until the graph's counts moved past the divergence threshold (then it is planned again:
// a label that grew past another moves the anchor); errors are never kept; the cache stays within its bounds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CypherSyntaxError,
  type GraphNode,
  type GraphReader,
  MemoryGraph,
  PlanCache,
  type PlanDescription,
  runCypher,
} from '../src/index.js';
import { canon, operators, randomGraph } from './plan-graphs.js';

/** What the plan starts at (the operator above the Argument at the bottom of its first inputs), as EXPLAIN says. */
const anchor = (p: PlanDescription): string => {
  const path = [p];
  while (path.at(-1)!.children.length > 0) path.push(path.at(-1)!.children[0]!);
  return (path.at(-1)!.operator === 'Argument' ? path.at(-2)! : path.at(-1)!).details;
};

const uncached = (g: GraphReader, q: string, params: Record<string, unknown>) => runCypher(g, q, params).rows;

test('a cached plan gives the uncached rows across graph changes, and is planned again when an anchor flips', () => {
  const g = new MemoryGraph();
  const as: GraphNode[] = [];
  const bs: GraphNode[] = [];
  for (let i = 0; i < 300; i++) as.push(g.createNode(['A'], { c: BigInt(i % 7) }));
  for (let i = 0; i < 5; i++) bs.push(g.createNode(['B'], { c: BigInt(i) }));
  for (let i = 0; i < 600; i++) g.createRelationship('R', as[i % 300]!, bs[i % 5]!, {});
  const q = 'MATCH (a:A)-[:R]->(b:B) WHERE a.c > $min RETURN a.c AS x, b.c AS y';
  const cache = new PlanCache();
  const cached = (params: Record<string, unknown>, mode?: 'explain') =>
    runCypher(g, q, params, { planCache: cache, mode });
  const same = (min: unknown) =>
    assert.deepEqual(canon(cached({ min }).rows), canon(uncached(g, q, { min })), `min ${String(min)}`);

  same(3n);
  same(5n);
  same(2.5); // another type of parameter: the same plan, the same rows as planned for it
  same('x');
  assert.deepEqual(cache.stats, { hits: 3, misses: 1, replans: 0 });
  assert.match(anchor(cached({}, 'explain').plan!), /\(b:B\)/, 'five Bs: the scan starts at B');

  // A few more Bs and relationships: counts within 2x, so the plan stays, and its rows are the new graph's.
  for (let i = 0; i < 2; i++) bs.push(g.createNode(['B'], { c: 9n }));
  for (let i = 0; i < 40; i++) g.createRelationship('R', as[i]!, bs[5 + (i % 2)]!, {});
  same(3n);
  assert.equal(cache.stats.replans, 0);

  // Bs grow past As: the count moved far past 2x, so the text is planned again and starts at A now, as an
  // uncached plan does; the rows are the uncached ones either way.
  for (let i = 0; i < 3000; i++) bs.push(g.createNode(['B'], { c: BigInt(i) }));
  for (let i = 0; i < 30; i++) g.createRelationship('R', as[i]!, bs[100 + i]!, {});
  same(3n);
  assert.equal(cache.stats.replans, 1);
  const fresh = runCypher(g, `EXPLAIN ${q}`).plan!;
  assert.match(anchor(fresh), /\(a:A\)/);
  assert.equal(anchor(cached({}, 'explain').plan!), anchor(fresh));
  same(0n);
  assert.equal(cache.stats.replans, 1, 'planned again once, then kept');
});

test('under an unchanged graph version the counts are not read again; a new version reads them', () => {
  const g = randomGraph(7);
  let reads = 0;
  const counted: GraphReader = {
    scanNodes: (l) => g.scanNodes(l),
    expand: (n, d, t) => g.expand(n, d, t),
    countNodes: (l) => {
      reads++;
      return g.countNodes(l);
    },
    countRelationships: (t) => {
      reads++;
      return g.countRelationships(t);
    },
  };
  const cache = new PlanCache();
  const q = 'MATCH (a:A)-[:R]->(b:B) RETURN count(*) AS n';
  const expected = uncached(g, q, {});
  reads = 0;
  assert.deepEqual(runCypher(counted, q, {}, { planCache: cache, graphVersion: 1 }).rows, expected);
  assert.ok(reads > 0, 'planned: counts read');
  reads = 0;
  assert.deepEqual(runCypher(counted, q, {}, { planCache: cache, graphVersion: 1 }).rows, expected);
  assert.equal(reads, 0, 'same version: nothing read to plan');
  assert.deepEqual(runCypher(counted, q, {}, { planCache: cache, graphVersion: 2 }).rows, expected);
  assert.ok(reads > 0, 'new version: the counts are checked');
  assert.deepEqual(cache.stats, { hits: 2, misses: 1, replans: 0 });
});

test('random queries through the cache give the uncached rows, before and after writes', () => {
  const g = randomGraph(11);
  const cache = new PlanCache();
  const queries = [
    'MATCH (n) RETURN n.t AS t, count(*) AS c ORDER BY c DESC, t',
    'MATCH (n:A) WHERE n.c > $c RETURN n.t AS t, sum(n.c) AS s',
    'MATCH (a:A)-[r:R]->(b) WHERE b.k = true RETURN a.c AS x, b.c AS y ORDER BY x, y LIMIT 7',
    'MATCH (a:B)-[*1..2]->(b:A) RETURN count(b) AS n',
    'MATCH (a:A) OPTIONAL MATCH (a)-[:S]->(o:B) RETURN a.t AS t, count(o) AS n',
    'MATCH (a:A) WHERE EXISTS { (a)-[:R]->(:B) } RETURN count(*) AS n',
    'MATCH (a)-[r]->(b) WHERE a.c = $c RETURN type(r) AS t, count(*) AS n',
    'UNWIND [1, 2, 3] AS x RETURN x * $c AS y',
  ];
  const check = (round: string) => {
    for (const q of queries) {
      for (const c of [100n, 150.5]) {
        const got = runCypher(g, q, { c }, { planCache: cache }).rows;
        assert.deepEqual(canon(got), canon(uncached(g, q, { c })), `${q} (${round}, c ${c})`);
      }
    }
  };
  check('first');
  check('again');
  const nodes = [...g.nodes];
  for (let i = 0; i < 400; i++) g.createNode(['B'], { t: 'gene', k: true, c: BigInt(i) });
  for (let i = 0; i < 500; i++) g.createRelationship('S', nodes[i % nodes.length]!, nodes[(i * 7) % nodes.length]!, {});
  check('after writes');
  assert.ok(cache.stats.hits > cache.stats.misses, JSON.stringify(cache.stats));
});

test('syntax and semantic errors are reported every time, with line and column, and never kept', () => {
  const g = randomGraph(3);
  const cache = new PlanCache();
  const syntax = 'MATCH (n:A)\nRETURN n.c AS c ORDER BY';
  for (let i = 0; i < 2; i++) {
    assert.throws(
      () => runCypher(g, syntax, {}, { planCache: cache }),
      (e: unknown) => e instanceof CypherSyntaxError && e.position?.line === 2,
    );
    // A compile-time check after parsing (openCypher's VariableNotDefined is a SyntaxError).
    assert.throws(() => runCypher(g, 'MATCH (n) RETURN m', {}, { planCache: cache }), /variable m is not defined/);
    // An error in a prefixed text keeps the positions of the text as written.
    assert.throws(
      () => runCypher(g, 'PROFILE MATCH (n RETURN n', {}, { planCache: cache }),
      (e: unknown) => e instanceof CypherSyntaxError && e.position?.line === 1 && (e.position?.column ?? 0) > 16,
    );
  }
  assert.equal(cache.size, 0);
  // A missing parameter is a run-time error: the plan is kept, the error reported on each run without it.
  const q = 'MATCH (n:A) WHERE n.c > $c RETURN count(*) AS n';
  assert.throws(() => runCypher(g, q, {}, { planCache: cache }), /c/);
  assert.throws(() => runCypher(g, q, {}, { planCache: cache }), /c/);
  assert.deepEqual(runCypher(g, q, { c: 1n }, { planCache: cache }).rows, uncached(g, q, { c: 1n }));
});

test('EXPLAIN and PROFILE of a cached text: the plan, and rows per operator of that run only', () => {
  const g = randomGraph(5);
  const cache = new PlanCache();
  const q = 'MATCH (a:A)-[:R]->(b) WHERE a.k = true RETURN b.t AS t, count(*) AS n';
  const plain = runCypher(g, q, {}, { planCache: cache });
  const explain = runCypher(g, q, {}, { planCache: cache, mode: 'explain' });
  assert.equal(explain.rows.length, 0);
  assert.deepEqual(explain.columns, plain.columns);
  const p1 = runCypher(g, q, {}, { planCache: cache, mode: 'profile' });
  const p2 = runCypher(g, `PROFILE ${q}`, {}, { planCache: cache });
  assert.deepEqual(canon(p1.rows), canon(plain.rows));
  assert.deepEqual(canon(p2.rows), canon(plain.rows));
  // The same operators, and rows counted per run (not added up across runs of the kept plan).
  const rows = (d: PlanDescription): unknown[] => [d.rows, ...d.children.flatMap(rows)];
  assert.deepEqual(operators(p1.plan!), operators(explain.plan!));
  assert.deepEqual(rows(p1.plan!), rows(runCypher(g, `PROFILE ${q}`).plan!));
  assert.deepEqual(rows(p2.plan!), rows(p1.plan!));
  assert.equal(p1.plan!.rows, plain.rows.length);
});

test('the cache is bounded: least recently used out first, long texts not kept', () => {
  const g = randomGraph(2);
  const cache = new PlanCache({ maxEntries: 3, maxTextLength: 200 });
  const q = (i: number) => `MATCH (n:A) WHERE n.c > ${i} RETURN count(*) AS n`;
  for (let i = 0; i < 3; i++) runCypher(g, q(i), {}, { planCache: cache });
  runCypher(g, q(0), {}, { planCache: cache }); // 0 used last: 1 is the oldest
  for (let i = 3; i < 20; i++) {
    runCypher(g, q(i), {}, { planCache: cache });
    if (i === 3) {
      const before = cache.stats.hits;
      runCypher(g, q(0), {}, { planCache: cache });
      assert.equal(cache.stats.hits, before + 1, 'the recently used text stayed');
      runCypher(g, q(1), {}, { planCache: cache });
      assert.equal(cache.stats.hits, before + 1, 'the least recently used text went');
    }
    assert.ok(cache.size <= 3);
  }
  assert.equal(cache.size, 3);
  cache.clear();
  const long = `MATCH (n:A) WHERE n.c > 1 ${'AND n.c > 0 '.repeat(30)}RETURN count(*) AS n`;
  assert.deepEqual(runCypher(g, long, {}, { planCache: cache }).rows, uncached(g, long, {}));
  assert.equal(cache.size, 0);
});

test('a write query through the cache writes on every run; the planner off bypasses the cache', () => {
  const g = new MemoryGraph();
  const cache = new PlanCache();
  for (let i = 0; i < 3; i++) runCypher(g, 'CREATE (:W {i: $i})', { i: BigInt(i) }, { planCache: cache });
  assert.deepEqual(runCypher(g, 'MATCH (w:W) RETURN w.i AS i ORDER BY i').rows, [[0n], [1n], [2n]]);
  assert.equal(cache.stats.hits, 2);
  const off = runCypher(g, 'EXPLAIN MATCH (w:W) RETURN count(*) AS n', {}, { planCache: cache, planner: false });
  assert.equal(off.plan!.operator, 'Interpret');
  assert.equal(cache.size, 1);
});
