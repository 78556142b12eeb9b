// The bridge's one table of error codes (JOBS_TO_KB_ERRORS) against its sources and its README (issue 39, point 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readmeErrorTable, tableDisagreements, uncataloguedCodes } from '@evident/contract/check';
import { ExportError, JOBS_TO_KB_ERRORS } from '../src/errors.js';

const src = fileURLToPath(new URL('../src', import.meta.url));
const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');

test('every code thrown in src is in JOBS_TO_KB_ERRORS, and the README table agrees with it', () => {
  assert.deepEqual(uncataloguedCodes(src, JOBS_TO_KB_ERRORS, { callees: ['ExportError'] }), []);
  const rows = readmeErrorTable(readme, 'Errors');
  assert.deepEqual(tableDisagreements(rows, JOBS_TO_KB_ERRORS, { nullStatus: '—' }), []);
  assert.equal(new ExportError('kb_unavailable', 'down').status, 503);
});
