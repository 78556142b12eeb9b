// Budgets are enforced inside the engine as it produces values and rows: lists, strings, rows, what the query
// holds, and the deadline. Each limit error names its budget (`limit`) and has a stable code.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CypherLimitError,
  type GraphReader,
  MemoryGraph,
  type Procedure,
  type RunOptions,
  runCypher,
  type Value,
} from '../src/index.js';

const run = (q: string, options: RunOptions = {}, params: Record<string, unknown> = {}) =>
  runCypher(new MemoryGraph(), q, params, options).rows;

const limitError = (code: string, limit: string) => (e: unknown) =>
  e instanceof CypherLimitError &&
  e.code === code &&
  e.limit === limit &&
  e.message.includes(limit) &&
  e.problems?.[0]?.path === `/${limit}`;

test('range() is sized before it is built, and refused above max_list_size', () => {
  assert.throws(
    () => run('RETURN range(1, 20) AS r', { maxListSize: 10 }),
    limitError('cypher_list_too_large', 'max_list_size'),
  );
  assert.deepEqual(run('RETURN size(range(1, 10)) AS n', { maxListSize: 10 }), [[10n]]);
  assert.deepEqual(run('RETURN range(10, 1, -3) AS r, range(1, 0) AS e', { maxListSize: 10 }), [
    [[10n, 7n, 4n, 1n], []],
  ]);
  // A billion elements are refused at once under the default budget: nothing is allocated first.
  assert.throws(() => run('RETURN range(1, 1000000000) AS r'), limitError('cypher_list_too_large', 'max_list_size'));
  assert.throws(
    () => run('RETURN range(1, 1000000000) AS r', { maxListSize: 2_000_000_000 }),
    limitError('cypher_memory_exceeded', 'max_memory_bytes'),
  );
});

test('lists built by comprehensions, collect, concatenation, literals and split stop at max_list_size', () => {
  const o = { maxListSize: 50 };
  const tooLarge = limitError('cypher_list_too_large', 'max_list_size');
  assert.throws(() => run('RETURN [x IN range(1, 100) | x * 2] AS l', o), tooLarge);
  assert.throws(() => run('UNWIND range(1, 100) AS x RETURN collect(x) AS l', o), tooLarge);
  assert.throws(() => run('UNWIND range(1, 100) AS x WITH collect(DISTINCT x) AS l RETURN size(l)', o), tooLarge);
  assert.throws(() => run('RETURN range(1, 30) + range(1, 30) AS l', o), tooLarge);
  const hub = new MemoryGraph();
  runCypher(hub, 'CREATE (h:Hub) WITH h UNWIND range(1, 60) AS i CREATE (h)-[:T]->()');
  assert.throws(() => runCypher(hub, 'MATCH (n:Hub) RETURN [(n)-->(m) | m] AS l', {}, o), tooLarge);
  assert.throws(() => run('RETURN split($s, ",") AS l', o, { s: Array(60).fill('a').join(',') }), tooLarge);
  assert.throws(() => run(`RETURN [${Array(60).fill('1').join(', ')}] AS l`, o), tooLarge);
  // Within the budget, and a comprehension over range() that keeps few elements.
  assert.deepEqual(run('RETURN size([x IN range(1, 1000) WHERE x % 100 = 0]) AS n', o), [[10n]]);
  assert.deepEqual(run('UNWIND range(1, 50) AS x RETURN size(collect(x)) AS n', o), [[50n]]);
});

test('strings built by + and replace() stop at max_string_length; shorter results are fine', () => {
  const o = { maxStringLength: 5 };
  const tooLong = limitError('cypher_string_too_long', 'max_string_length');
  assert.throws(() => run("RETURN 'abc' + 'def' AS s", o), tooLong);
  assert.throws(() => run("RETURN replace('aaaa', 'a', 'bb') AS s", o), tooLong);
  assert.throws(() => run("RETURN replace('abc', '', '--') AS s", o), tooLong);
  assert.deepEqual(run("RETURN 'ab' + 'cd' AS a, replace('aaaaaaaa', 'aa', 'b') AS b", o), [['abcd', 'bbbb']]);
  // Doubling a string 30 times would make a billion characters: it stops at the default budget (1,000,000).
  const doubling = `WITH 'x' AS s ${'WITH s + s AS s '.repeat(30)}RETURN size(s) AS n`;
  assert.throws(() => run(doubling), limitError('cypher_string_too_long', 'max_string_length'));
  assert.deepEqual(run(`WITH 'x' AS s ${'WITH s + s AS s '.repeat(19)}RETURN size(s) AS n`), [[524288n]]);
});

