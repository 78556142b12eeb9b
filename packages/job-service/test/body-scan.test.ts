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
    opts: Type.Optional(
      Type.Object(
        {
          a: Type.Optional(Type.Number()),
          b: Type.Optional(Type.String({ maxLength: 3 })),
          text: Type.Optional(Type.String()),
          inner: Type.Optional(Type.Object({ c: Type.Boolean() }, { additionalProperties: false })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
const bounds = bodyBounds(Schema);

type Refusal = Error & { problems?: Array<{ path: string; message: string }> };

/** The scan's refusal of `text` fed in pieces of `step` bytes, or undefined. */
function refusal(text: string, step = text.length): Refusal | undefined {
  const s = new BodyScanner(bounds, 64);
  const b = Buffer.from(text);
  for (let i = 0; i < b.length; i += step) {
    const e = s.write(b.subarray(i, i + step)) as Refusal | undefined;
    if (e) return e;
  }
  return undefined;
}

/** The scan's verdict on `text` fed in pieces of `step` bytes: undefined, or [path, message] of its first problem. */
function scan(text: string, step = text.length): [string, string] | 'invalid_json' | undefined {
  const e = refusal(text, step);
  if (!e) return undefined;
  return e.problems ? [e.problems[0]!.path, e.problems[0]!.message] : 'invalid_json';
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
    // Members of an object whose schema lists its fields are followed and bounded one by one.
    [`{"opts":{"a":1,"b":"xyz","inner":{"c":true},"text":"${long}"},"name":"ok"}`, undefined],
    [`{"opts":{ "\\u0062" : "x" , "a" : -1.5e3 } , "name":"ok"}`, undefined],
    [
      `{"opts":{"b":"${'\\u0041'.repeat(4)}"}}`,
      ['/opts/b', 'is larger than any valid value (more than 20 bytes of JSON)'],
    ],
    [`{"opts":{"a":{${'"k":1,'.repeat(20)}"k":1}}}`, ['/opts/a', 'Expected number']],
    // Nested bounds: the first one crossed is named (here the whole object's, 17 bytes, before c's 64).
    [
      `{"opts":{"inner":{"c":"${long}"}}}`,
      ['/opts/inner', 'is larger than any valid value (more than 17 bytes of JSON)'],
    ],
    [
      `{"opts":{"inner":{"c":tru${'e'.repeat(30)}}}}`,
      ['/opts/inner/c', 'is larger than any valid value (more than 5 bytes of JSON)'],
    ],
    [`{"opts":{"zz":"${long}"}}`, ['/opts/zz', 'is not a known field']],
    // A member past its bound is refused even when it ends in the same step.
    [
      `{"opts":{"b":"${'\\u0041'.repeat(4)}"},"name":"ok"}`,
      ['/opts/b', 'is larger than any valid value (more than 20 bytes of JSON)'],
    ],
    // More unknown members than the full check would name: refused, naming them; small ones are left to it.
    [
      `{"opts":{${Array.from({ length: 101 }, (_, i) => `"k${i}":0`).join(',')}}}`,
      ['/opts/k0', 'is not a known field'],
    ],
    [`{"opts":{${Array.from({ length: 100 }, (_, i) => `"k${i}":0`).join(',')}}}`, undefined],
    [`{${Array.from({ length: 101 }, (_, i) => `"k${i}":0`).join(',')}}`, ['/k0', 'is not a known field']],
    // More members than any object may hold (repeated keys count).
    [
      `{"opts":{${'"a":1,'.repeat(1000)}"a":1}}`,
      ['/opts', 'has more than 1000 members (repeated keys count), the limit'],
    ],
    [`{"opts":{${'"a":1,'.repeat(999)}"a":1}}`, undefined],
  ];
  for (const [text, want] of cases) {
    for (const step of [1, 2, 3, 7, 1000]) assert.deepEqual(scan(text, step), want, `${text.slice(0, 60)} / ${step}`);
  }
});

test('an object of millions of unknown keys is refused at its 101st, naming the first 100', () => {
  const e = refusal(`{"opts":{${Array.from({ length: 5000 }, (_, i) => `"k${i}":0`).join(',')}}}`, 4096);
  assert.equal(e?.problems?.length, 100);
  assert.deepEqual(e?.problems?.[99], { path: '/opts/k99', message: 'is not a known field' });
});

test('strings of escapes are scanned in linear time: bytes searched stay within a few times the chunk', () => {
  // Every Buffer#indexOf the scan makes is counted by the bytes it looks at. The old scan searched for the closing
  // quote once per backslash: a chunk of n bytes of escapes cost about n²/12 bytes searched.
  let searched = 0;
  const counting = Object.create(Buffer.prototype, {
    indexOf: {
      value(this: Buffer, v: number, from: number) {
        const at = Buffer.prototype.indexOf.call(this, v, from);
        searched += (at === -1 ? this.length : at + 1) - from;
        return at;
      },
    },
  });
  for (const body of [
    `{"free":"${'\\u0041'.repeat(20_000)}"}`,
    `{"free":"${'\\\\'.repeat(60_000)}"}`,
    `{"free":"${'\\"'.repeat(60_000)}"}`,
  ]) {
    const chunk = Buffer.from(body);
    Object.setPrototypeOf(chunk, counting);
    searched = 0;
    assert.equal(new BodyScanner(bounds, 64).write(chunk), undefined);
    assert.ok(searched < 4 * chunk.length, `${searched} bytes searched for a chunk of ${chunk.length}`);
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
