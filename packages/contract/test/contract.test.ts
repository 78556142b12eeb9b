import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import {
  EvidentError,
  InvalidParametersError,
  deserializeError,
  fieldToPointer,
  monotonicProgress,
  pointer,
  serializeError,
  summarizeProblems,
  toWireError,
} from '../src/index.js';

class ThingNotFound extends EvidentError {
  constructor(id: string) {
    super('not_found', `no thing ${id}`, { status: 404 });
  }
}

test('a caller error maps to its status and code; problems become details', () => {
  const e = new InvalidParametersError([
    { path: '/a/0', message: 'must be a number' },
    { path: '', message: 'unknown field x' },
  ]);
  const w = toWireError(e);
  assert.equal(w.status, 400);
  assert.equal(w.internal, false);
  assert.deepEqual(w.body, {
    error: {
      code: 'invalid_parameters',
      message: '/a/0: must be a number; unknown field x',
      details: [
        { path: '/a/0', message: 'must be a number' },
        { path: '', message: 'unknown field x' },
      ],
    },
  });
  assert.equal(e.name, 'InvalidParametersError');
  const nf = toWireError(new ThingNotFound('7'));
  assert.deepEqual([nf.status, nf.body.error.code, nf.body.error.details], [404, 'not_found', undefined]);
});

test('an untyped error is internal: generic message, request id, never its text', () => {
  const w = toWireError(new Error('secret path /etc/x'), { requestId: 'r1' });
  assert.equal(w.status, 500);
  assert.equal(w.internal, true);
  assert.deepEqual(w.body, { error: { code: 'internal_error', message: 'internal error', request_id: 'r1' } });
  // A typed error without a status is also a fault of ours.
  assert.equal(toWireError(new EvidentError('corrupt', 'bad log')).body.error.code, 'internal_error');
  const closed = toWireError(new EvidentError('closed', 'the base is closed', { status: 503 }));
  assert.deepEqual([closed.status, closed.body.error.code, closed.internal], [503, 'closed', true]);
});

test('errors cross a worker thread and come back with code, status, problems and name', async () => {
  const src = `
    const { parentPort } = require('node:worker_threads');
    parentPort.on('message', (m) => parentPort.postMessage(m));`;
  const w = new Worker(src, { eval: true });
  const sent = serializeError(new InvalidParametersError([{ path: '/x', message: 'bad' }]));
  const back = await new Promise<ReturnType<typeof serializeError>>((r) => {
    w.once('message', r);
    w.postMessage(sent);
  });
  await w.terminate();
  const e = deserializeError(back);
  assert.ok(e instanceof EvidentError);
  assert.deepEqual(
    [e.name, e.code, e.status, e.problems],
    ['InvalidParametersError', 'invalid_parameters', 400, [{ path: '/x', message: 'bad' }]],
  );
  assert.deepEqual(serializeError(new TypeError('boom')), {
    name: 'TypeError',
    code: 'internal_error',
    message: 'boom',
  });
});

test("an error's data reaches a 4xx body as error.data and crosses a thread; a 5xx never shows it", async () => {
  const data = { plan: { operator: 'Expand', rows: 3, children: [] } };
  const limited = new EvidentError('cypher_timeout', 'too slow', { status: 408, data });
  assert.deepEqual(toWireError(limited).body.error, { code: 'cypher_timeout', message: 'too slow', data });
  assert.equal(toWireError(new EvidentError('x', 'y', { status: 503, data })).body.error.data, undefined);
  assert.equal(toWireError(new EvidentError('x', 'y', { status: 400 })).body.error.data, undefined);
  const w = new Worker(
    "require('node:worker_threads').parentPort.on('message', (m, p) => require('node:worker_threads').parentPort.postMessage(m))",
    { eval: true },
  );
  const back = await new Promise<ReturnType<typeof serializeError>>((r) => {
    w.once('message', r);
    w.postMessage(serializeError(limited));
  });
  await w.terminate();
  assert.deepEqual(deserializeError(back).data, data);
});

test('field names become JSON pointers', () => {
  assert.equal(fieldToPointer('claims[3].provenance.derived_from[0]'), '/claims/3/provenance/derived_from/0');
  assert.equal(fieldToPointer('subject'), '/subject');
  assert.equal(fieldToPointer('/already/pointer'), '/already/pointer');
  assert.equal(fieldToPointer(''), '');
  assert.equal(pointer('a/b', 'c~d', 2), '/a~1b/c~0d/2');
});

test('summaries cut long problem lists', () => {
  const many = Array.from({ length: 8 }, (_, i) => ({ path: `/p${i}`, message: 'bad' }));
  assert.equal(summarizeProblems(many, 2), '/p0: bad; /p1: bad; and 6 more');
  assert.equal(summarizeProblems([]), 'the input is invalid');
});

test('progress is clamped and never goes back', () => {
  const seen: [string, number][] = [];
  const report = monotonicProgress({ progress: (s, f) => seen.push([s, f]) });
  report('a', 0.2);
  report('a', 0.1);
  report('b', 0.2);
  report('c', 1.5);
  report('d', -1);
  assert.deepEqual(seen, [
    ['a', 0.2],
    ['b', 0.2],
    ['c', 1],
  ]);
  monotonicProgress({})('x', 0.5); // no hook: nothing to call
});
