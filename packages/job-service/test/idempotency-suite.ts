// Idempotency-Key on the submission routes, the same cases for both stores: a repeated request answers the first
// job again (same id and status, marked Idempotent-Replayed), another body under the same key is 409, concurrent
// requests with one key create one job, keys are per API key, bounded in length and forgotten after 24 hours.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fingerprintOf, IDEMPOTENCY_TTL_MS } from '../src/api/idempotency.js';
import type { Store } from '../src/store/types.js';
import { http, isErrorBody, type TestServer } from './helpers.js';

export interface IdempotencyMode {
  server: TestServer;
  /** Moves an idempotency record's creation time back by `ms` (as if it had been made that long ago). */
  age(keyId: string, idemKey: string, ms: number): Promise<void>;
}

export function idempotencySuite(mode: string, start: () => Promise<IdempotencyMode>, skip: string | false = false) {
  let m: IdempotencyMode;
  let s: TestServer;
  before(async () => {
    if (skip) return;
    m = await start();
    s = m.server;
  });
  after(async () => {
    if (skip) return;
    await s.cleanup();
  });

  const newKey = async (name: string) =>
    s.store.createKey({ name, plan: 'enterprise', rpm: 10_000, concurrency: 1000 });
  const post = (key: string, body: unknown, idem?: string) =>
    http(s.url, 'POST', '/v1/demo/run', { key, body, headers: idem === undefined ? {} : { 'idempotency-key': idem } });
  const jobsOf = async (key: string) => (await http(s.url, 'GET', '/v1/jobs?limit=100', { key })).body.jobs;

  test(`${mode}: the same key and body 11 times make one job; every answer is the first one`, { skip }, async () => {
    const k = await newKey('retries');
    const body = { items: 3, label: 'once' };
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(await post(k.key, body, 'order-7f3a'));
    for (const a of answers) {
      assert.equal(a.status, 202, a.text);
      assert.equal(a.text, answers[0]!.text, 'a replay is the first answer byte for byte');
      assert.equal(a.headers.get('location'), answers[0]!.headers.get('location'));
    }
    assert.equal(answers[0]!.headers.get('idempotent-replayed'), 'false');
    for (const a of answers.slice(1)) assert.equal(a.headers.get('idempotent-replayed'), 'true');
    const jobs = await jobsOf(k.key);
    assert.deepEqual(
      jobs.map((j: any) => j.job_id),
      [answers[0]!.body.job_id],
    );
    // Without a key every submission is a new job, as before.
    const a = await post(k.key, body);
    const b = await post(k.key, body);
    assert.notEqual(a.body.job_id, b.body.job_id);
    assert.equal(a.headers.get('idempotent-replayed'), null);
  });

  test(`${mode}: the same key with another body or route is 409 idempotency_key_reused`, { skip }, async () => {
    const k = await newKey('reuse');
    const first = await post(k.key, { items: 3 }, 'k-1');
    assert.equal(first.status, 202, first.text);
    // One more space is another request: the key stands for the bytes sent.
    for (const other of [{ items: 4 }, { items: 3, label: 'x' }]) {
      const r = await post(k.key, other, 'k-1');
      assert.equal(r.status, 409, r.text);
      assert.ok(isErrorBody(r.body));
      assert.equal(r.body.error.code, 'idempotency_key_reused');
      assert.match(r.body.error.message, /Idempotency-Key/);
    }
    const raw = await http(s.url, 'POST', '/v1/demo/run', {
      key: k.key,
      raw: '{"items": 3}',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'k-1' },
    });
    assert.equal(raw.status, 409, raw.text);
    // Another route is another request, whatever the body (no two kinds here take the same body).
    assert.notEqual(fingerprintOf('/v1/demo/run', 'd'), fingerprintOf('/v1/targets/discover', 'd'));
    assert.equal((await jobsOf(k.key)).length, 1, 'no job was made by the refused requests');
    // The original still replays.
    const again = await post(k.key, { items: 3 }, 'k-1');
    assert.equal(again.status, 202);
    assert.equal(again.body.job_id, first.body.job_id);
  });

  test(`${mode}: idempotency keys belong to one API key`, { skip }, async () => {
    const a = await newKey('scope-a');
    const b = await newKey('scope-b');
    const ra = await post(a.key, { items: 2 }, 'shared-key');
    const rb = await post(b.key, { items: 2 }, 'shared-key');
    assert.equal(ra.status, 202, ra.text);
    assert.equal(rb.status, 202, rb.text);
    assert.notEqual(ra.body.job_id, rb.body.job_id);
    assert.equal(rb.headers.get('idempotent-replayed'), 'false');
  });

  test(`${mode}: concurrent requests with one key create one job`, { skip }, async () => {
    const k = await newKey('concurrent');
    const body = { items: 5, label: 'race' };
    const answers = await Promise.all(Array.from({ length: 12 }, () => post(k.key, body, 'race-key')));
    for (const a of answers) assert.equal(a.status, 202, a.text);
    const ids = new Set(answers.map((a) => a.body.job_id));
    assert.equal(ids.size, 1, `one job id for all: ${[...ids].join(', ')}`);
    assert.equal(answers.filter((a) => a.headers.get('idempotent-replayed') === 'false').length, 1);
    assert.equal((await jobsOf(k.key)).length, 1);
  });

  test(`${mode}: the store records one job per key when inserts race`, { skip }, async () => {
    const k = await newKey('store-race');
    const store: Store = s.store;
    const claim = { key: 'store-race', fingerprint: 'f1', expiredAt: Date.now() - IDEMPOTENCY_TTL_MS };
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.insertJob(
          {
            id: `demo_storerace${i}`,
            key_id: k.key_id,
            kind: 'demo',
            max_attempts: 1,
            estimate_low: 1,
            estimate_high: 2,
            callback_url: null,
            input: Buffer.from('x'),
          },
          1000,
          claim,
        ),
      ),
    );
    const made = results.filter((r) => r.ok);
    assert.equal(made.length, 1);
    const madeId = (made[0] as { job: { id: string } }).job.id;
    for (const r of results) if (!r.ok) assert.equal('existing' in r && r.existing.job_id, madeId);
    assert.equal((await store.listJobs(k.key_id, { limit: 100 })).length, 1);
  });

  test(`${mode}: a large body (parsed on a thread) replays too`, { skip }, async () => {
    const k = await newKey('large');
    // Above the test server's inline limit: collected as bytes and hashed as they arrive.
    const raw = `{"items": 2, "label": "${'L'.repeat(150)}"}`;
    const send = (text: string) =>
      http(s.url, 'POST', '/v1/demo/run', {
        key: k.key,
        raw: text,
        headers: { 'content-type': 'application/json', 'idempotency-key': 'big' },
      });
    const first = await send(raw);
    const second = await send(raw);
    assert.equal(first.status, 202, first.text);
    assert.equal(second.status, 202, second.text);
    assert.equal(second.body.job_id, first.body.job_id);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    const other = await send(raw.replace('"items": 2', '"items": 3'));
    assert.equal(other.status, 409, other.text);
    assert.equal(other.body.error.code, 'idempotency_key_reused');
  });

  test(`${mode}: a refused request records nothing; the key then serves a corrected one`, { skip }, async () => {
    const k = await newKey('refused');
    const bad = await post(k.key, { items: 0 }, 'fix-me');
    assert.equal(bad.status, 400, bad.text);
    const good = await post(k.key, { items: 1 }, 'fix-me');
    assert.equal(good.status, 202, good.text);
    assert.equal(good.headers.get('idempotent-replayed'), 'false');
  });

  test(`${mode}: a key longer than 255 characters or empty is 400 naming the header`, { skip }, async () => {
    const k = await newKey('bounds');
    for (const bad of ['x'.repeat(256), '']) {
      const r = await post(k.key, { items: 1 }, bad);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.error.code, 'invalid_parameters');
      assert.equal(r.body.error.details[0].path, 'headers:/idempotency-key');
      assert.match(r.body.error.message, /idempotency-key/);
    }
    const longest = await post(k.key, { items: 1 }, 'y'.repeat(255));
    assert.equal(longest.status, 202, longest.text);
    assert.equal((await jobsOf(k.key)).length, 1);
  });

  test(`${mode}: after 24 hours a key is forgotten and makes a new job`, { skip }, async () => {
    const k = await newKey('expiry');
    const first = await post(k.key, { items: 2 }, 'daily');
    await m.age(k.key_id, 'daily', IDEMPOTENCY_TTL_MS - 60_000);
    const within = await post(k.key, { items: 2 }, 'daily');
    assert.equal(within.body.job_id, first.body.job_id, 'still remembered just under 24 h');
    await m.age(k.key_id, 'daily', 120_000);
    const later = await post(k.key, { items: 2 }, 'daily');
    assert.equal(later.status, 202, later.text);
    assert.notEqual(later.body.job_id, first.body.job_id);
    assert.equal(later.headers.get('idempotent-replayed'), 'false');
    // An expired key may also carry another body now.
    await m.age(k.key_id, 'daily', IDEMPOTENCY_TTL_MS + 1);
    const changed = await post(k.key, { items: 9 }, 'daily');
    assert.equal(changed.status, 202, changed.text);
    const replay = await post(k.key, { items: 9 }, 'daily');
    assert.equal(replay.body.job_id, changed.body.job_id);
  });

  test(`${mode}: the OpenAPI document declares the header, the replay marker and the 409`, { skip }, async () => {
    const doc = (await http(s.url, 'GET', '/v1/openapi.json')).body;
    for (const route of ['/v1/targets/discover', '/v1/compounds/generate']) {
      const op = doc.paths[route].post;
      const header = op.parameters.find((p: any) => p.in === 'header' && /^idempotency-key$/i.test(p.name));
      assert.ok(header, `${route} declares Idempotency-Key`);
      assert.equal(header.schema.maxLength, 255);
      assert.ok(op.responses['202'].headers['Idempotent-Replayed'], `${route} declares Idempotent-Replayed`);
      assert.ok(op.responses['409'], `${route} declares 409`);
    }
  });
}
