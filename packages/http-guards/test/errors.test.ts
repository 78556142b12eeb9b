// The shared HTTP codes and the one error handler of both servers (issue 39, point 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EvidentError, InvalidParametersError } from '@evident/contract';
import { readmeErrorTable, tableDisagreements, uncataloguedCodes } from '@evident/contract/check';
import { errorHandler, HTTP_ERRORS, httpError, toHttpError } from '../src/index.js';

const src = fileURLToPath(new URL('../src', import.meta.url));
const readme = fileURLToPath(new URL('../README.md', import.meta.url));

test('every code in src is in HTTP_ERRORS, and the README table agrees with it', () => {
  assert.deepEqual(uncataloguedCodes(src, HTTP_ERRORS, { callees: ['httpError', 'rawErrorResponse'] }), []);
  const rows = readmeErrorTable(readFileSync(readme, 'utf8'), 'Error codes');
  assert.deepEqual(tableDisagreements(rows, HTTP_ERRORS), []);
});

const fastifyError = (code: string, statusCode: number, message = 'x') =>
  Object.assign(new Error(message), { code, statusCode });

test("Fastify's errors in the shared codes; ours as they are; anything else stays ours (500)", () => {
  const codeOf = (e: unknown) => {
    const h = toHttpError(e) as EvidentError;
    return [h.status, h.code];
  };
  assert.deepEqual(codeOf(fastifyError('FST_ERR_CTP_BODY_TOO_LARGE', 413)), [413, 'payload_too_large']);
  assert.deepEqual(codeOf(fastifyError('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415)), [415, 'unsupported_media_type']);
  assert.deepEqual(codeOf(fastifyError('FST_ERR_CTP_INVALID_JSON_BODY', 400)), [400, 'invalid_json']);
  assert.deepEqual(codeOf(new SyntaxError('Unexpected token')), [400, 'invalid_json']);
  assert.deepEqual(codeOf(fastifyError('FST_ERR_BAD_URL', 400)), [400, 'invalid_request']);
  assert.deepEqual(codeOf(fastifyError('FST_ERR_NOT_FOUND', 404)), [404, 'not_found']);
  const ours = new InvalidParametersError([{ path: '/a', message: 'bad' }]);
  assert.equal(toHttpError(ours), ours);
  const bug = new TypeError('x is undefined');
  assert.equal(toHttpError(bug), bug);
  assert.equal(httpError('host_not_allowed', 'no').status, 421);
});

function fakeReply() {
  const sent: { status?: number; headers: Record<string, string>; body?: unknown } = { headers: {} };
  const reply = {
    code(s: number) {
      sent.status = s;
      return reply;
    },
    header(k: string, v: string) {
      sent.headers[k] = v;
      return reply;
    },
    send(b: unknown) {
      sent.body = b;
      return reply;
    },
  };
  return { reply, sent };
}

test('the handler answers the wire body, logs a 5xx with its request id, and sets Retry-After when told', () => {
  const logged: object[] = [];
  const req = { id: 'r1', log: { error: (o: object) => logged.push(o) } };
  const handle = errorHandler({ requestIdInMessage: true });
  let { reply, sent } = fakeReply();
  handle(new Error('secret'), req, reply);
  assert.deepEqual(sent.body, {
    error: { code: 'internal_error', message: 'internal error (request id r1)', request_id: 'r1' },
  });
  assert.equal(sent.status, 500);
  assert.equal(logged.length, 1);
  ({ reply, sent } = fakeReply());
  const busy = Object.assign(new EvidentError('busy', 'wait', { status: 429 }), { retry_after_s: 3 });
  handle(busy, req, reply);
  assert.deepEqual([sent.status, sent.headers['retry-after'], logged.length], [429, '3', 1]);
  // A server's own mapping first, and its own answer when it takes one.
  ({ reply, sent } = fakeReply());
  const pages = errorHandler<typeof req, typeof reply>({
    toError: () => httpError('not_found', 'no such job'),
    answer: (wire, _req, rep) => {
      rep.code(wire.status).send(`<p>${wire.body.error.message}</p>`);
      return true;
    },
  });
  pages(new Error('anything'), req, reply);
  assert.deepEqual([sent.status, sent.body], [404, '<p>no such job</p>']);
});

test("a body the client stopped sending (Node's 'aborted' ECONNRESET) is a 4xx, not logged as the server's failure", () => {
  const logged: object[] = [];
  const req = { id: 'r2', log: { error: (o: object) => logged.push(o) } };
  const { reply, sent } = fakeReply();
  const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
  errorHandler()(aborted, req, reply);
  assert.equal(sent.status, 400);
  assert.equal((sent.body as { error: { code: string } }).error.code, 'invalid_request');
  assert.equal(logged.length, 0);
  // Any other reset is still the server's to log.
  const other = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
  errorHandler()(other, req, fakeReply().reply);
  assert.equal(logged.length, 1);
});
