// Deep nesting is a syntax error naming the limit, with its line and column, never a stack overflow; chains
// of OR, XOR and AND of any length still run, with their left-to-right evaluation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CypherError, MAX_NESTING, MemoryGraph, parse, runCypher } from '../src/index.js';

const tooDeep = (e: unknown) =>
  e instanceof CypherError &&
  e.kind === 'SyntaxError' &&
  e.detail === 'NestingTooDeep' &&
  e.phase === 'compile' &&
  e.code === 'cypher_syntax_error' &&
  e.status === 400 &&
  e.position !== undefined &&
  e.message.includes(`deeper than ${MAX_NESTING}`);

const run = (q: string) => runCypher(new MemoryGraph(), q).rows;

test('10,000 levels of any nesting are refused by name, with a position', () => {
  const n = 10_000;
  const queries = {
    parentheses: `RETURN ${'('.repeat(n)}1${')'.repeat(n)}`,
    lists: `RETURN ${'['.repeat(n)}1${']'.repeat(n)}`,
    maps: `RETURN ${'{a: '.repeat(n)}1${'}'.repeat(n)}`,
    not: `RETURN ${'NOT '.repeat(n)}true`,
    signs: `RETURN ${'- '.repeat(n)}1`,
    case: `RETURN ${'CASE WHEN true THEN '.repeat(n)}1${' END'.repeat(n)}`,
    'a chain of +': `RETURN ${Array(n).fill('1').join(' + ')}`,
    'a chain of subscripts': `WITH [1] AS l RETURN l${'[0]'.repeat(n)}`,
    'a chain of properties': `WITH {} AS m RETURN m${'.a'.repeat(n)}`,
    'a parenthesised pattern': `MATCH ${'('.repeat(n)}(a)-->(b)${')'.repeat(n)} RETURN a`,
    'EXISTS subqueries': `MATCH (n) WHERE ${'EXISTS { MATCH (n) WHERE '.repeat(n)}true${' }'.repeat(n)} RETURN n`,
    'function calls': `RETURN ${'abs('.repeat(n)}1${')'.repeat(n)}`,
    comprehensions: `RETURN ${'[x IN '.repeat(n)}[1]${' | x]'.repeat(n)}`,
  };
  for (const [what, q] of Object.entries(queries)) {
    assert.throws(() => parse(q), tooDeep, what);
    assert.throws(() => run(q), tooDeep, what);
  }
});

test('the error points at the line and column where the limit is passed', () => {
  const q = `RETURN 1 AS a,\n  ${'['.repeat(MAX_NESTING + 50)}1${']'.repeat(MAX_NESTING + 50)} AS b`;
  assert.throws(
    () => parse(q),
    (e: unknown) =>
      tooDeep(e) &&
      (e as CypherError).position?.line === 2 &&
      (e as CypherError).position?.column === 3 + MAX_NESTING &&
      (e as CypherError).message.includes('line 2'),
  );
});

test('nesting just under the limit parses, checks and runs', () => {
  const d = MAX_NESTING - 10;
  assert.deepEqual(run(`RETURN ${'('.repeat(d)}1${')'.repeat(d)} AS x`), [[1n]]);
  assert.deepEqual(run(`RETURN size(${'['.repeat(d - 2)}1${']'.repeat(d - 2)}) AS x`), [[1n]]);
  assert.deepEqual(
    run(
      `RETURN ${Array(d - 2)
        .fill('1')
        .join(' + ')} AS x`,
    ),
    [[BigInt(d - 2)]],
  );
});

test('chains of OR, XOR and AND have no length limit and keep their meaning', () => {
  const n = 5000;
  const or = (xs: string[]) => xs.join(' OR ');
  const and = (xs: string[]) => xs.join(' AND ');
  assert.deepEqual(run(`RETURN ${or(Array(n).fill('false'))} AS x`), [[false]]);
  assert.deepEqual(run(`RETURN ${or([...Array(n - 1).fill('false'), 'true'])} AS x`), [[true]]);
  assert.deepEqual(run(`RETURN ${or([...Array(n - 1).fill('false'), 'null'])} AS x`), [[null]]);
  assert.deepEqual(run(`RETURN ${and([...Array(n - 1).fill('true'), 'null'])} AS x`), [[null]]);
  assert.deepEqual(run(`RETURN ${Array(n).fill('true').join(' XOR ')} AS x`), [[false]]);
  assert.deepEqual(
    run(
      `RETURN ${Array(n - 1)
        .fill('true')
        .join(' XOR ')} AS x`,
    ),
    [[true]],
  );
  // Left to right, stopping at the first false (AND) or true (OR): the division is never evaluated.
  assert.deepEqual(run(`RETURN ${and([...Array(n).fill('true'), 'false', '1 / 0 = 1'])} AS x`), [[false]]);
  assert.deepEqual(run(`RETURN ${or([...Array(n).fill('false'), 'true', '1 / 0 = 1'])} AS x`), [[true]]);
  assert.throws(() => run(`RETURN ${and([...Array(n).fill('true'), '1 / 0 = 1', 'false'])} AS x`), /by zero/);
  // Generated filters: a long disjunction in WHERE.
  const g = new MemoryGraph();
  runCypher(g, 'UNWIND range(1, 100) AS i CREATE (:N {k: i})');
  const where = or(Array.from({ length: 3000 }, (_, i) => `n.k = ${i * 7}`));
  assert.deepEqual(runCypher(g, `MATCH (n:N) WHERE ${where} RETURN count(n) AS c`).rows, [[14n]]);
});

test('a nest that the parser could read two ways is read once per level', () => {
  // Each `(` may open a pattern or an expression; trying both at every level used to take 2^n steps
  // (n = 20: about a minute). Each level now parses once, whatever the depth.
  const n = 60;
  assert.deepEqual(run(`RETURN ${'({a: '.repeat(n)}1${'})'.repeat(n)}.a AS x`).length, 1);
  // A list of a map projection of a list…: pattern comprehension or list, at each level.
  assert.equal(parse(`WITH {} AS a RETURN ${'[(a {a: '.repeat(n)}1${'})]'.repeat(n)}`).parts.length, 1);
});

test('a matched pattern is bounded like nesting; a CREATE pattern is not', () => {
  const chain = (n: number) => `(a)${'-->()'.repeat(n)}`;
  const parts = (n: number) => Array.from({ length: n }, (_, i) => `(n${i})`).join(', ');
  const refused = (q: string, what: RegExp) =>
    assert.throws(
      () => parse(q),
      (e: unknown) => tooDeepAt(e) && what.test((e as Error).message),
      q.slice(0, 40),
    );
  refused(`MATCH ${chain(MAX_NESTING + 1)} RETURN a`, /more than 200 relationships/);
  refused(`MATCH (a) WHERE ${chain(MAX_NESTING + 1)} RETURN a`, /more than 200 relationships/);
  refused(`MERGE ${chain(MAX_NESTING + 1)}`, /more than 200 relationships/);
  refused(`MATCH ${parts(MAX_NESTING + 1)} RETURN 1`, /more than 200 parts/);
  assert.equal(parse(`MATCH ${chain(MAX_NESTING)} RETURN a`).parts.length, 1);
  // A long chain is created in a loop: no limit there.
  const g = new MemoryGraph();
  runCypher(g, `CREATE (a)${'-[:T]->()'.repeat(1000)}`);
  assert.equal(g.takeStats().relationships_created, 1000);
});

const tooDeepAt = (e: unknown) =>
  e instanceof CypherError && e.detail === 'NestingTooDeep' && e.phase === 'compile' && e.position !== undefined;
