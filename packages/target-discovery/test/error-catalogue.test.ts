// The package's one table of error codes (TD_ERRORS) against its sources and its README (issue 39, point 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readmeErrorTable, tableDisagreements, uncataloguedCodes } from '@evident/contract/check';
import { TD_ERRORS, TargetDiscoveryInputError } from '../src/errors.js';

const src = fileURLToPath(new URL('../src', import.meta.url));
const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');

test('every code thrown in src is in TD_ERRORS, and the README table agrees with it', () => {
  assert.deepEqual(uncataloguedCodes(src, TD_ERRORS, { callees: ['TargetDiscoveryInputError'] }), []);
  const rows = readmeErrorTable(readme, 'Errors');
  assert.deepEqual(tableDisagreements(rows, TD_ERRORS, { nullStatus: '—' }), []);
  assert.equal(new TargetDiscoveryInputError('bad_option', 'options.method', 'unknown').status, 400);
});
