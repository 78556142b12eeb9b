// The executor: a pipeline of clauses over a stream of rows. Reading clauses are lazy: each pulls rows from
// the one before as it needs them, so a LIMIT stops the reading early and the result's row count is checked
// as rows are produced. A writing clause reads all of its input before it writes (openCypher's semantics
// for updates: each clause sees the complete output of the one before) and passes its output on from a
// buffer; ORDER BY, DISTINCT, aggregation and UNION hold what they must, counted against the memory budget.
import { children } from './aggregate.js';
import type { Clause, Expr, PatternPart, Query, SingleQuery } from './ast.js';
import { firstOfEach, Held } from './budget.js';
import { CypherError } from './errors.js';
import { type EvalContext, evaluate, isList, listSource, lookup, type Row, truthy } from './eval.js';
import { isAggregate, project } from './interpret/project.js';
import { callRows, collect, writeClause } from './interpret/write.js';
import { type LookupHints, matchPattern } from './match.js';
import { yieldItems } from './procedures.js';
import { setOwn, type Value } from './values.js';

export interface Result {
  columns: string[];
  rows: Value[][];
}

/** A result as it is produced: the columns now, the rows as they are pulled. */
export interface Stream {
  columns: string[];
  rows: Iterable<Value[]>;
}

const WRITES = new Set<Clause['kind']>(['create', 'merge', 'set', 'remove', 'delete', 'call']);

/** Whether a query may write (a procedure may): then every LIMIT reads all of its input. */
export const mayWrite = (q: Query): boolean => q.parts.some((p) => p.clauses.some((c) => WRITES.has(c.kind)));

export function executeQuery(q: Query, ctx: EvalContext): Stream {
  const parts = q.parts.map((p) => executeSingle(p, ctx));
  if (parts.length === 1) return parts[0]!;
  return {
    columns: parts[0]!.columns,
    rows: union(
      parts,
      q.unionAll.every((a) => a),
      ctx,
    ),
  };
}

function* union(parts: Stream[], all: boolean, ctx: EvalContext): Generator<Value[]> {
  const rows = (function* () {
    for (const part of parts) yield* part.rows;
  })();
  if (all) yield* rows;
  else yield* firstOfEach(rows, (r) => r, ctx.budget, 'UNION');
}

/** EXISTS { … }: whether the clauses, run on the outer row, leave any row (it stops at the first). */
export function subqueryHasRows(q: SingleQuery, row: Row, ctx: EvalContext): boolean {
  let rows: Iterable<Row> = [row];
  let scope = Object.keys(row);
  for (const [i, c] of q.clauses.entries()) {
    if (c.kind === 'return') rows = project(c, rows, scope, ctx).rows;
    else [rows, scope] = runClause(c, barrier(rows, i, ctx), scope, ctx);
  }
  for (const _ of rows) return true;
  return false;
}

function executeSingle(q: SingleQuery, ctx: EvalContext): Stream {
  let rows: Iterable<Row> = [{}];
  let scope: string[] = [];
  const only = q.clauses.length === 1 ? q.clauses[0] : undefined;
  if (only?.kind === 'call') {
    // A standalone CALL returns its yields, or every output.
    const proc = ctx.procedures?.get(only.name);
    const columns = proc ? yieldItems(only.yields, proc).map((y) => y.alias) : [];
    const [out] = runClause(only, rows, scope, ctx);
    // A procedure without outputs returns no rows when called on its own (it still runs).
    if (columns.length === 0) return { columns, rows: drain(out) };
    return { columns, rows: values(out, columns) };
  }
  for (const [i, c] of q.clauses.entries()) {
    if (c.kind === 'return') {
      const p = project(c, rows, scope, ctx);
      return { columns: p.columns, rows: values(p.rows, p.columns) };
    }
    [rows, scope] = runClause(c, barrier(rows, i, ctx), scope, ctx);
  }
  return { columns: [], rows: drain(rows) };
}

function* values(rows: Iterable<Row>, columns: string[]): Generator<Value[]> {
  for (const r of rows) yield columns.map((k) => lookup(r, k) ?? null);
}

/** No rows out: the clauses run (for their writes) when the result is read. */
function* drain(rows: Iterable<Row>): Generator<never> {
  for (const _ of rows);
  yield* [];
}

// Each clause's rows come through one generator per clause before it; every so many clauses the rows are
// collected into a buffer, so that a query of a thousand clauses does not pull through a thousand frames.
const CLAUSES_PER_BUFFER = 32;

function barrier(rows: Iterable<Row>, clause: number, ctx: EvalContext): Iterable<Row> {
  return clause > 0 && clause % CLAUSES_PER_BUFFER === 0 ? buffered(rows, ctx, 'a long chain of clauses') : rows;
}

