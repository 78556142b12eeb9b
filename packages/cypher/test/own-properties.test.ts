// Parameters, variables, map keys, properties and function names are read as own entries only: nothing of
// Object.prototype (`toString`, `constructor`, `__proto__`, …) leaks into a query's answer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CypherError, MemoryGraph, runCypher, toJs } from '../src/index.js';

const rows = (g: MemoryGraph, q: string, p?: Record<string, unknown>) => runCypher(g, q, p).rows;

test('a parameter named after an Object.prototype member is missing unless the caller gave it', () => {
  const g = new MemoryGraph();
  for (const name of ['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf']) {
    assert.throws(
      () => rows(g, `RETURN $${name} AS x`),
      (e: unknown) => e instanceof CypherError && e.kind === 'ParameterMissing',
      name,
    );
  }
  assert.deepEqual(rows(g, 'RETURN $toString AS x, $constructor AS y', { toString: 1n, constructor: 'c' }), [
    [1n, 'c'],
  ]);
});

test('properties and map keys named after Object.prototype members are null unless present', () => {
  const g = new MemoryGraph();
  rows(g, 'CREATE (:A {x: 1})');
  assert.deepEqual(rows(g, 'MATCH (n) RETURN n.constructor AS a, n.toString AS b, n.__proto__ AS c'), [
    [null, null, null],
  ]);
  assert.deepEqual(rows(g, "RETURN {a: 1}.hasOwnProperty AS a, {a: 1}['toString'] AS b, {a: 1}.valueOf AS c"), [
    [null, null, null],
  ]);
  assert.deepEqual(rows(g, 'MATCH (n) RETURN n {.constructor, .x} AS m'), [[{ constructor: null, x: 1n }]]);
  // The columnar aggregation reads its columns the same way.
  assert.deepEqual(rows(g, 'MATCH (n) RETURN n.constructor AS c, count(*) AS k'), [[null, 1n]]);
  assert.deepEqual(rows(g, 'MATCH (n {constructor: 1}) RETURN n'), []);
  // Every answer is plain data: JSON keeps every cell.
  const r = runCypher(g, 'MATCH (n) RETURN n.constructor AS c, $toString AS t', { toString: 'yes' });
  assert.equal(JSON.stringify(r.rows.map((row) => row.map(toJs))), '[[null,"yes"]]');
});

test('a variable named constructor is unbound until the pattern binds it', () => {
  const g = new MemoryGraph();
  rows(g, 'CREATE (:A), (:A)');
  assert.equal(rows(g, 'MATCH (constructor:A) RETURN constructor').length, 2);
  assert.deepEqual(rows(g, 'MATCH (toString) WITH toString RETURN count(*) AS n'), [[2n]]);
  assert.deepEqual(rows(g, 'OPTIONAL MATCH (valueOf:Nope) RETURN valueOf'), [[null]]);
});

test('__proto__ is an ordinary key: of a map literal, a parameter, a property and a column', () => {
  const g = new MemoryGraph();
  const [[m]] = rows(g, 'RETURN {__proto__: [1]} AS m') as [[Record<string, unknown>]];
  assert.deepEqual(Object.keys(m), ['__proto__']);
  assert.equal(Object.getPrototypeOf(m), Object.prototype);
  assert.deepEqual(rows(g, 'RETURN keys({__proto__: 1, a: 2}) AS k'), [[['__proto__', 'a']]]);
  const param = JSON.parse('{"__proto__": {"x": 1}}') as unknown;
  assert.deepEqual(rows(g, 'RETURN keys($m) AS k, $m.x AS x, $m.__proto__.x AS y', { m: param }), [
    [['__proto__'], null, 1],
  ]);
  rows(g, 'CREATE (:P {__proto__: 5})');
  assert.deepEqual(rows(g, 'MATCH (p:P) RETURN keys(p) AS k, p.__proto__ AS v'), [[['__proto__'], 5n]]);
  assert.deepEqual(rows(g, 'WITH [1] AS __proto__ RETURN __proto__, size(__proto__) AS n'), [[[1n], 1n]]);
});

test('a function named after an Object.prototype member is unknown', () => {
  const g = new MemoryGraph();
  for (const name of ['constructor', '__proto__', 'hasOwnProperty', 'toLocaleString']) {
    assert.throws(
      () => rows(g, `RETURN ${name}(1) AS x`),
      (e: unknown) => e instanceof CypherError && e.detail === 'UnknownFunction',
      name,
    );
  }
});
