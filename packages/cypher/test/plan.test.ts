import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CypherLimitError, type GraphReader, MemoryGraph, type PlanDescription, runCypher } from '../src/index.js';
import { canon, columnsOnly, operators, randomGraph, rowByRow, sortLists } from './plan-graphs.js';

const QUERIES = [
  'MATCH (n) RETURN n.t AS t, count(*) AS n, avg(n.c) AS mean',
  'MATCH (n:A) RETURN n.t AS t, n.k AS k, count(n) AS n, sum(n.c) AS s, min(n.c) AS lo, max(n.c) AS hi',
  'MATCH (n:B) RETURN count(n.t) AS nt, sum(n.w) AS sw, avg(n.w) AS aw, count(n.w) AS cw',
  'MATCH (n:Missing) RETURN count(*) AS n, sum(n.c) AS s, avg(n.c) AS a, min(n.c) AS m',
  'MATCH (n:Missing) RETURN n.t AS t, count(*) AS n',
  'MATCH (n) RETURN n.k, n.t, count(*)',
  // The variants of issue 40: each is the same columnar aggregation with a cheap step after it.
  'MATCH (n) RETURN n.t AS t, count(*) AS c ORDER BY c DESC, t',
  'MATCH (n) WHERE n.c > 100 RETURN n.t AS t, count(*) AS c',
  'MATCH (n:A) WHERE 100 >= n.c AND n.t <> "gene" RETURN n.t AS t, sum(n.c) AS s',
  'MATCH (n) WHERE n.t = $t RETURN n.k AS k, count(*) AS c',
  'MATCH (n) WITH n.t AS t RETURN t, count(*) AS c',
  'MATCH (n) WITH n.t AS t, n.c AS x RETURN t, max(x) AS m ORDER BY m DESC LIMIT 2',
  'MATCH (n) RETURN n.t AS t, count(*) AS c ORDER BY c DESC LIMIT 2',
];

test('a columnar aggregation gives the row-by-row results, with no row scan', () => {
  for (const seed of [1, 2, 3]) {
    const g = randomGraph(seed);
    for (const q of QUERIES) {
      const slow = runCypher(rowByRow(g), q, { t: 'gene' }, { planner: false });
      const fast = runCypher(columnsOnly(g), q, { t: 'gene' });
      assert.deepEqual(fast.columns, slow.columns, q);
      if (q.includes('ORDER BY')) assert.deepEqual(fast.rows, slow.rows, `${q} (seed ${seed})`);
      else assert.deepEqual(canon(fast.rows), canon(slow.rows), `${q} (seed ${seed})`);
      const plan = runCypher(g, `EXPLAIN ${q}`).plan!;
      assert.ok(operators(plan).includes('ColumnarAggregate'), q);
    }
  }
});

test('a scan filtered on properties builds nodes only for the slots its column filters keep', () => {
  for (const seed of [12, 13]) {
    const g = randomGraph(seed);
    for (const q of [
      'MATCH (n:A) WHERE n.c > 100 RETURN n.c AS c, n.t AS t ORDER BY c DESC, t LIMIT 5',
      'MATCH (n) WHERE n.t = $t AND n.c <= 50 RETURN n.c AS c ORDER BY c',
      'MATCH (n:B) WHERE n.k = true AND n.w IS NOT NULL RETURN count(*) AS n, collect(n.c) AS cs',
    ]) {
      const fast = runCypher(columnsOnly(g), q, { t: 'gene' });
      const slow = runCypher(rowByRow(g), q, { t: 'gene' }, { planner: false });
      assert.deepEqual(canon(fast.rows), canon(slow.rows), `${q} (seed ${seed})`);
      assert.ok(operators(runCypher(g, `EXPLAIN ${q}`, { t: 'gene' }).plan!).includes('NodeColumnScan'), q);
    }
  }
});

