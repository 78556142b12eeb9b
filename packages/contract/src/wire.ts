// The one mapping from an error to what every surface sends: an HTTP status and the body
// `{ error: { code, message, details?, data? } }`, where `details` is always the error's problems,
// `{ path, message }[]`, and `data` the error's extra data (4xx only).
import { EvidentError, type Problem } from './errors.js';

export interface ErrorBody {
  error: {
    code: string;
    message: string;
    details?: Problem[];
    data?: Readonly<Record<string, unknown>>;
    request_id?: string;
  };
}

export interface WireError {
  status: number;
  body: ErrorBody;
  /** The caller is not at fault (5xx): log the error; the body carries only a generic message. */
  internal: boolean;
}

/** Codes a surface uses for conditions of its own (not a package's error). */
export const INTERNAL_ERROR = 'internal_error';

export function toWireError(e: unknown, options: { requestId?: string } = {}): WireError {
  if (e instanceof EvidentError && e.status !== undefined && e.status < 500) {
    const error: ErrorBody['error'] = { code: e.code, message: e.message };
    if (e.problems && e.problems.length > 0)
      error.details = e.problems.map((p) => ({ path: p.path, message: p.message }));
    if (e.data !== undefined) error.data = e.data;
    return { status: e.status, body: { error }, internal: false };
  }
  // A typed 5xx keeps its code (e.g. 503 `closed`); anything else is ours to log, never to show.
  const typed = e instanceof EvidentError && e.status !== undefined;
  const error: ErrorBody['error'] = typed
    ? { code: (e as EvidentError).code, message: (e as EvidentError).message }
    : { code: INTERNAL_ERROR, message: 'internal error' };
  if (options.requestId !== undefined) error.request_id = options.requestId;
  return { status: typed ? (e as EvidentError).status! : 500, body: { error }, internal: true };
}

/** The plain-data form of an error, for crossing a thread or process boundary (structured-clone safe). */
export interface SerializedError {
  name: string;
  code: string;
  message: string;
  status?: number;
  problems?: Problem[];
  data?: Readonly<Record<string, unknown>>;
}

export function serializeError(e: unknown): SerializedError {
  if (e instanceof EvidentError) {
    const out: SerializedError = { name: e.name, code: e.code, message: e.message };
    if (e.status !== undefined) out.status = e.status;
    if (e.problems) out.problems = e.problems.map((p) => ({ ...p }));
    // JSON-able by contract, so structured clone carries it.
    if (e.data !== undefined) out.data = e.data;
    return out;
  }
  const err = e instanceof Error ? e : new Error(String(e));
  return { name: err.name, code: INTERNAL_ERROR, message: err.message };
}

/** The error again on this side: an EvidentError with the same code, status and problems (and name). */
export function deserializeError(s: SerializedError): EvidentError {
  const e = new EvidentError(s.code, s.message, {
    ...(s.status !== undefined ? { status: s.status } : {}),
    ...(s.problems ? { problems: s.problems } : {}),
    ...(s.data !== undefined ? { data: s.data } : {}),
  });
  Object.defineProperty(e, 'name', { value: s.name });
  return e;
}
