// The package's one table of error codes (GRAPH_ERRORS) against its sources and its README (issue 39, point 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readmeErrorTable, tableDisagreements, uncataloguedCodes } from '@evident/contract/check';
import { GRAPH_ERRORS, GraphInputError, SvdFailedError } from '../src/errors.js';

const src = fileURLToPath(new URL('../src', import.meta.url));
const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');

test('every code thrown in src is in GRAPH_ERRORS, and the README table agrees with it', () => {
  assert.deepEqual(uncataloguedCodes(src, GRAPH_ERRORS, { callees: ['GraphInputError'] }), []);
  const rows = readmeErrorTable(readme, 'Errors');
  assert.deepEqual(tableDisagreements(rows, GRAPH_ERRORS, { nullStatus: '—' }), []);
  assert.equal(new GraphInputError('/n', 'must be positive').status, 400);
  assert.equal(new SvdFailedError('check failed').status, undefined);
});
