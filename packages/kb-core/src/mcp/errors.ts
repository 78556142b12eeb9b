// One mapping from library errors to what a surface reports: an HTTP status and the error body
// `{ error: { code, message, details? } }`. MCP puts the same body in its tool-error text.
import { KbClosedError, KbConflictError, KbError, KbNotFoundError, KbOpenError, KbValidationError } from '../errors.js';

export interface ErrorInfo {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
  /** Not a caller mistake: log it; tell the caller only a generic message. */
  internal: boolean;
}

/** Raised by a surface for an operation the library does not offer (yet). */
export class NotImplementedError extends KbError {
  constructor(what: string) {
    super('not_implemented', `${what} is not available in this build of @evident/kb`);
  }
}

export function describeError(e: unknown): ErrorInfo {
  if (e instanceof KbValidationError) {
    const details: Record<string, unknown> = { field: e.index === undefined ? e.field : `claims[${e.index}].${e.field}` };
    if (e.index !== undefined) details.index = e.index;
    return { status: 400, code: e.code, message: e.message, details, internal: false };
  }
  if (e instanceof KbNotFoundError) return { status: 404, code: 'not_found', message: e.message, internal: false };
  if (e instanceof NotImplementedError) return { status: 501, code: e.code, message: e.message, internal: false };
  if (e instanceof KbConflictError) return { status: 409, code: e.code, message: e.message, internal: false };
  if (e instanceof KbClosedError) return { status: 503, code: e.code, message: e.message, internal: true };
  if (e instanceof KbOpenError) return { status: 400, code: e.code, message: e.message, details: { field: e.field }, internal: false };
  if (e instanceof KbError && e.code !== 'corrupt') {
    // Other typed library errors are about the request (a bad reference, a registry rule).
    const field = (e as { field?: unknown }).field;
    return { status: 400, code: e.code, message: e.message, ...(typeof field === 'string' ? { details: { field } } : {}), internal: false };
  }
  return { status: 500, code: 'internal_error', message: 'internal error', internal: true };
}

/** Ajv error (as Fastify or Ajv reports it) -> the field it names, in `a.b[0]` notation. */
export function ajvField(err: { instancePath?: string; params?: Record<string, unknown> }, root = ''): string {
  const parts = (err.instancePath ?? '').split('/').filter(Boolean).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const extra = err.params?.missingProperty ?? err.params?.additionalProperty;
  if (typeof extra === 'string') parts.push(extra);
  let out = root;
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p;
  return out || root || '(root)';
}

/** Human message for one Ajv error, naming the field. */
export function ajvMessage(err: { instancePath?: string; keyword?: string; message?: string; params?: Record<string, unknown> }, root = ''): string {
  const field = ajvField(err, root);
  if (err.keyword === 'required') return `${field}: is required`;
  if (err.keyword === 'additionalProperties') return `${field}: is not an accepted field`;
  return `${field}: ${err.message ?? 'is invalid'}`;
}
