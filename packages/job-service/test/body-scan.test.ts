// Large bodies are checked while they stream in: a value larger than its schema allows, a value of a type its
// field never takes, an unknown field, or a body that is not an object is refused before the body is kept whole.
// What the scan lets through is what the full check decides, byte for byte, whatever the chunking.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { bodyBounds, NUMBER_BYTES } from '../src/wire/body-bounds.js';
import { BodyScanner } from '../src/wire/body-scan.js';
import { ThreadPool } from '../src/runner/thread-pool.js';
import { TaskOutOfMemoryError } from '../src/runner/thread-errors.js';
import { demoKindModule, http, startTestServer, waitFor, type TestServer } from './helpers.js';

const Schema = Type.Object(
  {
    name: Type.String({ maxLength: 10 }),
    tags: Type.Optional(Type.Array(Type.String({ maxLength: 3 }), { maxItems: 2 })),
    n: Type.Optional(Type.Integer()),
    mode: Type.Optional(Type.Union([Type.Literal('a'), Type.Literal('bb')])),
    free: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
const bounds = bodyBounds(Schema);

/** The scan's verdict on `text` fed in pieces of `step` bytes: undefined, or [path, message]. */
function scan(text: string, step = text.length): [string, string] | 'invalid_json' | undefined {
  const s = new BodyScanner(bounds, 64);
  const b = Buffer.from(text);
  for (let i = 0; i < b.length; i += step) {
    const e = s.write(b.subarray(i, i + step)) as
      | (Error & { problems?: Array<{ path: string; message: string }> })
      | undefined;
    if (e) return e.problems ? [e.problems[0]!.path, e.problems[0]!.message] : 'invalid_json';
  }
  return undefined;
}

test('bounds: the largest JSON a valid value can take, per field and type', () => {
  assert.deepEqual(bounds.fields.get('name'), { string: 62 });
  assert.deepEqual(bounds.fields.get('tags'), { array: 2 + 2 * (20 + 1) });
  assert.deepEqual(bounds.fields.get('n'), { number: NUMBER_BYTES });
  assert.deepEqual(bounds.fields.get('mode'), { string: 14 });
  assert.deepEqual(bounds.fields.get('free'), { string: Number.POSITIVE_INFINITY });
  assert.equal(bounds.openFields, false);
  assert.equal(bounds.object, true);
});

test('the scan refuses only what the schema refuses, at every chunking', () => {
  const long = 'x'.repeat(100);
  const cases: Array<[string, ReturnType<typeof scan>]> = [
    [`{"name":"ok","tags":["a","b"],"n":5,"mode":"bb","free":"${long}"}`, undefined],
    // Escapes and quotes inside strings, whitespace anywhere, a key written with an escape.
    [`{ "na\\u006de" : "a\\"b\\\\" , "free" : "\\"${long}\\\\" }`, undefined],
    [`{"name":"${'\\u0041'.repeat(10)}"}`, undefined],
    [`{"name":"${long}"}`, ['/name', 'is larger than any valid value (more than 62 bytes of JSON)']],
    [
      `{"n":5,"name":"${'\\u0041'.repeat(11)}"}`,
      ['/name', 'is larger than any valid value (more than 62 bytes of JSON)'],
    ],
    [`{"tags":[${'"a",'.repeat(30)}"a"]}`, ['/tags', 'is larger than any valid value (more than 44 bytes of JSON)']],
    [`{"name":[${'1,'.repeat(40)}1]}`, ['/name', 'Expected string']],
    [`{"other":"${long}"}`, ['/other', 'is not a known field']],
    [`{"n":${'9'.repeat(500)}}`, ['/n', `is larger than any valid value (more than ${NUMBER_BYTES} bytes of JSON)`]],
    [`[${'1,'.repeat(10)}1]`, ['', 'Expected object']],
    [`\ufeff  "text"`, ['', 'Expected object']],
    ['xyz', 'invalid_json'],
    // Small wrong values are left to the full check, which names every problem.
    ['{"name":1,"n":"x","other":2}', undefined],
    // Text the scan does not follow is left to JSON.parse.
    [`{"name" "a", "free": "${long}"}`, undefined],
  ];
  for (const [text, want] of cases) {
    for (const step of [1, 2, 3, 7, 1000]) assert.deepEqual(scan(text, step), want, `${text.slice(0, 60)} / ${step}`);
  }
});

let s: TestServer;
let key: string;
before(async () => {
  s = await startTestServer({ inlineJsonLimitBytes: 1024, bodyLimitBytes: 64 * 1024 * 1024 });
  key = (await s.store.createKey({ name: 'scan', plan: 'enterprise', rpm: 1_000_000, concurrency: 10 })).key;
});
after(() => s.cleanup());

const post = (raw: string | Buffer) =>
  http(s.url, 'POST', '/v1/demo/run', { key, raw, headers: { 'content-type': 'application/json' } });

test('over HTTP: a 20 MB array or oversize field is refused with 400 naming the field; a valid body still runs', async () => {
  const array = Buffer.alloc(20 * 1024 * 1024, '1,');
  array[0] = 0x5b;
  array[array.length - 1] = 0x5d;
  const a = await post(array);
  assert.equal(a.status, 400);
  assert.deepEqual(a.body.error.details, [{ path: '', message: 'Expected object' }]);
  const label = await post(`{"items":1,"label":"${'x'.repeat(5 * 1024 * 1024)}"}`);
  assert.equal(label.status, 400);
  assert.equal(label.body.error.details[0].path, '/label');
  assert.match(label.body.error.details[0].message, /larger than any valid value/);
  const proto = await post(`{"items":1,"__proto__":{"a":1},"pad":"${' '.repeat(2048)}"}`);
  assert.equal(proto.status, 400);
  assert.equal(proto.body.error.code, 'invalid_parameters');
  const ok = await post(`{"items":1,${' '.repeat(2 * 1024 * 1024)}"label":"fine"}`);
  assert.equal(ok.status, 202, ok.text);
});

test('a large body is prepared on a thread of its own, which ends after it', async () => {
  const pool = new ThreadPool(1, { kindModules: [demoKindModule], oneShot: true });
  try {
    assert.equal(pool.threads, 0, 'no thread until a task comes');
    const raw = new Uint8Array(Buffer.from(`{"items":2,${' '.repeat(4096)}"label":"x"}`));
    const r = await pool.run({ type: 'prepare-raw', kind: 'demo', raw }).result;
    assert.equal(r.type, 'prepared');
    await waitFor(async () => pool.threads === 0);
  } finally {
    await pool.close();
  }
});

test('a body that needs more heap than the thread may have fails alone, typed 413', async () => {
  const pool = new ThreadPool(1, {
    kindModules: [demoKindModule],
    oneShot: true,
    resourceLimits: { maxOldGenerationSizeMb: 24, maxYoungGenerationSizeMb: 8 },
  });
  try {
    // Millions of small objects: a few MB of text, far more heap once parsed.
    const raw = new Uint8Array(Buffer.from(`{"items":1,"x":[${'{"a":[1]},'.repeat(1_500_000)}0]}`));
    await assert.rejects(pool.run({ type: 'prepare-raw', kind: 'demo', raw }).result, (e) => {
      assert.ok(e instanceof TaskOutOfMemoryError, String(e));
      assert.equal(e.status, 413);
      return true;
    });
    const ok = await pool.run({ type: 'prepare-raw', kind: 'demo', raw: new Uint8Array(Buffer.from('{"items":1}')) })
      .result;
    assert.equal(ok.type, 'prepared');
  } finally {
    await pool.close();
  }
});