/** A procedure that yields `n` rows and counts how many were asked for. */
function counting(n: number): { procedures: Map<string, Procedure>; pulled: () => number } {
  let pulled = 0;
  const proc: Procedure = {
    inputs: [],
    outputs: [{ name: 'x', type: 'INTEGER?' }],
    *call() {
      for (let i = 0; i < n; i++) {
        pulled++;
        yield [BigInt(i)];
      }
    },
  };
  return { procedures: new Map([['test.rows', proc]]), pulled: () => pulled };
}

test('max_rows is checked as rows are produced: the query stops at row max_rows + 1', () => {
  const c = counting(1_000_000);
  assert.throws(
    () =>
      runCypher(new MemoryGraph(), 'CALL test.rows() YIELD x RETURN x', {}, { maxRows: 100, procedures: c.procedures }),
    (e: unknown) => limitError('cypher_too_many_rows', 'max_rows')(e) && (e as Error).message.includes('row 101'),
  );
  assert.equal(c.pulled(), 101);
  // A product: 2,000 × 2,000 rows with max_rows 1,000 stops at row 1,001.
  assert.throws(
    () => run('UNWIND range(1, 2000) AS a UNWIND range(1, 2000) AS b RETURN a, b', { maxRows: 1000 }),
    (e: unknown) => limitError('cypher_too_many_rows', 'max_rows')(e) && (e as Error).message.includes('row 1001'),
  );
  assert.equal(run('UNWIND range(1, 10) AS a UNWIND range(1, 10) AS b RETURN a, b', { maxRows: 100 }).length, 100);
});

test('a reading query stops reading at its LIMIT; UNWIND reads range() without building it', () => {
  const g = new MemoryGraph();
  runCypher(g, 'UNWIND range(1, 1000) AS i CREATE (:N {i: i})');
  let scanned = 0;
  const counted: GraphReader = {
    *scanNodes(label) {
      for (const n of g.scanNodes(label)) {
        scanned++;
        yield n;
      }
    },
    expand: (n, d, t) => g.expand(n, d, t),
  };
  assert.equal(runCypher(counted, 'MATCH (a), (b) RETURN a, b LIMIT 5').rows.length, 5);
  assert.ok(scanned <= 10, `scanned ${scanned} nodes for 5 rows`);
  // A trillion values: never a list, and the LIMIT ends the stream.
  assert.deepEqual(run('UNWIND range(1, 1000000000000) AS x RETURN x LIMIT 3'), [[1n], [2n], [3n]]);
});

test('the deadline is checked inside range(), comprehensions, IN and UNWIND over range()', () => {
  const timeout = limitError('cypher_timeout', 'timeout_ms');
  // range() as a value: the deadline passes while it is built.
  assert.throws(
    () => run('WITH range(1, 3000000) AS l RETURN 0 IN l', { timeoutMs: 1, maxListSize: 4_000_000 }),
    timeout,
  );
  // A comprehension, a quantifier and UNWIND over a trillion values run into the deadline, with nothing built.
  assert.throws(() => run('RETURN [x IN range(1, 1000000000000) WHERE x < 0] AS l', { timeoutMs: 20 }), timeout);
  assert.throws(() => run('RETURN any(x IN range(1, 1000000000000) WHERE x < 0) AS b', { timeoutMs: 20 }), timeout);
  assert.throws(() => run('UNWIND range(1, 1000000000000) AS x RETURN count(x) AS n', { timeoutMs: 20 }), timeout);
  // IN over a long list given as a parameter.
  const l = Array.from({ length: 3_000_000 }, (_, i) => i);
  assert.throws(() => run('RETURN -1 IN $l AS b', { timeoutMs: 1 }, { l }), timeout);
});

