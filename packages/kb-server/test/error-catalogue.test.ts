// kb-server's error codes against its README tables (issue 39, point 2): the REST console's table lists every code
// of HTTP (HTTP_ERRORS, shared with the job API) with its status, and every code either table lists is in a
// catalogue: HTTP's, the library's (KB_ERRORS, KB_EXTRACT_ERRORS), the Cypher engine's (CYPHER_ERRORS) or
// kb-server's own (KB_SERVER_ERRORS).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mergeCatalogues } from '@evident/contract';
import { readmeErrorTable, tableDisagreements, uncataloguedCodes } from '@evident/contract/check';
import { CYPHER_ERRORS } from '@evident/cypher';
import { HTTP_ERRORS } from '@evident/http-guards';
import { KB_ERRORS, KB_EXTRACT_ERRORS } from '@evident/kb';
import { KB_SERVER_ERRORS, SURFACE_ERRORS } from '../src/surface/errors.js';

const src = fileURLToPath(new URL('../src', import.meta.url));
const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');

test('every code thrown in src is in a catalogue (HTTP, the library, kb-server)', () => {
  assert.deepEqual(uncataloguedCodes(src, SURFACE_ERRORS, { callees: ['httpError', 'kbServerError', 'KbError'] }), []);
});

test("the REST console's table lists every HTTP code with its status, and only catalogued codes", () => {
  const rows = readmeErrorTable(readme, 'REST console errors');
  const others = mergeCatalogues(KB_ERRORS, KB_EXTRACT_ERRORS, CYPHER_ERRORS);
  const startup = 'a startup failure: the bins print it and exit, no HTTP answer';
  const undocumented = { startup_failed: startup, invalid_log_level: startup };
  // provider_error also answers the provider's own 429 or 5xx: its row lists those.
  const problems = tableDisagreements(rows, mergeCatalogues(HTTP_ERRORS, KB_SERVER_ERRORS), { others, undocumented });
  assert.deepEqual(
    problems.filter((p) => !p.startsWith('provider_error: the table says 429, 5xx')),
    [],
  );
});

test("the MCP table lists only catalogued codes, and the library's validation codes", () => {
  const rows = readmeErrorTable(readme, 'MCP tool errors');
  const listed = new Set(rows.flatMap((r) => r.codes));
  const known = mergeCatalogues(SURFACE_ERRORS, KB_EXTRACT_ERRORS, CYPHER_ERRORS);
  assert.deepEqual(
    [...listed].filter((c) => !(c in known)),
    [],
  );
  const validation = Object.entries(KB_ERRORS)
    .filter(([, e]) => e.status === 400)
    .map(([c]) => c);
  assert.ok(validation.filter((c) => listed.has(c)).length >= 20, 'the validation and registry rows');
});
