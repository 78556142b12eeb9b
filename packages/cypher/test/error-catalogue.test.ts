// The engine's one table of error codes (CYPHER_ERRORS) against its sources and its README (issue 39, point 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readmeErrorTable, tableDisagreements, uncataloguedCodes } from '@evident/contract/check';
import { CYPHER_ERRORS, CypherLimitError, CypherSyntaxError } from '../src/errors.js';

test("the README's Errors table agrees with CYPHER_ERRORS", () => {
  const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
  assert.deepEqual(tableDisagreements(readmeErrorTable(readme, 'Errors'), CYPHER_ERRORS), []);
});

test('every code thrown in src is in CYPHER_ERRORS, and errors take their status from it', () => {
  const src = fileURLToPath(new URL('../src', import.meta.url));
  assert.deepEqual(uncataloguedCodes(src, CYPHER_ERRORS, { callees: ['CypherError', 'CypherLimitError'] }), []);
  assert.equal(new CypherSyntaxError('UnexpectedSyntax', 'x').status, 400);
  assert.equal(new CypherLimitError('cypher_timeout', 'timeout_ms', 10, 'slow').status, 408);
  assert.equal(new CypherLimitError('cypher_too_many_rows', 'max_rows', 10, 'many').status, 413);
});
