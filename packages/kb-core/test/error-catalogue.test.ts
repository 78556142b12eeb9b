// kb-core's one table of error codes (KB_ERRORS) against its sources and its README table (issue 39).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { toWireError } from '@evident/contract';
import { readmeErrorTable, tableDisagreements, uncataloguedCodes } from '@evident/contract/check';
import { KB_ERRORS, KbError, KbNotFoundError, KbValidationError } from '../src/errors.js';

const src = fileURLToPath(new URL('../src', import.meta.url));
const readme = fileURLToPath(new URL('../../kb/README.md', import.meta.url));

test('every code thrown in src is in KB_ERRORS', () => {
  const missing = uncataloguedCodes(src, KB_ERRORS, {
    callees: ['KbError', 'KbValidationError', 'KbOpenError', 'KbEmbeddingError', 'fail'],
    // Warnings (a claim stored with a remark), never thrown as such.
    ignore: ['source_was_retracted', 'dim_reduced'],
  });
  assert.deepEqual(missing, []);
});

test("the README's error table and KB_ERRORS agree", () => {
  const rows = readmeErrorTable(readFileSync(readme, 'utf8'), 'Error codes');
  assert.deepEqual(tableDisagreements(rows, KB_ERRORS), []);
});

test("an error's status is its code's in the table, whatever the throw site passed", () => {
  assert.equal(new KbNotFoundError('claim', 'c1').status, 404);
  assert.equal(new KbValidationError('too_long', 'subject[0]', 'too long').status, 400);
  assert.equal(new KbError('busy', 'wait', { status: 400 }).status, 429);
  assert.equal(toWireError(new KbError('corrupt', 'bad log')).status, 500);
  // Another package's code on a KbError keeps the status its own table gave.
  assert.equal(new KbError('provider_timeout', 'slow', { status: 504 }).status, 504);
});
