// The codes both HTTP servers (the job API and the KB console) answer for conditions of HTTP itself, in one table,
// and the one error handler they both install: any error → toWireError (@evident/contract) → status and body, with
// Fastify's own errors (body parsing and limits, router failures) in these codes. A server adds only what is its
// own: its schema errors, an HTML page for a browser, the request id in a 5xx's message.
import {
  defineCatalogue,
  errorMaker,
  EvidentError,
  INTERNAL_ERROR,
  toWireError,
  type WireError,
} from '@evident/contract';

// Deliberate likeness: every package's catalogue has this shape (code → status and meaning, by defineCatalogue),
// which the duplicates tool pairs across packages; the rows are this package's own.
/** Codes of HTTP itself, the same on both servers: code → status, meaning. */
export const HTTP_ERRORS = defineCatalogue({
  invalid_parameters: { status: 400, meaning: 'the body, query or path parameters do not match their schema' },
  invalid_json: { status: 400, meaning: 'a body that is not valid JSON (or is empty with a JSON Content-Type)' },
  invalid_request: {
    status: 400,
    meaning: 'a malformed URL, a Content-Length that does not match the body, or a request the HTTP parser refuses',
  },
  unauthorized: { status: 401, meaning: 'a missing or wrong credential' },
  not_found: { status: 404, meaning: 'no such resource, or no such route' },
  method_not_allowed: {
    status: 405,
    meaning: 'a known path asked with another method, or CONNECT; Allow lists the methods',
  },
  request_timeout: { status: 408, meaning: 'the headers or the body did not arrive in time; the connection closes' },
  payload_too_large: { status: 413, meaning: 'a body larger than the limit' },
  unsupported_media_type: { status: 415, meaning: 'a body that is not application/json' },
  expectation_failed: { status: 417, meaning: 'an Expect other than 100-continue; the connection closes' },
  host_not_allowed: { status: 421, meaning: 'a Host header that is not a name of this server' },
  too_many_connections: { status: 429, meaning: "more connections from the client's address than the cap" },
  headers_too_large: { status: 431, meaning: "headers larger than Node's limit; the connection closes" },
  [INTERNAL_ERROR]: { status: 500, meaning: 'anything else: logged with the request id, answered without internals' },
});

export type HttpErrorCode = keyof typeof HTTP_ERRORS;

/** An EvidentError of HTTP itself, its status from HTTP_ERRORS. */
export const httpError = errorMaker(HTTP_ERRORS);

/** Fastify's errors (code FST_*) that a client caused, in the shared codes. */
const FASTIFY_CODES: Record<string, [HttpErrorCode, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'the request body is larger than the configured limit'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'send the body as application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['invalid_request', 'the Content-Length does not match the body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['invalid_json', 'the body is empty but Content-Type says JSON'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['invalid_json', 'the body is not valid JSON'],
};

interface FrameworkError {
  code?: string;
  statusCode?: number;
  message: string;
}

/**
 * Any error as an EvidentError a surface can answer: ours as they are; Fastify's in the shared codes (a JSON
 * body with a `__proto__` or `constructor.prototype` key is `invalid_json` naming it); any other 4xx Fastify
 * raised is `invalid_request` (404: `not_found`); anything else is returned as it is (a 500 of ours).
 */
export function toHttpError(err: unknown): unknown {
  if (err instanceof EvidentError) return err;
  if (isClientAbort(err))
    return httpError('invalid_request', 'the client closed the connection before the body was read');
  const fe = err as FrameworkError;
  const mapped = typeof fe?.code === 'string' ? FASTIFY_CODES[fe.code] : undefined;
  if (mapped) return httpError(mapped[0], mapped[1]);
  if (err instanceof SyntaxError) return httpError('invalid_json', 'the body is not valid JSON');
  if (fe?.statusCode === 400 && /prototype|constructor/i.test(fe.message))
    return httpError('invalid_json', 'the body contains a forbidden key (__proto__ or constructor.prototype)');
  if (typeof fe?.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500)
    return fe.statusCode === 404 ? httpError('not_found', fe.message) : httpError('invalid_request', fe.message);
  return err;
}

/**
 * Node's error for a request body the client stopped sending (its socket closed mid-body): the client's doing,
 * answered as a 4xx nobody reads and never logged as the server's failure.
 */
export function isClientAbort(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e?.code === 'ECONNRESET' && e.message === 'aborted';
}

/** What the handler needs of Fastify's request and reply (so that this package does not depend on Fastify). */
export interface ErrorRequest {
  id: string;
  log: { error(obj: object, msg: string): void };
}
export interface ErrorReply {
  code(status: number): ErrorReply;
  header(name: string, value: string): ErrorReply;
  send(body: unknown): unknown;
}

export interface ErrorHandlerOptions<Req extends ErrorRequest, Rep extends ErrorReply> {
  /** The server's own mapping, tried first (its schema errors); what it returns goes on to toHttpError. */
  toError?(err: unknown): unknown;
  /** The request id also in a 5xx's message, not only in `error.request_id` (the console's operators read it). */
  requestIdInMessage?: boolean;
  /** Answers the error itself when it returns true (a page for a browser); else the JSON body is sent. */
  answer?(wire: WireError, req: Req, reply: Rep): boolean;
}

/** Seconds to wait before retrying, from an error that says (the job API's 429s, kb-core's `busy`). */
function retryAfterOf(e: unknown): number | undefined {
  const r = e as { retryAfter?: unknown; retry_after_s?: unknown } | null;
  const s = r?.retryAfter ?? r?.retry_after_s;
  return typeof s === 'number' && Number.isFinite(s) ? s : undefined;
}

/**
 * The one error handler of both servers (Fastify's `setErrorHandler`): the error through toHttpError and
 * toWireError; a 5xx of ours logged with the request id, which its body carries; Retry-After when the error
 * says when to try again.
 */
export function errorHandler<Req extends ErrorRequest, Rep extends ErrorReply>(
  options: ErrorHandlerOptions<Req, Rep> = {},
) {
  return (err: unknown, req: Req, reply: Rep): unknown => {
    const e = toHttpError(options.toError ? options.toError(err) : err);
    const wire = toWireError(e, { requestId: req.id });
    if (wire.internal) {
      req.log.error({ err, request_id: req.id }, 'request failed');
      if (options.requestIdInMessage) wire.body.error.message = `${wire.body.error.message} (request id ${req.id})`;
    }
    const retry = retryAfterOf(e);
    if (retry !== undefined) reply.header('retry-after', String(retry));
    if (options.answer?.(wire, req, reply)) return reply;
    return reply.code(wire.status).send(wire.body);
  };
}
