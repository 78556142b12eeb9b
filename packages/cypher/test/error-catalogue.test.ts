// The engine's one table of error codes (CYPHER_ERRORS) against its sources (issue 39, point 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { uncataloguedCodes } from '@evident/contract/check';
import { CYPHER_ERRORS, CypherLimitError, CypherSyntaxError } from '../src/errors.js';

test('every code thrown in src is in CYPHER_ERRORS, and errors take their status from it', () => {
  const src = fileURLToPath(new URL('../src', import.meta.url));
  assert.deepEqual(uncataloguedCodes(src, CYPHER_ERRORS, { callees: ['CypherError', 'CypherLimitError'] }), []);
  assert.equal(new CypherSyntaxError('UnexpectedSyntax', 'x').status, 400);
  assert.equal(new CypherLimitError('cypher_timeout', 'timeout_ms', 10, 'slow').status, 408);
  assert.equal(new CypherLimitError('cypher_too_many_rows', 'max_rows', 10, 'many').status, 413);
});
