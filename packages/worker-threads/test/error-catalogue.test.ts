// The package's one table of error codes (WORKER_ERRORS) against its sources and its README (issue 39, point 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readmeErrorTable, tableDisagreements, uncataloguedCodes } from '@evident/contract/check';
import { WORKER_ERRORS, WorkerEndedError } from '../src/errors.js';

const src = fileURLToPath(new URL('../src', import.meta.url));
const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');

test('every code thrown in src is in WORKER_ERRORS, and the README table agrees with it', () => {
  assert.deepEqual(uncataloguedCodes(src, WORKER_ERRORS, { callees: ['WorkerEndedError'] }), []);
  const rows = readmeErrorTable(readme, 'Errors');
  assert.deepEqual(tableDisagreements(rows, WORKER_ERRORS, { nullStatus: '—' }), []);
  assert.equal(new WorkerEndedError('worker_exited', 'stopped', 1).status, undefined);
});