test('queries the columns cannot answer run row by row, with the same results', () => {
  const g = randomGraph(4);
  g.createNode(['A'], { c: 1.5, l: [1n] });
  for (const q of [
    'MATCH (n:A) RETURN n.t AS t, sum(n.c) AS s', // c mixes INTEGER and FLOAT
    'MATCH (n) WHERE n.c > $s RETURN count(*) AS n', // a string against numbers: Cypher's comparison
    'MATCH (n) RETURN count(DISTINCT n.t) AS n',
    'MATCH (n) RETURN min(n.w) AS m', // FLOAT min keeps NaN ordering row by row
    'MATCH (n) WHERE n.t STARTS WITH "g" RETURN n.t AS t, count(*) AS c',
  ]) {
    assert.throws(() => runCypher(columnsOnly(g), q, { s: 'x' }), /scanned rows/, q);
    assert.deepEqual(
      canon(runCypher(g, q, { s: 'x' }).rows),
      canon(runCypher(rowByRow(g), q, { s: 'x' }, { planner: false }).rows),
      q,
    );
  }
});

test('counting expansions and variable-length paths without rows gives the row-by-row counts', () => {
  for (const seed of [5, 6]) {
    const g = randomGraph(seed);
    for (const q of [
      'MATCH (a:A {k: true})-[*1..3]->(b) RETURN count(b) AS n',
      'MATCH (a:A)-[:R*0..2]-(b) RETURN count(*) AS n, count(a) AS m',
      'MATCH (a {t: "gene"})<-[:S|R*2..3]-(b) RETURN count(b) AS n',
      'MATCH (a:Missing)-[*1..2]->(b) RETURN count(b) AS n',
      'MATCH (a:B)-[*3..1]->(b) RETURN count(b) AS n',
      'MATCH (a:A {k: false})-->()-[:R]-(c) RETURN count(c) AS n',
      'MATCH (a:B)-[r]->(b)<-[s]-(c) RETURN count(s) AS n',
      'MATCH (n:A) RETURN count(*) AS n',
    ]) {
      const fast = runCypher(g, q);
      const slow = runCypher(rowByRow(g), q, {}, { planner: false });
      assert.deepEqual(fast.rows, slow.rows, `${q} (seed ${seed})`);
      const ops = operators(runCypher(g, `EXPLAIN ${q}`).plan!);
      assert.ok(
        ['ExpandCount', 'NodeCount', 'ChainProjection'].some((o) => ops.includes(o)),
        `${q}: ${ops}`,
      );
      if (!q.includes('Missing') && !q.includes('3..1')) assert.ok((fast.rows[0]![0] as bigint) > 0n, q);
    }
  }
});

