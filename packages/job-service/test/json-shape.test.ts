// Deeply nested bodies (issue 37, point 6): a body nesting arrays and objects deeper than MAX_JSON_DEPTH is a 400
// naming the limit and the path, on every route, with or without a key, inline or on the large-body thread; it is
// never walked recursively (the old forbidden-key walk overflowed the stack: 500 and a stack trace in the log).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_JSON_DEPTH } from '../src/wire/json-shape.js';
import { http, startTestServer, type TestServer } from './helpers.js';

const INLINE = 512 * 1024;
let s: TestServer;
let key: string;
/** Every log line at level error (50) or above. */
const errors: unknown[] = [];

before(async () => {
  s = await startTestServer(
    { inlineJsonLimitBytes: INLINE, logLevel: 'info' },
    {
      logger: {
        hooks: {
          logMethod(args, _method, level) {
            if (level >= 50) errors.push(args);
          },
        },
      },
    },
  );
  key = (await s.store.createKey({ name: 'deep', plan: 'researcher' })).key;
});
after(() => s.cleanup());

const json = { 'content-type': 'application/json' };
const post = (path: string, raw: string, withKey = true) =>
  http(s.url, 'POST', path, { key: withKey ? key : undefined, raw, headers: json });

const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

function assertTooDeep(r: Awaited<ReturnType<typeof post>>, path: string): void {
  assert.equal(r.status, 400, r.text);
  assert.equal(r.body.error.code, 'invalid_parameters');
  assert.match(r.body.error.message, new RegExp(`deeper than ${MAX_JSON_DEPTH} levels`));
  assert.deepEqual(r.body.error.details, [
    { path, message: `nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels (the limit)` },
  ]);
}

test('bodies nested 80,000-100,000 levels deep are 400 naming the limit, on unknown routes and without a key', async () => {
  const deepArrays = arrays(100_000);
  const deepObjects = objects(80_000);
  assert.ok(deepObjects.length < INLINE && deepArrays.length < INLINE, 'parsed inline');
  for (const [path, withKey] of [
    ['/v1/nothing', false],
    ['/v1/nothing', true],
    ['/v1/demo/run', true],
  ] as const) {
    assertTooDeep(await post(path, deepArrays, withKey), '/0'.repeat(MAX_JSON_DEPTH));
    assertTooDeep(await post(path, deepObjects, withKey), '/a'.repeat(MAX_JSON_DEPTH));
  }
  // A known route authenticates before it reads the body.
  assert.equal((await post('/v1/demo/run', deepArrays, false)).status, 401);
  // Unterminated nesting (not JSON at all) is refused by the same bound.
  assertTooDeep(await post('/v1/demo/run', '['.repeat(5000)), '/0'.repeat(MAX_JSON_DEPTH));
});

test('the path names the value that crosses the limit: keys (escapes decoded) and indexes', async () => {
  const inner = `${'['.repeat(MAX_JSON_DEPTH - 2)}1${']'.repeat(MAX_JSON_DEPTH - 2)}`;
  const body = `{"items":1,"extra":[0,{"k\\u00e9y":[1,"]",${inner}]}]}`;
  // extra (2) / 1 (3) / "kéy" (4) / 2 → 62 more levels inside.
  const r = await post('/v1/demo/run', body);
  assertTooDeep(r, `/extra/1/kéy/2${'/0'.repeat(MAX_JSON_DEPTH - 4)}`);
});

test('nesting up to the limit is parsed and checked as usual; brackets inside strings do not count', async () => {
  const atLimit = `{"items":1,"extra":${arrays(MAX_JSON_DEPTH - 1)}}`;
  const r = await post('/v1/demo/run', atLimit);
  assert.equal(r.status, 400);
  assert.deepEqual(r.body.error.details, [{ path: '/extra', message: 'is not a known field' }]);
  const label = `[{"\\"${'['.repeat(150)}`;
  const ok = await post('/v1/demo/run', JSON.stringify({ items: 1, label }));
  assert.equal(ok.status, 202, ok.text);
});

test('a large body (parsed on its thread) gets the same answer as a small one', async () => {
  const deep = `"extra":${arrays(30_000)}`;
  const small = await post('/v1/demo/run', `{"items":1,${deep}}`);
  // Whitespace past the inline limit sends the body to the large-body thread; the unknown field stays under the
  // stray-value bound of the streaming scan, so the thread decides.
  const large = await post('/v1/demo/run', `{${' '.repeat(INLINE + 10)}"items":1,${deep}}`);
  assertTooDeep(small, `/extra${'/0'.repeat(MAX_JSON_DEPTH - 1)}`);
  assert.deepEqual(large.body.error, small.body.error);
});

test('large deep bodies on routes that never parse them answer as those routes do', async () => {
  // Above the inline limit a body is only scanned as it streams in: a route without a body schema (an unknown
  // one) answers 401/404 without parsing it; a submission refuses a body that is not an object at its first byte.
  const deep = arrays(INLINE);
  assert.equal((await post('/v1/nothing', deep, false)).status, 401);
  const unknown = await post('/v1/nothing', deep);
  assert.equal(unknown.status, 404, unknown.text);
  assert.equal(unknown.body.error.code, 'not_found');
  const submit = await post('/v1/demo/run', deep);
  assert.deepEqual(submit.body.error.details, [{ path: '', message: 'Expected object' }]);
});

test('no error was logged for these client errors, and the server still serves', async () => {
  assert.deepEqual(errors, []);
  assert.equal((await http(s.url, 'GET', '/healthz')).status, 200);
});
