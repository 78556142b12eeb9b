// What a surface reports for an error: `toWireError` from @evident/contract maps any EvidentError (every KB
// error is one) to an HTTP status and the body `{ error: { code, message, details? } }`, `details` being
// `[{ path, message }]` with JSON pointers. MCP puts the same body in its tool-error text. The one surface-own
// condition is a request that does not match its schema: InvalidParametersError, code `invalid_parameters`.
import { InvalidParametersError, pointer, type Problem } from '@evident/contract';

export { toWireError, type WireError } from '@evident/contract';

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
