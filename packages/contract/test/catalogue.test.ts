import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineCatalogue, errorMaker, mergeCatalogues, statusOf, toWireError } from '../src/index.js';
import { readmeErrorTable, scanThrownCodes, tableDisagreements, uncataloguedCodes } from '../src/check-catalogue.js';

const codes = defineCatalogue({
  not_found: { status: 404, meaning: 'no such thing' },
  job_failed: { status: null, meaning: 'a job ended in error' },
});

test('an error made from the catalogue takes its status; a null status is ours (500)', () => {
  const make = errorMaker(codes);
  const nf = toWireError(make('not_found', 'no thing 7'));
  assert.deepEqual([nf.status, nf.body.error.code], [404, 'not_found']);
  assert.equal(make('job_failed', 'x').status, undefined);
  assert.equal(statusOf(codes, 'not_found'), 404);
  assert.throws(() => statusOf(codes, 'nope' as 'not_found'), /not in the catalogue/);
});

test('a catalogue refuses a code that is not snake_case, a status that is not an error, two statuses for a code', () => {
  assert.throws(() => defineCatalogue({ NotFound: { status: 404, meaning: '' } }), /snake_case/);
  assert.throws(() => defineCatalogue({ ok: { status: 200, meaning: '' } }), /not an HTTP error status/);
  const other = defineCatalogue({ not_found: { status: 410, meaning: '' } });
  assert.throws(() => mergeCatalogues(codes, other), /status 404 in one catalogue, 410/);
  assert.deepEqual(Object.keys(mergeCatalogues(codes, defineCatalogue({ busy: { status: 429, meaning: '' } }))), [
    'not_found',
    'job_failed',
    'busy',
  ]);
});

test('the scan finds codes in code: literals, super calls and named callees, with file and line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catalogue-'));
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'a.ts'), "const x = 1;\nthrow new ThingError('not_found', 'x');\n");
  writeFileSync(join(dir, 'sub', 'b.ts'), "super('gone_away', 'y');\nreturn { code: 'kind_of_thing' };\n");
  writeFileSync(join(dir, 'sub', 'c.d.ts'), "super('ignored', 'y');\n");
  const found = scanThrownCodes(dir, { callees: ['ThingError'], ignore: ['kind_of_thing'] });
  assert.deepEqual(Object.fromEntries(found), { not_found: ['a.ts:2'], gone_away: ['sub/b.ts:1'] });
  assert.deepEqual(uncataloguedCodes(dir, codes, { callees: ['ThingError'], ignore: ['kind_of_thing'] }), [
    'gone_away (sub/b.ts:1)',
  ]);
});

test('a README table that disagrees with the catalogue is named line by line', () => {
  const md = [
    '## Errors',
    '',
    '| Status | `code` | When |',
    '| --- | --- | --- |',
    '| 404 | `not_found` | no such thing |',
    '| 4xx | the codes of the table above: `x_y` | ignored |',
    '| 409 | `job_failed`, `busy` | listed wrong |',
    '| 500 | `extra_code` | not catalogued |',
    '',
    '## Next',
  ].join('\n');
  const rows = readmeErrorTable(md, 'Errors');
  assert.deepEqual(rows[0], { codes: ['not_found'], statuses: ['404'] });
  assert.deepEqual(tableDisagreements(rows, codes, { nullStatus: 'job' }), [
    'job_failed: the table says 409, the catalogue job',
    'busy: in the table, in no catalogue',
    'extra_code: in the table, in no catalogue',
  ]);
  const good = '## Errors\n\n| code | status |\n| - | - |\n| `not_found` | 4xx |\n| `job_failed` | job |\n';
  assert.deepEqual(tableDisagreements(readmeErrorTable(good, 'Errors'), codes, { nullStatus: 'job' }), []);
  const missing = '## Errors\n\n| code | status |\n| - | - |\n| `not_found` | 404 |\n';
  assert.deepEqual(tableDisagreements(readmeErrorTable(missing, 'Errors'), codes), [
    'job_failed: in the catalogue, not in the table',
  ]);
});
