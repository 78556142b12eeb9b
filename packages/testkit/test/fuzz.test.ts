// The fuzz runner's answer check: what counts as a conforming answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nonConformity, rng, type FuzzAnswer, type FuzzRequest } from '../src/fuzz.js';

const req = (over: Partial<FuzzRequest> = {}): FuzzRequest => ({ why: 't', method: 'POST', path: '/x', ...over });
const ans = (status: number, text = '{"error":{"code":"c","message":"m"}}', contentType = 'application/json') =>
  ({ status, text, contentType, ms: 1 }) as FuzzAnswer;

test('an answer conforms when it is a 4xx in the error shape with an allowed status', () => {
  assert.equal(nonConformity(req(), ans(400)), undefined);
  assert.equal(nonConformity(req({ expect: [405] }), ans(400)), '400, expected 405');
  assert.equal(nonConformity(req(), ans(500)), '500');
  assert.equal(nonConformity(req(), ans(200, '{}')), '200 for a request that must be refused');
  assert.equal(nonConformity(req({ mayPass: true }), ans(201, '{}')), undefined);
  assert.equal(nonConformity(req(), ans(400, '{"message":"x"}')), 'not { error: { code, message } }');
  assert.equal(nonConformity(req(), ans(400, 'Bad Request', 'text/plain')), 'content-type text/plain');
  assert.equal(nonConformity(req(), ans(400, 'nope')), 'a body that is not JSON');
  assert.equal(nonConformity(req({ method: 'HEAD' }), ans(405, '')), undefined);
  assert.equal(nonConformity(req({ method: 'HEAD' }), ans(405, 'x')), 'a body on a HEAD answer');
  assert.equal(nonConformity(req(), ans(-1, '')), 'no answer (connection failed or reset)');
  assert.equal(nonConformity(req({ mayReset: true }), ans(-1, '')), undefined);
});

test('the generator is seeded: the same seed gives the same sequence', () => {
  const a = rng(7);
  const b = rng(7);
  const xs = Array.from({ length: 5 }, () => a());
  assert.deepEqual(
    xs,
    Array.from({ length: 5 }, () => b()),
  );
  assert.ok(xs.every((x) => x >= 0 && x < 1));
  assert.notDeepEqual(xs, Array.from({ length: 5 }, rng(8)));
});
