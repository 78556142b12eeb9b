// The package's one table of error codes (PROTEIN_STRUCTURE_ERRORS) against its sources and its README (issue 39, point 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readmeErrorTable, tableDisagreements, uncataloguedCodes } from '@evident/contract/check';
import { inputError, PROTEIN_STRUCTURE_ERRORS } from '../src/errors.js';

const src = fileURLToPath(new URL('../src', import.meta.url));
const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');

test('every code thrown in src is in PROTEIN_STRUCTURE_ERRORS, and the README table agrees with it', () => {
  assert.deepEqual(uncataloguedCodes(src, PROTEIN_STRUCTURE_ERRORS, {}), []);
  const rows = readmeErrorTable(readme, 'Errors');
  assert.deepEqual(tableDisagreements(rows, PROTEIN_STRUCTURE_ERRORS, { nullStatus: '—' }), []);
  // inputError's first argument is a field, not a code: every error is invalid_parameters.
  const e = inputError('structure', 'is empty');
  assert.equal(e.code in PROTEIN_STRUCTURE_ERRORS, true);
  assert.equal(e.status, PROTEIN_STRUCTURE_ERRORS.invalid_parameters.status);
});