// Read queries of many shapes: the plan gives what the clause-by-clause interpreter gives.
const SHAPES = [
  'MATCH (a:A)-[r:R]->(b:B) WHERE a.c > 100 AND b.k RETURN a.c AS x, b.c AS y',
  'MATCH (a)-[:R]->(b)-[:S]->(c) WHERE a.t = c.t RETURN count(*) AS n, collect(DISTINCT c.t) AS ts',
  'MATCH (a:A)-->(b), (b)-->(c:B) RETURN a.c, c.c ORDER BY a.c, c.c LIMIT 7',
  'MATCH (a)-[r]-(a) RETURN count(r) AS loops',
  'MATCH (a:A) OPTIONAL MATCH (a)-[:S]->(b:B) RETURN a.c AS c, b.w AS w ORDER BY c, w SKIP 3 LIMIT 10',
  'MATCH (a:A) OPTIONAL MATCH (a)-[:S]->(b) WHERE b.c > 500 RETURN a.t AS t, count(b) AS n ORDER BY t',
  'MATCH (a:B) WITH a, a.c * 2 AS d WHERE d > 0 MATCH (a)-[:R]->(b) RETURN d, b.c ORDER BY d DESC, b.c LIMIT 5',
  'MATCH (a) WITH DISTINCT a.t AS t ORDER BY t RETURN t',
  'MATCH (a:A) RETURN DISTINCT a.k AS k, a.t AS t ORDER BY k, t',
  'UNWIND [1, 2, 3] AS i MATCH (a:A) WHERE a.c % 3 = i - 1 RETURN i, count(*) AS n ORDER BY i',
  'MATCH (a:A) WHERE (a)-[:S]->(:B) RETURN count(a) AS n',
  'MATCH (a:A) WHERE NOT EXISTS { MATCH (a)-->(:A) } RETURN count(*) AS n',
  'MATCH (a)-[:R*2]->(b) WHERE a.c < b.c RETURN a.c, b.c ORDER BY a.c, b.c LIMIT 5',
  'MATCH (a:A)-[rs:R*1..2]->(b) RETURN size(rs) AS hops, count(*) AS n ORDER BY hops',
  'MATCH (a:A) RETURN a.t AS t, count(*) AS n UNION MATCH (b:B) RETURN b.t AS t, count(*) AS n',
  'MATCH (a:A) RETURN a.k AS k UNION ALL MATCH (b:B) RETURN b.k AS k',
  'MATCH (a:A) WITH a ORDER BY a.c DESC LIMIT 3 RETURN a.c AS c',
  'MATCH (a:A {k: true}) RETURN a.c AS c ORDER BY c SKIP 2',
  'MATCH (a:A) WITH a.t AS t, count(*) AS n WHERE n > 10 RETURN t, n ORDER BY t',
  'MATCH (a:A) RETURN * ORDER BY a.c LIMIT 3',
  'MATCH (a) WHERE a:A OR a.c > 700 RETURN count(*) AS n',
  'MATCH p = (a:A)-[:R]->(b)<-[:S*0..2]-(c) WHERE length(p) > 2 RETURN [n IN nodes(p) | n.c] AS cs, length(p) AS l',
  'MATCH (a:B) WHERE NOT (a)-[:R]->() AND EXISTS { (a)<-[:S]-(x) WHERE x.k } RETURN a.c AS c',
  'MATCH (a:A) OPTIONAL MATCH p = (a)-[:S]->(b) RETURN a.c AS c, length(p) AS l',
  'MATCH (a:A)-->(b) RETURN a.t AS t, count(*) AS n ORDER BY count(*) DESC, t',
  'MATCH (a:A)-->(b) RETURN a.t AS t, count(*) AS n ORDER BY -count(*) + n * 2, t LIMIT 2',
  'MATCH (a:A)-[r:R]->(b) WITH r, b LIMIT 20 MATCH (x)-[r]->(y) RETURN x.c, y.c, b.c',
  'MATCH ()-[r]-() WITH r LIMIT 30 MATCH (x)-[r]-(y) RETURN count(*) AS n',
  // Checks pushed into a scan are not lost by the count and columnar rewrites.
  'MATCH (n:A {k: true}) RETURN count(*) AS n',
  'MATCH (n:A:B) RETURN n.t AS t, count(*) AS n',
  'MATCH (n {t: "gene"}) RETURN n.k AS k, count(*) AS n, sum(n.c) AS s',
];

test('planned read queries give the interpreter results', () => {
  for (const seed of [7, 8]) {
    const g = randomGraph(seed);
    for (const q of SHAPES) {
      const planned = runCypher(g, q);
      const interpreted = runCypher(g, q, {}, { planner: false });
      assert.deepEqual(planned.columns, interpreted.columns, q);
      // Compared as bags: ties under ORDER BY may come in another order when the pattern starts elsewhere, and
      // so may a collect()'s list when nothing orders the rows it collects.
      const bag = q.includes('ORDER BY') ? canon : (rows: unknown[][]) => canon(rows.map(sortLists));
      assert.deepEqual(bag(planned.rows), bag(interpreted.rows), q);
      assert.notEqual(runCypher(g, `EXPLAIN ${q}`).plan!.operator, 'Interpret', q);
    }
  }
});

test('Top keeps the rows a stable sort would, in its order, ties in input order', () => {
  const g = randomGraph(14);
  for (const q of [
    'MATCH (a:A) RETURN a.t AS t, a.c AS c ORDER BY t LIMIT 40',
    'MATCH (a:A) RETURN a.k AS k, a.c AS c ORDER BY k DESC, c SKIP 5 LIMIT 17',
    'MATCH (a) RETURN a.w AS w ORDER BY w LIMIT 1000',
  ]) {
    assert.ok(operators(runCypher(g, `EXPLAIN ${q}`).plan!).includes('Top'), q);
    assert.deepEqual(runCypher(g, q).rows, runCypher(g, q, {}, { planner: false }).rows, q);
  }
});

