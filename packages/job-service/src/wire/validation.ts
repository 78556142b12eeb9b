// Request validation with TypeBox: every problem is reported with its JSON pointer, unknown fields are
// errors (schemas say additionalProperties: false) and nothing is coerced or removed from bodies.
import { OptionalKind, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { FastifySchemaCompiler } from 'fastify';
import { InvalidParametersError, type Problem } from '@evident/contract';
import { RawJsonBody } from './raw-body.js';

const MAX_PROBLEMS = 100;

const compiled = new WeakMap<TSchema, ReturnType<typeof TypeCompiler.Compile>>();
function compile(schema: TSchema) {
  let c = compiled.get(schema);
  if (!c) {
    c = TypeCompiler.Compile(schema);
    compiled.set(schema, c);
  }
  return c;
}

export function problemsOf(schema: TSchema, value: unknown, prefix = ''): Problem[] {
  const C = compile(schema);
  if (C.Check(value)) return [];
  const seen = new Set<string>();
  const out: Problem[] = [];
  for (const e of C.Errors(value)) {
    const message =
      unionMessage(e.schema) ??
      e.message
        .replace(/^Expected required property$/, 'is required')
        .replace(/^Unexpected property$/, 'is not a known field');
    const key = `${e.path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path: prefix + e.path, message });
    if (out.length >= MAX_PROBLEMS) break;
  }
  // A missing field also fails its type check; "is required" says all there is to say.
  const missing = new Set(out.filter((d) => d.message === 'is required').map((d) => d.path));
  return out.filter((d) => d.message === 'is required' || !missing.has(d.path));
}

export const typeboxValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const C = compile(schema);
  const coerce = httpPart === 'querystring' || httpPart === 'params';
  return (data: unknown) => {
    // Validated on a thread by the submission route (see raw-body.ts).
    if (httpPart === 'body' && data instanceof RawJsonBody) return { value: data };
    // A route whose body is Type.Optional(...) may be asked without one (curl -X POST; Fastify gives null).
    if (httpPart === 'body' && data == null && (schema as { [OptionalKind]?: string })[OptionalKind]) {
      return { value: undefined };
    }
    const value = coerce ? convertStrict(schema, data) : data;
    if (C.Check(value)) return { value };
    const where = httpPart === 'body' ? '' : `${httpPart}:`;
    return { error: new InvalidParametersError(problemsOf(schema, value, where)) };
  };
};

/** "must be one of: a, b" for unions of literals, where TypeBox only says "Expected union value". */
function unionMessage(schema: TSchema): string | undefined {
  const any = (schema as { anyOf?: Array<{ const?: unknown }> }).anyOf;
  if (!any?.every((s) => s.const !== undefined)) return undefined;
  return `must be one of: ${any.map((s) => JSON.stringify(s.const)).join(', ')}`;
}

/**
 * Query strings and path parameters arrive as text: numbers and booleans are converted only when the whole
 * string is one ('1e9' or '12abc' stay strings and fail validation, unlike parseInt-style coercion).
 */
function convertStrict(schema: TSchema, data: unknown): unknown {
  const props = (schema as { properties?: Record<string, { type?: string }> }).properties;
  if (!props || typeof data !== 'object' || data === null) return data;
  const out: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  for (const [k, v] of Object.entries(out)) {
    const t = props[k]?.type;
    if (typeof v !== 'string') continue;
    if (t === 'integer' && /^-?\d{1,15}$/.test(v)) out[k] = Number(v);
    else if (t === 'number' && /^-?\d{1,15}(\.\d{1,15})?$/.test(v)) out[k] = Number(v);
    else if (t === 'boolean' && (v === 'true' || v === 'false')) out[k] = v === 'true';
  }
  return out;
}
