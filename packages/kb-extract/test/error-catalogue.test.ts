// kb-extract's one table of error codes (KB_EXTRACT_ERRORS) against its sources and its README (issue 39, point 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mergeCatalogues } from '@evident/contract';
import { readmeErrorTable, tableDisagreements, uncataloguedCodes } from '@evident/contract/check';
import { KB_ERRORS, KbValidationError } from '@evident/kb-core';
import { KbArchiveError } from '../src/archive/zip.js';
import { KbChatFileError } from '../src/chat/files.js';
import { KbEmbeddingError } from '../src/embeddings/errors.js';
import { KB_EXTRACT_ERRORS } from '../src/error-codes.js';
import { KbProviderError } from '../src/providers/index.js';

const src = fileURLToPath(new URL('../src', import.meta.url));
const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const callees = [
  'KbProviderError',
  'KbChatFileError',
  'KbArchiveError',
  'KbEmbeddingError',
  'KbError',
  'KbValidationError',
];

test('every code thrown in src is in KB_EXTRACT_ERRORS or KB_ERRORS (agreeing where both have it)', () => {
  const all = mergeCatalogues(KB_ERRORS, KB_EXTRACT_ERRORS); // throws when a shared code's statuses differ
  assert.deepEqual(uncataloguedCodes(src, all, { callees }), []);
});

test("the README's table agrees with KB_EXTRACT_ERRORS", () => {
  const rows = readmeErrorTable(readme, 'Errors');
  assert.deepEqual(tableDisagreements(rows, KB_EXTRACT_ERRORS, { nullStatus: '—', others: KB_ERRORS }), []);
});

test('errors take their status from the tables (a provider answer of 429 or 5xx passed on)', () => {
  assert.equal(new KbProviderError('missing_api_key', 'openai', 'no key').status, 400);
  assert.equal(new KbProviderError('provider_error', 'openai', 'down', { status: 503 }).status, 503);
  assert.equal(new KbProviderError('provider_auth', 'openai', 'refused', { status: 401 }).status, 502);
  assert.equal(new KbChatFileError('not_found', 'x.json', 'gone').status, 404);
  assert.equal(new KbChatFileError('malformed_json', 'x.json', 'bad').status, 400);
  assert.equal(new KbArchiveError('too_large', 'x.zip', 'big').status, 400);
  assert.equal(new KbEmbeddingError('embedding_timeout', 'openai', 'slow').status, 504);
  assert.equal(new KbEmbeddingError('embedding_aborted', 'openai', 'stopped').status, undefined);
  // kb-extract's validation codes outside KB_ERRORS are the caller's too.
  assert.equal(new KbValidationError('unknown_channel', 'channels', 'no such channel').status, 400);
  assert.equal(new KbValidationError('empty', 'messages', 'holds no messages').status, 400);
});