/** Every row of `rows`, read before the first is passed on; held against the memory budget meanwhile. */
function* buffered(rows: Iterable<Row>, ctx: EvalContext, what: string): Generator<Row> {
  const held = new Held(ctx.budget, what);
  try {
    yield* collect(rows, ctx, held);
  } finally {
    held.release();
  }
}

const patternVars = (parts: PatternPart[]): string[] => {
  const out: string[] = [];
  for (const p of parts) {
    if (p.variable) out.push(p.variable);
    for (const n of p.nodes) if (n.variable) out.push(n.variable);
    for (const r of p.rels) if (r.variable) out.push(r.variable);
  }
  return out;
};

const addScope = (scope: string[], vars: string[]) => [...new Set([...scope, ...vars])];

function runClause(c: Clause, rows: Iterable<Row>, scope: string[], ctx: EvalContext): [Iterable<Row>, string[]] {
  switch (c.kind) {
    case 'match': {
      const newVars = patternVars(c.pattern).filter((v) => !scope.includes(v));
      const hints = c.where ? lookupHints(c.where, scope) : undefined;
      return [matchRows(c, rows, newVars, hints, ctx), addScope(scope, newVars)];
    }
    case 'unwind':
      return [unwindRows(c, rows, ctx), addScope(scope, [c.alias])];
    case 'with': {
      const { rows: out, columns } = project(c, rows, scope, ctx, c.where);
      return [out, columns];
    }
    case 'create':
      return [writeClause(c, rows, ctx), addScope(scope, patternVars(c.pattern))];
    case 'merge':
      return [writeClause(c, rows, ctx), addScope(scope, patternVars([c.pattern]))];
    case 'set':
    case 'remove':
    case 'delete':
      return [writeClause(c, rows, ctx), scope];
    case 'call': {
      const proc = ctx.procedures?.get(c.name);
      if (!proc) {
        throw new CypherError('ProcedureError', 'ProcedureNotFound', `there is no procedure ${c.name}`, 'compile');
      }
      const yields = yieldItems(c.yields, proc);
      return [callRows(c, proc, yields, rows, ctx), addScope(scope, c.yields ? yields.map((y) => y.alias) : [])];
    }
    case 'return':
      return [rows, scope];
  }
}

function* matchRows(
  c: Extract<Clause, { kind: 'match' }>,
  rows: Iterable<Row>,
  newVars: string[],
  hints: LookupHints | undefined,
  ctx: EvalContext,
): Generator<Row> {
  for (const row of rows) {
    let found = false;
    for (const r of matchPattern(c.pattern, row, ctx, hints)) {
      if (c.where && truthy(evaluate(c.where, r, ctx)) !== true) continue;
      found = true;
      yield r;
    }
    if (!found && c.optional) {
      const r = { ...row };
      for (const v of newVars) setOwn(r, v, null);
      yield r;
    }
  }
}

function* unwindRows(c: Extract<Clause, { kind: 'unwind' }>, rows: Iterable<Row>, ctx: EvalContext): Generator<Row> {
  for (const row of rows) {
    const v = listSource(c.expr, row, ctx);
    if (v === null) continue;
    for (const x of isList(v) ? v : [v]) {
      ctx.budget.tick();
      yield { ...row, [c.alias]: x };
    }
  }
}

/** `n.key = expr` conjuncts of a WHERE whose expr reads only what was bound before the MATCH. */
function lookupHints(where: Expr, scope: string[]): LookupHints {
  const hints = new Map<string, readonly [string, Expr]>();
  const known = (e: Expr): boolean => {
    if (e.kind === 'var') return scope.includes(e.name);
    if (e.kind === 'patternExpr' || e.kind === 'patternComp' || e.kind === 'listComp' || e.kind === 'quantifier') {
      return false;
    }
    if (e.kind === 'mapProjection' || (e.kind === 'call' && isAggregate(e))) return false;
    return children(e).every(known);
  };
  const visit = (e: Expr) => {
    if (e.kind === 'binary' && e.op === 'and') {
      visit(e.left);
      visit(e.right);
      return;
    }
    if (e.kind !== 'compare' || e.ops.length !== 1 || e.ops[0] !== '=') return;
    const pairs: [Expr, Expr][] = [
      [e.args[0]!, e.args[1]!],
      [e.args[1]!, e.args[0]!],
    ];
    for (const [a, b] of pairs) {
      if (a.kind === 'prop' && a.target.kind === 'var' && !scope.includes(a.target.name) && known(b)) {
        if (!hints.has(a.target.name)) hints.set(a.target.name, [a.key, b]);
      }
    }
  };
  visit(where);
  return hints;
}