test('DISTINCT under ORDER BY … LIMIT is tested on the rows Top keeps, with the interpreter rows in order', () => {
  for (const seed of [15, 16]) {
    const g = randomGraph(seed);
    for (const q of [
      'MATCH (a:A)-->(b) RETURN DISTINCT b.t AS t, a.k AS k ORDER BY t LIMIT 4',
      'MATCH (a)-->(b)<--(c) RETURN DISTINCT c.k AS k, b.t AS t ORDER BY k DESC, t SKIP 1 LIMIT 3',
      'MATCH (a:B)--(b) WHERE EXISTS { (b)-->(:A) } RETURN DISTINCT b.c AS c ORDER BY c LIMIT 25',
      'MATCH (a)-->(b) RETURN DISTINCT [b.k, a.t] AS l ORDER BY l LIMIT 7',
    ]) {
      const plan = runCypher(g, `EXPLAIN ${q}`).plan!;
      assert.ok(operators(plan).includes('Top') && !operators(plan).includes('Distinct'), q);
      assert.deepEqual(runCypher(g, q).rows, runCypher(g, q, {}, { planner: false }).rows, q);
    }
    // An order reading more than the distinct columns keeps its Distinct.
    const q = 'MATCH (a:A)-->(b) WITH DISTINCT b.t AS t, a ORDER BY a.c LIMIT 5 RETURN t';
    assert.deepEqual(runCypher(g, q).rows, runCypher(g, q, {}, { planner: false }).rows, q);
  }
});

test('EXPLAIN plans without running; PROFILE runs and counts rows per operator', () => {
  const g = randomGraph(9);
  const explained = runCypher(columnsOnly(g), 'EXPLAIN MATCH (a:A)-[:R]->(b) RETURN b.c AS c ORDER BY c LIMIT 3');
  assert.deepEqual(explained.rows, []);
  assert.deepEqual(explained.columns, ['c']);
  // The hop's rows are read from the columns: a chain from the scan, walked over slots (chain-columns.ts).
  assert.deepEqual(operators(explained.plan!), ['ProduceResults', 'Top', 'ChainProjection']);
  assert.equal(explained.plan!.rows, undefined);

  const profiled = runCypher(g, 'PROFILE MATCH (a:A)-[:R]->(b) RETURN b.c AS c ORDER BY c LIMIT 3');
  const plain = runCypher(g, 'MATCH (a:A)-[:R]->(b) RETURN b.c AS c ORDER BY c LIMIT 3');
  assert.deepEqual(profiled.rows, plain.rows);
  assert.equal(profiled.plan!.rows, 3);
  const chain = profiled.plan!.children[0]!.children[0]!;
  assert.equal(chain.operator, 'ChainProjection');
  // The walk passes Top only the matches among the 3 best (chain-top.ts); every match without that.
  assert.equal(chain.rows, 3);
  assert.ok(typeof chain.time_ms === 'number' && chain.time_ms >= 0);
  process.env.EVIDENT_CYPHER_TOP_CHAIN = '0';
  try {
    const every = runCypher(g, 'PROFILE MATCH (a:A)-[:R]->(b) RETURN b.c AS c ORDER BY c LIMIT 3');
    const matches = runCypher(g, 'MATCH (a:A)-[:R]->(b) RETURN count(*) AS n').rows[0]![0];
    assert.equal(BigInt(every.plan!.children[0]!.children[0]!.rows!), matches);
    assert.deepEqual(every.rows, plain.rows);
  } finally {
    delete process.env.EVIDENT_CYPHER_TOP_CHAIN;
  }

  // A query not planned (every read is planned now: the planner is turned off) says so, and still runs.
  const interpreted = runCypher(
    g,
    'PROFILE MATCH ()-[r*1..2]->() MATCH ()-[r*1..2]->() RETURN count(*) AS n',
    {},
    {
      planner: false,
    },
  );
  assert.equal(interpreted.plan!.operator, 'Interpret');
  assert.equal(interpreted.rows.length, 1);
  assert.equal(interpreted.plan!.rows, 1);
  // Positions in errors are those of the text as written.
  assert.throws(() => runCypher(g, 'EXPLAIN MATCH (a) RETURN b'), /UndefinedVariable|not defined/);
  assert.throws(
    () => runCypher(g, 'PROFILE\nMATCH (a) RETRUN a'),
    (e: Error & { position?: { line: number } }) => e.position?.line === 2,
  );
});

