// Bodies shaped to make the parse slow (issue 37, point 8): an object of millions of keys is a client error found
// while the body arrives (400 naming the field, before the rest is even sent), never a prepare_timeout; every
// object, inline or large, holds at most MAX_OBJECT_MEMBERS members; base64 written with \u escapes is read as
// what it is, the same answer as the plain text.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { portOf, rawRequest } from '@evident/testkit';
import { MAX_OBJECT_MEMBERS } from '../src/wire/json-shape.js';
import { http, startTestServer, type TestServer } from './helpers.js';

const INLINE = 256 * 1024;
let s: TestServer;
let key: string;
before(async () => {
  s = await startTestServer({ inlineJsonLimitBytes: INLINE, requestTimeoutMs: 60_000 });
  key = (await s.store.createKey({ name: 'shape', plan: 'enterprise', rpm: 1_000_000, concurrency: 10 })).key;
});
after(() => s.cleanup());

const request = JSON.parse(
  readFileSync(new URL('../../target-discovery/examples/request.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;
/** The example request with `options` written as `text`. */
const withOptions = (text: string) =>
  JSON.stringify({ ...request, options: 'X' }).replace('"options":"X"', `"options":${text}`);
const keys = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `"k${from + i}":0`).join(',');

/**
 * Sends the headers of a body of `declared` bytes and only its first `sent` bytes, and reads what the server
 * answers meanwhile: a refusal found while the body arrives comes before the rest of the body does.
 */
async function partial(path: string, body: string, declared: number): Promise<Awaited<ReturnType<typeof rawRequest>>> {
  const head =
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`;
  return rawRequest(portOf(s.url), Buffer.concat([Buffer.from(head), Buffer.from(body)]), 10_000);
}

test('options with millions of unknown keys: 400 naming the first 100, before the body has arrived', async () => {
  // The start of an 80 MB body (7.9M keys in the issue): 2 MB of it, about 150,000 keys.
  const start = withOptions(`{${keys(150_000)},`).slice(0, -1);
  const r = await partial('/v1/targets/discover', start, 80 * 1024 * 1024);
  assert.equal(r.status, 400, r.text);
  assert.equal(r.body.error.code, 'invalid_parameters');
  assert.equal(r.body.error.details.length, 100);
  assert.deepEqual(r.body.error.details[0], { path: '/options/k0', message: 'is not a known field' });
});

test('a known option holding an object of millions of keys: 400 naming it, before the body has arrived', async () => {
  const start = withOptions(`{"min_fold_change":{${keys(150_000)}`);
  const r = await partial('/v1/targets/discover', start, 80 * 1024 * 1024);
  assert.equal(r.status, 400, r.text);
  assert.deepEqual(r.body.error.details, [{ path: '/options/min_fold_change', message: 'Expected number' }]);
});

test('a known option repeated millions of times: 400, the object has more members than the limit', async () => {
  const start = withOptions(`{${'"max_pvalue":0.1,'.repeat(100_000)}`);
  const r = await partial('/v1/targets/discover', start, 80 * 1024 * 1024);
  assert.equal(r.status, 400, r.text);
  assert.deepEqual(r.body.error.details, [
    { path: '/options', message: `has more than ${MAX_OBJECT_MEMBERS} members (repeated keys count), the limit` },
  ]);
});

test('inline bodies: the same member limit, with the same answer as a large body', async () => {
  const repeated = `{${'"items":1,'.repeat(MAX_OBJECT_MEMBERS)}"items":1}`;
  assert.ok(repeated.length < INLINE);
  const small = await http(s.url, 'POST', '/v1/demo/run', {
    key,
    raw: repeated,
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(small.status, 400, small.text);
  assert.deepEqual(small.body.error.details, [
    { path: '', message: `has more than ${MAX_OBJECT_MEMBERS} members (repeated keys count), the limit` },
  ]);
  const large = await http(s.url, 'POST', '/v1/demo/run', {
    key,
    raw: `{${' '.repeat(INLINE)}${repeated.slice(1)}`,
    headers: { 'content-type': 'application/json' },
  });
  assert.deepEqual(large.body, small.body);
  // At the limit, repeated keys are still read as JSON reads them (the last one wins).
  const atLimit = await http(s.url, 'POST', '/v1/demo/run', {
    key,
    raw: `{${'"items":1,'.repeat(MAX_OBJECT_MEMBERS - 1)}"items":2}`,
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(atLimit.status, 202, atLimit.text);
});

test('a matrix written with \\u escapes is read as the plain one: the same answer, large or small', async () => {
  const asEscapes = (text: string) =>
    [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  const matrix = request.expression_matrix as string;
  const escaped = JSON.stringify({ ...request, expression_matrix: 'X' }).replace('"X"', `"${asEscapes(matrix)}"`);
  assert.ok(escaped.length > INLINE, 'takes the large-body path');
  assert.deepEqual(JSON.parse(escaped), request);
  const plain = await http(s.url, 'POST', '/v1/targets/discover', { key, body: request });
  const large = await http(s.url, 'POST', '/v1/targets/discover', {
    key,
    raw: escaped,
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(plain.status, 202, plain.text);
  assert.equal(large.status, 202, large.text);
  for (const r of [plain, large]) await http(s.url, 'DELETE', `/v1/jobs/${r.body.job_id}`, { key });
});