test('what the query holds (sort, DISTINCT, groups, collect, the result) is bounded by max_memory_bytes', () => {
  const o = { maxMemoryBytes: 1_000_000 };
  const memory = limitError('cypher_memory_exceeded', 'max_memory_bytes');
  assert.throws(() => run('UNWIND range(1, 100000) AS x WITH x ORDER BY x DESC RETURN count(x) AS n', o), memory);
  assert.throws(() => run('UNWIND range(1, 100000) AS x WITH DISTINCT x RETURN count(x) AS n', o), memory);
  assert.throws(
    () => run('UNWIND range(1, 100000) AS x WITH x % 50000 AS k, count(*) AS c RETURN count(k) AS n', o),
    memory,
  );
  assert.throws(() => run('UNWIND range(1, 100000) AS x RETURN size(collect(x)) AS n', o), memory);
  assert.throws(() => run('UNWIND range(1, 100000) AS x RETURN x', o), memory);
  assert.throws(() => run('RETURN [x IN range(1, 100) | range(1, 1000)] AS l', o), memory);
  // Streaming aggregates hold nothing, and ORDER BY … LIMIT keeps only the rows it may return.
  assert.deepEqual(run('UNWIND range(1, 100000) AS x RETURN count(x) AS n, sum(x) AS s, max(x) AS m', o), [
    [100000n, 5000050000n, 100000n],
  ]);
  assert.deepEqual(run('UNWIND range(1, 100000) AS x RETURN x ORDER BY x % 1000 DESC, x LIMIT 3', o), [
    [999n],
    [1999n],
    [2999n],
  ]);
  assert.deepEqual(run('UNWIND range(1, 100000) AS x WITH x ORDER BY x DESC SKIP 5 LIMIT 2 RETURN x', o), [
    [99995n],
    [99994n],
  ]);
});

test('values nested deeper than 1000 levels are refused, built or given', () => {
  const tooDeep = limitError('cypher_value_too_deep', 'max_value_depth');
  assert.throws(() => run(`WITH 1 AS x ${'WITH [x] AS x '.repeat(1001)}RETURN x`), tooDeep);
  assert.throws(() => run(`WITH 1 AS x ${'WITH {a: x} AS x '.repeat(1001)}RETURN x`), tooDeep);
  const deep = JSON.parse(`${'['.repeat(5000)}${']'.repeat(5000)}`) as unknown;
  assert.throws(() => run('RETURN $p AS p', {}, { p: deep }), tooDeep);
  // 999 levels are fine: equality and ordering recurse that deep without trouble.
  const d = `WITH 1 AS x ${'WITH [x] AS x '.repeat(998)}`;
  assert.deepEqual(run(`${d}RETURN x = x AS same`), [[true]]);
});

test('long clause chains and long paths cost no call stack', () => {
  // 1,000 clauses: rows are buffered every so many clauses, so pulling a row is never 1,000 frames deep.
  assert.deepEqual(run(`WITH 0 AS x ${'WITH x + 1 AS x '.repeat(1000)}RETURN x`), [[1000n]]);
  assert.deepEqual(run(`UNWIND range(1, 3) AS x ${'WITH x + 1 AS x '.repeat(500)}RETURN sum(x) AS s`), [[1506n]]);
  // A chain of 50,000 relationships: variable-length matching walks it with an explicit stack.
  const g = new MemoryGraph();
  let prev = g.createNode(['Start'], {});
  for (let i = 1; i < 50_000; i++) {
    const next = g.createNode(i === 49_999 ? ['End'] : [], {});
    g.createRelationship('NEXT', prev, next, {});
    prev = next;
  }
  assert.deepEqual(runCypher(g, 'MATCH (a:Start)-[:NEXT*]->(b) RETURN count(*) AS n').rows, [[49_999n]]);
  const small = new MemoryGraph();
  let p = small.createNode(['Start'], {});
  for (let i = 1; i < 3000; i++) {
    const next = small.createNode(i === 2999 ? ['End'] : [], {});
    small.createRelationship('NEXT', p, next, {});
    p = next;
  }
  const rows = runCypher(small, 'MATCH q = (a:Start)-[:NEXT*]->(b:End) RETURN length(q) AS l').rows as Value[][];
  assert.deepEqual(rows, [[2999n]]);
});