test('the mode option runs as EXPLAIN / PROFILE without a prefix; errors keep the positions of the text given', () => {
  const g = randomGraph(9);
  const q = 'MATCH (a:A)-[:R]->(b) RETURN b.c AS c ORDER BY c LIMIT 3';
  const explained = runCypher(g, q, {}, { mode: 'explain' });
  assert.deepEqual(explained.rows, []);
  assert.deepEqual(operators(explained.plan!), operators(runCypher(g, `EXPLAIN ${q}`).plan!));
  const profiled = runCypher(g, q, {}, { mode: 'profile' });
  assert.deepEqual(profiled.rows, runCypher(g, q).rows);
  assert.equal(profiled.plan!.rows, profiled.rows.length);
  // A prefix in the text, as the user wrote it, wins over the option.
  assert.deepEqual(runCypher(g, `EXPLAIN ${q}`, {}, { mode: 'profile' }).rows, []);
  const position = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return (e as { position?: unknown }).position;
    }
    assert.fail('no error');
  };
  const bad = 'MATCH (a) RETRUN a';
  const plain = position(() => runCypher(g, bad));
  assert.ok(plain);
  assert.deepEqual(
    position(() => runCypher(g, bad, {}, { mode: 'profile' })),
    plain,
  );
  assert.deepEqual(
    position(() => runCypher(g, bad, {}, { mode: 'explain' })),
    plain,
  );
});

test('the anchor is the node with the fewest estimated rows; an indexed equality is a seek', () => {
  const g = randomGraph(10);
  for (let i = 0; i < 3; i++) g.createNode(['Rare'], { c: BigInt(i) });
  const leaf = (d: PlanDescription): PlanDescription => (d.children.length === 0 ? d : leaf(d.children[0]!));
  const scanOf = (d: PlanDescription): PlanDescription => {
    const path = [d];
    while (path[path.length - 1]!.children.length > 0) path.push(path[path.length - 1]!.children[0]!);
    return path[path.length - 2]!;
  };
  const plan = runCypher(g, 'EXPLAIN MATCH (a:A)-[:R]->(b:Rare) RETURN a, b').plan!;
  // Read as a chain from its anchor (chain-columns.ts), the anchor first in its details.
  assert.equal(leaf(plan).operator, 'ChainProjection');
  assert.match(leaf(plan).details, /^\(b:Rare\) /);
  const rowWise = runCypher(g, 'EXPLAIN MATCH (a:A)-[:R]->(b:Rare) RETURN a, b, 1 IN [x IN [1] | x] AS k').plan!;
  assert.equal(leaf(rowWise).operator, 'Argument');
  assert.equal(scanOf(rowWise).details, '(b:Rare)');

  const indexed: GraphReader = {
    scanNodes: (l) => g.scanNodes(l),
    expand: (n, d, t) => g.expand(n, d, t),
    countNodes: (l) => g.countNodes(l),
    findNodes: (l, k, v) => (k === 'c' ? [...g.scanNodes(l)].filter((n) => n.properties.c === v) : undefined),
    countNodesWhere: (_l, k) => (k === 'c' ? 1 : undefined),
  };
  const seek = runCypher(indexed, 'EXPLAIN MATCH (a:A)-[:R]->(b:B) WHERE b.c = $c RETURN a.c').plan!;
  assert.equal(scanOf(seek).operator, 'NodeIndexSeek');
  const q = 'MATCH (a:A)-[:R]->(b:B) WHERE b.c = $c RETURN a.c';
  for (const c of [1n, 50n, 300n]) {
    assert.deepEqual(canon(runCypher(indexed, q, { c }).rows), canon(runCypher(g, q, { c }, { planner: false }).rows));
  }
});

