// The engine's one table of error codes (COMPOUND_GENERATION_ERRORS) against its sources and its README (issue 39, point 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readmeErrorTable, tableDisagreements, uncataloguedCodes } from '@evident/contract/check';
import { COMPOUND_GENERATION_ERRORS } from '../src/error-codes.js';
import { GenerationAbortedError, InvalidRequestError, InvalidSmilesError } from '../src/errors.js';
import { InvalidProfileError } from '../src/profile/errors.js';

test('every code thrown in src is in COMPOUND_GENERATION_ERRORS, and errors take their status from it', () => {
  const src = fileURLToPath(new URL('../src', import.meta.url));
  // ExternalScorerError's first argument is its reason; its code is always external_scorer_failed (a super call).
  assert.deepEqual(uncataloguedCodes(src, COMPOUND_GENERATION_ERRORS, { callees: ['CompoundGenerationError'] }), []);
  const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
  assert.deepEqual(
    tableDisagreements(readmeErrorTable(readme, 'Errors'), COMPOUND_GENERATION_ERRORS, { nullStatus: '—' }),
    [],
  );
  assert.equal(new InvalidSmilesError('C(').status, 400);
  assert.equal(new InvalidRequestError([{ path: '/n', message: 'too many' }]).status, 400);
  assert.equal(new InvalidProfileError([{ path: '/scoring', message: 'empty' }]).status, 400);
  assert.equal(new GenerationAbortedError().status, undefined);
});
