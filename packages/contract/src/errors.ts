// The one error base. Every package's errors extend EvidentError, so that a surface (job API, KB console, MCP
// server) maps any of them to the same wire body without knowing which package threw it.

/** One problem with one part of an input: `path` is a JSON pointer into it (RFC 6901), `''` for the whole. */
export interface Problem {
  path: string;
  message: string;
}

export interface EvidentErrorOptions {
  /** The HTTP status a surface answers with; without one, a surface treats the error as its own fault (500). */
  status?: number;
  problems?: readonly Problem[];
  /**
   * Extra JSON-able data a caller can act on, sent with a 4xx answer as `error.data` (a PROFILE stopped by a
   * budget: `{ plan }`, where the time went). Never secrets or internals: it is shown as it is.
   */
  data?: Readonly<Record<string, unknown>>;
  cause?: unknown;
}

export class EvidentError extends Error {
  /** Stable, machine-readable, snake_case; documented per surface. */
  readonly code: string;
  readonly status: number | undefined;
  readonly problems: readonly Problem[] | undefined;
  /** Set once, where the error is thrown or on its way out of the engine that knows more (a plan). */
  data: Readonly<Record<string, unknown>> | undefined;

  constructor(code: string, message: string, options: EvidentErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = options.status;
    this.problems = options.problems;
    this.data = options.data;
  }
}

/** The one code for "the input does not match its schema"; its problems list every mismatch. */
export const INVALID_PARAMETERS = 'invalid_parameters';

/** An input that does not match its schema: status 400, code `invalid_parameters`, every problem listed. */
export class InvalidParametersError extends EvidentError {
  constructor(problems: readonly Problem[], message = summarizeProblems(problems)) {
    super(INVALID_PARAMETERS, message, { status: 400, problems });
  }
}

/** `a: x; b: y` (at most `max` problems, then a count of the rest). */
export function summarizeProblems(problems: readonly Problem[], max = 5): string {
  if (problems.length === 0) return 'the input is invalid';
  const shown = problems.slice(0, max).map((p) => (p.path ? `${p.path}: ${p.message}` : p.message));
  const rest = problems.length - shown.length;
  return shown.join('; ') + (rest > 0 ? `; and ${rest} more` : '');
}

const escapeToken = (t: string) => t.replace(/~/g, '~0').replace(/\//g, '~1');

/** A JSON pointer from path segments: `['claims', 3, 'subject']` → `/claims/3/subject`. */
export function pointer(...segments: (string | number)[]): string {
  return segments.map((s) => `/${escapeToken(String(s))}`).join('');
}

/**
 * A dotted field name as libraries report them (`claims[3].provenance.derived_from[0]`) → a JSON pointer
 * (`/claims/3/provenance/derived_from/0`). A name that is already a pointer is returned as it is.
 */
export function fieldToPointer(field: string): string {
  if (field === '' || field.startsWith('/')) return field;
  const segments: string[] = [];
  for (const part of field.split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) {
      segments.push(part);
      continue;
    }
    if (m[1]) segments.push(m[1]);
    for (const idx of m[2]!.matchAll(/\[(\d+)\]/g)) segments.push(idx[1]!);
  }
  return pointer(...segments);
}