test('from an anchor in the middle of a pattern, the side whose hops make fewer rows is expanded first', () => {
  // Two M nodes, each with one TA relationship to an A and thirty TB relationships to Bs; TB is ten times as
  // common as TA over the whole graph, and neither is rare enough to start at (a property map on m makes it the
  // anchor).
  const g = new MemoryGraph();
  const as = Array.from({ length: 100 }, (_, i) => g.createNode(['A'], { c: BigInt(i) }));
  const bs = Array.from({ length: 100 }, (_, i) => g.createNode(['B'], { c: BigInt(i) }));
  for (let i = 0; i < 300; i++) g.createRelationship('TA', as[i % 100]!, as[(i * 7) % 100]!, {});
  for (let i = 0; i < 3000; i++) g.createRelationship('TB', bs[i % 100]!, bs[(i * 11) % 100]!, {});
  for (let m = 0; m < 2; m++) {
    const node = g.createNode(['M'], { c: BigInt(m) });
    g.createRelationship('TA', node, as[m * 7]!, {});
    for (let j = 0; j < 30; j++) g.createRelationship('TB', node, bs[(m * 13 + j) % 100]!, {});
  }
  const expands = (d: PlanDescription): string[] => [
    ...(d.operator.includes('Expand') ? [d.details] : []),
    ...d.children.flatMap(expands),
  ];
  for (const q of [
    'MATCH (a:A)<-[:TA]-(m:M {c: 1})-[:TB]->(b:B) RETURN a.c AS a, b.c AS b',
    'MATCH (b:B)<-[:TB]-(m:M {c: 1})-[:TA]->(a:A) RETURN a.c AS a, b.c AS b',
  ]) {
    const plan = runCypher(g, `EXPLAIN ${q}`).plan!;
    // Children first in the tree: the deepest Expand runs first, and it is the TA hop.
    const order = expands(plan).reverse();
    assert.match(order[0]!, /:TA/, `${q}: ${order.join(' / ')}`);
    assert.deepEqual(canon(runCypher(g, q).rows), canon(runCypher(g, q, {}, { planner: false }).rows), q);
  }
});

test('a sort or an aggregation whose rows all go to the result stops at max_rows before reading all of its input', () => {
  const g = randomGraph(11);
  assert.throws(
    () => runCypher(g, 'MATCH (a)-->(b) RETURN a.c, b.c ORDER BY a.c', {}, { maxRows: 50 }),
    (e: unknown) =>
      e instanceof CypherLimitError &&
      e.code === 'cypher_too_many_rows' &&
      /ORDER BY stopped at row 51/.test(e.message),
  );
  assert.throws(
    () => runCypher(g, 'MATCH (a)-->(b) RETURN a.c AS c, count(*) AS n', {}, { maxRows: 20 }),
    (e: unknown) =>
      e instanceof CypherLimitError && e.limit === 'max_rows' && /aggregation stopped at group 21/.test(e.message),
  );
  // PROFILE of a query a budget stops says where the rows and the time went until then.
  assert.throws(
    () => runCypher(g, 'PROFILE MATCH (a)-->(b)-->(c) RETURN a.c, c.c', {}, { maxRows: 30 }),
    (e: unknown) => {
      const plan = (e as { plan?: PlanDescription }).plan;
      return (
        e instanceof CypherLimitError &&
        plan?.operator === 'ProduceResults' &&
        plan.rows === 31 &&
        e.data?.plan === plan
      );
    },
  );
  // With a LIMIT the sort keeps only what it returns: no error.
  assert.equal(runCypher(g, 'MATCH (a)-->(b) RETURN a.c ORDER BY a.c LIMIT 50', {}, { maxRows: 50 }).rows.length, 50);
});

