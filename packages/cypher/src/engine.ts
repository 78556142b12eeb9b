// The facade: parse, check, run. `runCypher` is what callers use; it applies a deadline and a row budget.
import { CypherLimitError } from './errors.js';
import type { EvalContext } from './eval.js';
import { executeQuery, type Result } from './execute.js';
import type { GraphReader } from './graph.js';
import { parse } from './parser.js';
import { check } from './semantic.js';
import { fromJs, setOwn, type Value } from './values.js';
import type { Query } from './ast.js';
import type { Procedures } from './procedures.js';

export interface RunOptions {
  /** Cancel the query after this many milliseconds (checked between steps of the match and projection). */
  timeoutMs?: number;
  /** Refuse a result with more rows than this. */
  maxRows?: number;
  /** Procedures CALL may name. */
  procedures?: Procedures;
}

/** Parses and checks a query without running it: every compile-time error surfaces here. */
export function compile(cypher: string, procedures?: Procedures): Query {
  const q = parse(cypher);
  check(q, procedures);
  return q;
}

export function runCypher(
  graph: GraphReader,
  cypher: string,
  params: Record<string, unknown> = {},
  options: RunOptions = {},
): Result {
  const q = compile(cypher, options.procedures);
  const deadline = options.timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + options.timeoutMs;
  let ticks = 0;
  const p: Record<string, Value> = {};
  for (const [k, v] of Object.entries(params)) setOwn(p, k, fromJs(v));
  const ctx: EvalContext = {
    graph,
    params: p,
    procedures: options.procedures ?? new Map(),
    tick() {
      if (++ticks % 1024 === 0 && Date.now() > deadline) {
        throw new CypherLimitError(
          'cypher_timeout',
          'timeout_ms',
          options.timeoutMs!,
          `the query ran past its ${options.timeoutMs} ms budget`,
        );
      }
    },
  };
  const result = executeQuery(q, ctx);
  if (options.maxRows !== undefined && result.rows.length > options.maxRows) {
    throw new CypherLimitError(
      'cypher_too_many_rows',
      'max_rows',
      options.maxRows,
      `the query returned ${result.rows.length} rows, more than max_rows ${options.maxRows}`,
    );
  }
  return result;
}
