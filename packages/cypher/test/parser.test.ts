import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CypherSyntaxError, compile, MemoryGraph, parse, runCypher } from '../src/index.js';

function syntaxError(q: string): CypherSyntaxError {
  try {
    compile(q);
  } catch (e) {
    assert.ok(e instanceof CypherSyntaxError, `expected a CypherSyntaxError, got ${String(e)}`);
    return e;
  }
  assert.fail(`expected ${q} to be refused`);
}

test('a syntax error names the line and column of the unexpected token', () => {
  const e = syntaxError('MATCH (n)\nRETURN n.name AS,');
  assert.equal(e.code, 'cypher_syntax_error');
  assert.equal(e.detail, 'UnexpectedSyntax');
  assert.deepEqual([e.position?.line, e.position?.column], [2, 17]);
  assert.match(e.message, /line 2, column 17/);
  assert.equal(e.status, 400);
});

test('literal errors keep the TCK detail', () => {
  assert.equal(syntaxError('RETURN 9223372036854775808').detail, 'IntegerOverflow');
  assert.equal(syntaxError('RETURN 0x1A2b3j').detail, 'InvalidNumberLiteral');
  assert.equal(syntaxError("RETURN '\\uH'").detail, 'InvalidUnicodeLiteral');
  assert.equal(syntaxError('RETURN 1.34E999').detail, 'FloatingPointOverflow');
  // The smallest integer is a literal too: the minus belongs to it.
  assert.equal(runCypher(new MemoryGraph(), 'RETURN -9223372036854775808 AS x').rows[0]![0], -9223372036854775808n);
});

test('semantic errors are refused before the graph is touched', () => {
  assert.equal(syntaxError('RETURN x').detail, 'UndefinedVariable');
  assert.equal(syntaxError('MATCH ()-[r]-() MATCH (r) RETURN r').detail, 'VariableTypeConflict');
  assert.equal(syntaxError('MATCH (a) CREATE (a) RETURN a').detail, 'VariableAlreadyBound');
  assert.equal(syntaxError('MATCH (a) WITH a, count(*) RETURN a').detail, 'NoExpressionAlias');
  assert.equal(syntaxError('RETURN 1 AS a UNION RETURN 2 AS b').detail, 'DifferentColumnsInUnion');
  assert.equal(syntaxError('RETURN nosuch(1)').detail, 'UnknownFunction');
  assert.equal(syntaxError('MATCH (a) WHERE count(a) > 1 RETURN a').detail, 'InvalidAggregation');
  assert.equal(syntaxError('CREATE (a)-[:T]-(b)').detail, 'RequiresDirectedRelationship');
});

test('the parser builds the clauses in order, keywords in any case', () => {
  const q = parse(
    'match (a:A {k: 1})-[r:T*1..2]->(b) where a.k > 0 return distinct b order by b.k desc skip 1 limit 2',
  );
  assert.deepEqual(
    q.parts[0]!.clauses.map((c) => c.kind),
    ['match', 'return'],
  );
  const m = q.parts[0]!.clauses[0]!;
  assert.equal(m.kind, 'match');
  if (m.kind === 'match') {
    assert.deepEqual(m.pattern[0]!.rels[0]!.range, { min: 1, max: 2 });
    assert.equal(m.pattern[0]!.rels[0]!.direction, 'out');
  }
});