test('an aggregation over one relationship pattern runs over relationship columns, with the row-by-row results', () => {
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
  for (const seed of [21, 22]) {
    const g = randomGraph(seed);
    for (const r of [...g.relationships]) if (r.id % 3 !== 0) g.setProperty(r, 'w', (r.id % 17) / 4);
    for (const q of [
      'MATCH (a)-[r]->(b) RETURN type(r) AS t, count(*) AS n',
      'MATCH (a:A)-[r]-(b) RETURN b.t AS t, avg(r.w) AS w, count(*) AS n, count(r.w) AS cw',
      'MATCH (a:B)<-[r:R]-(b) RETURN a.t AS t, count(r) AS deg ORDER BY deg DESC, t LIMIT 2',
      'MATCH (a)-[r:S|R]->(b:A) WHERE a.c > 50 AND r.w < 2 RETURN b.k AS k, count(DISTINCT a) AS n, sum(a.c) AS s',
      'MATCH (a)-[r]-(b) RETURN count(*) AS n, max(b.c) AS m',
      'MATCH (a)-[r]->(b) WITH a, r, b RETURN a.t AS t, b.t AS u, count(*) AS n',
      'MATCH (a:Missing)-[r]->(b) RETURN count(*) AS n, avg(r.w) AS w',
      'MATCH (a)-[r]->(b) WHERE EXISTS { (b)-->(:A) } RETURN type(r) AS t, count(*) AS n',
      'MATCH (a:A)<-[r]-(b) WHERE NOT (a)<-[:S]-(:B) AND b.c > 10 RETURN a.t AS t, count(r) AS deg',
    ]) {
      const slow = runCypher(rowByRow(g), q, {}, { planner: false });
      const fast = runCypher(relColumns(g), q);
      if (q.includes('ORDER BY')) assert.deepEqual(fast.rows, slow.rows, `${q} (seed ${seed})`);
      else assert.deepEqual(canon(fast.rows), canon(slow.rows), `${q} (seed ${seed})`);
      assert.ok(operators(runCypher(g, `EXPLAIN ${q}`).plan!).includes('ColumnarExpandAggregate'), q);
    }
  }
});

test('a pattern predicate over one relationship is answered from adjacency, with the row-by-row results', () => {
  for (const seed of [23, 24]) {
    const g = randomGraph(seed);
    for (const q of [
      'MATCH (n) WHERE EXISTS { (n)-->(:A) } RETURN n.t AS t, count(*) AS c',
      'MATCH (n:B) WHERE NOT EXISTS { (n)<-[:S]-(:A:B) } RETURN count(*) AS c',
      'MATCH (n) WHERE (n)-[:R]-() RETURN count(*) AS c',
      'MATCH (n:A)-[:R]->(m) WHERE NOT (m)-->(:A) RETURN count(*) AS c',
    ]) {
      const slow = runCypher(rowByRow(g), q, {}, { planner: false });
      assert.deepEqual(canon(runCypher(g, q).rows), canon(slow.rows), `${q} (seed ${seed})`);
      // Under an aggregation over a node or one relationship the predicate is folded into the columnar aggregation.
      const ops = operators(runCypher(g, `EXPLAIN ${q}`).plan!);
      assert.ok(
        ops.some((o) => ['ExpandExists', 'ColumnarExpandAggregate', 'ColumnarAggregate'].includes(o)),
        q,
      );
    }
  }
});

test('an expansion whose anonymous relationship nothing reads goes by adjacency, with the row-by-row results', () => {
  for (const seed of [25, 26]) {
    const g = randomGraph(seed);
    for (const q of [
      'MATCH (n:A) OPTIONAL MATCH (n)<--(o:B) RETURN n.t AS t, count(*) AS c, count(o) AS o',
      'MATCH (n {t: "gene"})-[:R]-(m:A:B) RETURN m.c AS c',
      'MATCH (n:B)-->(m) WHERE m.c > 10 RETURN count(DISTINCT m) AS c',
    ]) {
      const slow = runCypher(rowByRow(g), q, {}, { planner: false });
      assert.deepEqual(canon(runCypher(g, q).rows), canon(slow.rows), `${q} (seed ${seed})`);
      assert.ok(runCypher(g, `EXPLAIN ${q}`).plan!.children.length > 0, q);
    }
  }
});
