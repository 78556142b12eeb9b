// The facade: parse, check, run. `runCypher` is what callers use; it runs the query under its budgets
// (budget.ts): a deadline, the result's rows, the size of lists and strings, and the memory it holds.
import type { Query } from './ast.js';
import { Budget, type Budgets, measure } from './budget.js';
import { CypherLimitError } from './errors.js';
import type { EvalContext } from './eval.js';
import { executeQuery, mayWrite, type Result } from './execute.js';
import type { GraphReader } from './graph.js';
import { parse } from './parser.js';
import type { Procedures } from './procedures.js';
import { check } from './semantic.js';
import { fromJs, setOwn, type Value } from './values.js';

export interface RunOptions extends Budgets {
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
  const budget = new Budget(options);
  const p: Record<string, Value> = {};
  for (const [k, v] of Object.entries(params)) setOwn(p, k, fromJs(v));
  const ctx: EvalContext = {
    graph,
    params: p,
    procedures: options.procedures ?? new Map(),
    budget,
    writes: mayWrite(q),
  };
  const stream = executeQuery(q, ctx);
  const rows: Value[][] = [];
  let held = 0;
  try {
    for (const row of stream.rows) {
      // Counted as produced: the row past max_rows stops the query there.
      if (rows.length >= budget.maxRows) {
        throw new CypherLimitError(
          'cypher_too_many_rows',
          'max_rows',
          budget.maxRows,
          `the query returned more than max_rows ${budget.maxRows} rows (stopped at row ${rows.length + 1})`,
        );
      }
      let bytes = 32;
      for (const v of row) bytes += measure(v).bytes;
      held += bytes;
      budget.hold(bytes, 'the result');
      rows.push(row);
    }
  } finally {
    budget.release(held);
  }
  return { columns: stream.columns, rows };
}
