// The package's one table of error codes (DOCKING_ERRORS) against its sources and its README (issue 39, point 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readmeErrorTable, tableDisagreements, uncataloguedCodes } from '@evident/contract/check';
import { DOCKING_ERRORS, DockingFailedError, DockingInputError, InvalidSmilesError } from '../src/errors.js';

const src = fileURLToPath(new URL('../src', import.meta.url));
const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');

test('every code thrown in src is in DOCKING_ERRORS, and the README table agrees with it', () => {
  assert.deepEqual(uncataloguedCodes(src, DOCKING_ERRORS, { callees: ['DockingUnavailableError'] }), []);
  const rows = readmeErrorTable(readme, 'Errors');
  assert.deepEqual(tableDisagreements(rows, DOCKING_ERRORS, { nullStatus: '—' }), []);
  assert.equal(new DockingInputError([{ path: '/box', message: 'missing' }]).status, 400);
  assert.equal(new InvalidSmilesError('C(').status, 400);
  assert.equal(new DockingFailedError('exit 1', { step: 'vina' }).status, undefined);
});
