// What a surface reports for an error: `toWireError` from @evident/contract maps any EvidentError (every KB
// error is one) to an HTTP status and the body `{ error: { code, message, details? } }`, `details` being
// `[{ path, message }]` with JSON pointers. The REST console answers through the one handler both HTTP servers
// install (@evident/http-guards' errorHandler); MCP puts the same body in its tool-error text (toolErrorBody).
// kb-server's own codes are in KB_SERVER_ERRORS; a request that does not match its schema is InvalidParametersError,
// code `invalid_parameters`.
import {
  type ErrorBody,
  InvalidParametersError,
  mergeCatalogues,
  pointer,
  type Problem,
  toWireError,
} from '@evident/contract';
import { errorHandler, HTTP_ERRORS, httpError, type ErrorReply, type ErrorRequest } from '@evident/http-guards';
import { KB_ERRORS } from '@evident/kb';
import { KB_SERVER_ERRORS } from './error-codes.js';

export { KB_SERVER_ERRORS } from './error-codes.js';

export { toWireError, type WireError } from '@evident/contract';

/** Every code a kb-server surface answers with a status of its own, but the extraction's and the engine's. */
export const SURFACE_ERRORS = mergeCatalogues(HTTP_ERRORS, KB_ERRORS, KB_SERVER_ERRORS);

/**
 * The REST console's error handler: the one of both HTTP servers, with the console's schema errors (Fastify's
 * `validation`) as `invalid_parameters`, a body past `bodyLimit` named in bytes, and the request id in a 5xx's message.
 */
export function consoleErrorHandler<Req extends ErrorRequest, Rep extends ErrorReply>(bodyLimit: number) {
  return errorHandler<Req, Rep>({
    requestIdInMessage: true,
    toError: (err) => {
      const fe = err as { validation?: SchemaError[]; validationContext?: string; code?: string };
      if (fe?.validation?.length) return invalidParameters(fe.validation, fe.validationContext ?? 'body');
      if (fe?.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return httpError('payload_too_large', `request body is larger than ${bodyLimit} bytes`);
      return err;
    },
  });
}

/**
 * MCP's tool-error body for an error: the wire body as REST sends it; for a fault of ours (no status the caller
 * caused) the agent, the operator here (stdio, same machine), also reads the failure's message, never its stack.
 */
export function toolErrorBody(e: unknown): { body: ErrorBody; internal: boolean } {
  const wire = toWireError(e);
  if (!wire.internal) return { body: wire.body, internal: false };
  const message = e instanceof Error ? `${wire.body.error.message}: ${e.message}` : wire.body.error.message;
  return { body: { error: { ...wire.body.error, message } }, internal: true };
}

/** One Ajv error (as Fastify or Ajv reports it). */
export interface SchemaError {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** Ajv error → the problem it names: a JSON pointer into the input (a missing or extra property included). */
export function schemaProblem(err: SchemaError): Problem {
  const parts = (err.instancePath ?? '')
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const extra = err.params?.missingProperty ?? err.params?.additionalProperty;
  if (typeof extra === 'string') parts.push(extra);
  const allowed = err.params?.allowedValues;
  const message =
    err.keyword === 'required'
      ? 'is required'
      : err.keyword === 'additionalProperties'
        ? 'is not an accepted field'
        : err.keyword === 'enum' && Array.isArray(allowed)
          ? `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`
          : (err.message ?? 'is invalid');
  return { path: pointer(...parts), message };
}

/** The input (`where`: body, querystring, params, arguments) does not match its schema. */
export function invalidParameters(errors: readonly SchemaError[], where?: string): InvalidParametersError {
  const problems = errors.map(schemaProblem);
  // A value that fits no branch of a union (anyOf) reports every branch's complaint; the summary names the
  // deepest one (`/provider/api_key: is not an accepted field`, not `/provider: must be string`).
  const union = errors.some((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const first = union
    ? problems.reduce((a, b) => (b.path.split('/').length > a.path.split('/').length ? b : a))
    : problems[0]!;
  const summary = `${first.path || '(root)'}: ${first.message}${where ? ` (in ${where})` : ''}`;
  return new InvalidParametersError(problems, summary);
}
