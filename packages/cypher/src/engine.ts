// The facade: parse, check, plan, run. `runCypher` is what callers use; it runs the query under its budgets
// (budget.ts): a deadline, the result's rows, the size of lists and strings, and the memory it holds. With a
// plan cache (plan-cache.ts) a text asked again is not parsed, checked or planned again. `prepareCypher` and
// `runPrepared` are its two halves, for a caller that looks at the query between them (kb-core refuses writes).
import type { Query } from './ast.js';
import { Budget, type Budgets, valueBytes } from './budget.js';
import { CypherLimitError } from './errors.js';
import type { EvalContext } from './eval.js';
import { executeQuery, mayWrite, type Result } from './execute.js';
import type { GraphReader } from './graph.js';
import { resolveQueryLabels } from './labels.js';
import { parse } from './parser.js';
import { describePlan, type PlanDescription } from './plan/explain.js';
import type { Op } from './plan/operators.js';
import { type Profile, runPlan } from './plan/physical.js';
import { joinRows, MeasuredRows, ROW_CHUNK } from './plan/tuples.js';
import { planQuery } from './plan/planner.js';
import { observing, type PlanCache, type PreparedQuery } from './plan-cache.js';
import { rewrite } from './plan/rewrite.js';
import type { Procedures } from './procedures.js';
import { type BoundQuery, check } from './semantic.js';
import { fromJs, setOwn, type Value } from './values.js';

export interface RunOptions extends Budgets {
  /** Procedures CALL may name. */
  procedures?: Procedures;
  /** false: run clause by clause, never through a plan (for comparing the two). Default true. */
  planner?: boolean;
  /**
   * Run as `EXPLAIN` / `PROFILE` without the prefix in the text, so that positions in errors are those of the
   * text the caller was given (a server's `profile: true`). A prefix in the text, written by the user, wins.
   */
  mode?: 'explain' | 'profile';
  /** Plans kept across calls for this graph (plan-cache.ts); absent: every call parses, checks and plans. */
  planCache?: PlanCache;
  /**
   * The graph's version (any value compared with ===), changed whenever the graph changes: a cached plan made or
   * last checked at the same version is used without reading the graph's counts again. Absent: read every time.
   */
  graphVersion?: unknown;
}

/** A result with, for `EXPLAIN …` and `PROFILE …`, the plan (with rows and time per operator for PROFILE). */
export interface PlannedResult extends Result {
  plan?: PlanDescription;
}

/**
 * `EXPLAIN` or `PROFILE` before a query (Neo4j's convention), blanked out so that positions in errors stay
 * those of the text as written.
 */
export function splitMode(cypher: string): { mode: 'run' | 'explain' | 'profile'; cypher: string } {
  const m = /^\s*(EXPLAIN|PROFILE)\b/i.exec(cypher);
  if (!m) return { mode: 'run', cypher };
  return {
    mode: m[1]!.toLowerCase() as 'explain' | 'profile',
    cypher: ' '.repeat(m[0].length) + cypher.slice(m[0].length),
  };
}

/** The plan a query runs as (after the rewrite rules); `Interpret` when it is not planned. */
export function planOf(bound: BoundQuery, graph: GraphReader): Op {
  return rewrite(planQuery(bound, graph));
}

/** Parses and checks a query without running it: every compile-time error surfaces here. */
export function compile(cypher: string, procedures?: Procedures): Query {
  const q = parse(cypher);
  check(q, procedures);
  return q;
}

/** A query ready to run (prepareCypher): the prepared text and how to run it. */
export interface PreparedCypher extends PreparedQuery {
  readonly mode: 'run' | 'explain' | 'profile';
}

/** Parses, checks and plans `text` (a mode prefix already blanked): what a plan cache keeps. */
function prepareText(graph: GraphReader, text: string, options: RunOptions): PreparedQuery {
  const bound = check(parse(text), options.procedures);
  const q = bound.query;
  if (graph.resolveLabel) resolveQueryLabels(q.parts, (l) => graph.resolveLabel!(l));
  const writes = mayWrite(q);
  const plan: Op =
    options.planner === false || writes
      ? { op: 'Interpret', reason: options.planner === false ? 'the planner is off' : 'the query writes', est: 0 }
      : planOf(bound, graph);
  return { query: q, plan, writes };
}

/**
 * The query `cypher` parsed, checked and planned for `graph`, from `options.planCache` when it holds it. Every
 * compile-time error (syntax, semantics) is thrown here, whether or not the text was seen before.
 */
export function prepareCypher(graph: GraphReader, cypher: string, options: RunOptions = {}): PreparedCypher {
  const split = splitMode(cypher);
  const mode = split.mode === 'run' ? (options.mode ?? 'run') : split.mode;
  const cache = options.planner === false ? undefined : options.planCache;
  if (!cache) return { mode, ...prepareText(graph, split.cypher, options) };
  const kept = cache.lookup(split.cypher, graph, options.graphVersion, options.procedures);
  if (kept) return { mode, ...kept };
  // The planner reads the graph through a recorder: what it read decides when the plan is stale.
  const seen = observing(graph);
  const prepared = prepareText(seen.graph, split.cypher, options);
  cache.store(split.cypher, prepared, seen.reads, options.graphVersion, options.procedures);
  return { mode, ...prepared };
}

export function runCypher(
  graph: GraphReader,
  cypher: string,
  params: Record<string, unknown> = {},
  options: RunOptions = {},
): PlannedResult {
  return runPrepared(graph, prepareCypher(graph, cypher, options), params, options);
}

/** Runs a prepared query under `options`' budgets (its procedures, planner and cache were prepareCypher's). */
export function runPrepared(
  graph: GraphReader,
  prepared: PreparedCypher,
  params: Record<string, unknown> = {},
  options: Budgets & {
    procedures?: Procedures;
    /**
     * The caller's form of each result cell that is not a string, number, boolean or null (an integer, a node,
     * a list...), applied as the result is counted against the budgets: one pass over the rows, so a result of
     * values scattered in memory (names read at random slots) is not read twice.
     */
    cell?: (v: Value) => unknown;
    /**
     * `'number'`: the caller's form of an INTEGER cell that is a safe integer is that number (as `cell` gives
     * it), so a result made from columns writes it without making a BigInt for `cell` to convert.
     */
    safeIntegers?: 'number';
  } = {},
): PlannedResult {
  const { mode, query: q, plan } = prepared;
  const cell = options.cell;
  if (mode === 'explain') {
    const columns = plan.op === 'ProduceResults' ? plan.columns : [];
    return { columns, rows: [], plan: describePlan(plan) };
  }
  const profile: Profile | undefined = mode === 'profile' ? new Map() : undefined;
  const budget = new Budget(options);
  const p: Record<string, Value> = {};
  for (const [k, v] of Object.entries(params)) setOwn(p, k, fromJs(v));
  const ctx: EvalContext = {
    graph,
    params: p,
    procedures: options.procedures ?? new Map(),
    budget,
    writes: prepared.writes,
    ...(options.safeIntegers === 'number' ? { integersAsNumbers: true } : {}),
  };
  const started = performance.now();
  const stream =
    plan.op === 'Interpret'
      ? executeQuery(q, ctx)
      : { columns: (plan as Extract<Op, { op: 'ProduceResults' }>).columns, rows: runPlan(plan, ctx, profile) };
  // Rows an operator made and measured at once are the result themselves (their cells converted in place).
  const measured = stream.rows instanceof MeasuredRows ? stream.rows : undefined;
  let rows: Value[][] = measured ? measured.rows : [];
  let held = 0;
  try {
    if (measured) held = takeMeasured(measured, budget, cell);
    else {
      // In chunks, joined at the end (plan/tuples.ts joinRows says why).
      const chunks: Value[][][] = [rows];
      let n = 0;
      for (const row of stream.rows) {
        // Counted as produced: the row past max_rows stops the query there.
        if (n >= budget.maxRows) throw tooManyRows(budget.maxRows);
        let bytes = 32;
        for (let i = 0; i < row.length; i++) {
          const v = row[i]!;
          bytes += valueBytes(v);
          if (cell && v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
            row[i] = cell(v) as Value;
        }
        held += bytes;
        budget.hold(bytes, 'the result');
        if (rows.length === ROW_CHUNK) {
          rows = [];
          chunks.push(rows);
        }
        rows.push(row);
        n++;
      }
      rows = joinRows(chunks, n);
    }
  } catch (e) {
    // PROFILE of a query stopped by a budget: the error carries the plan with what each operator did so far,
    // also as its `data`, which surfaces send with the error (@evident/contract: `error.data.plan`).
    if (profile && e instanceof CypherLimitError) {
      const described = describePlan(plan, profile);
      e.data = { ...e.data, plan: described };
      Object.assign(e, { plan: described });
    }
    throw e;
  } finally {
    budget.release(held);
  }
  const out: PlannedResult = { columns: stream.columns, rows };
  // An interpreted query is one operator: its rows are the result's, its time the whole run's.
  if (plan.op === 'Interpret') profile?.set(plan, { rows: rows.length, ms: performance.now() - started });
  if (mode === 'profile') out.plan = describePlan(plan, profile);
  return out;
}

const tooManyRows = (max: number) =>
  new CypherLimitError(
    'cypher_too_many_rows',
    'max_rows',
    max,
    `the query returned more than max_rows ${max} rows (stopped at row ${max + 1})`,
  );

/**
 * Rows an operator made and measured at once (plan/tuples.ts), taken as the row-by-row loop would: the same
 * budgets, the caller's conversion of the cells that need it. Returns the bytes held.
 */
function takeMeasured(m: MeasuredRows, budget: Budget, cell: ((v: Value) => unknown) | undefined): number {
  if (m.rows.length > budget.maxRows) throw tooManyRows(budget.maxRows);
  budget.hold(m.bytes, 'the result');
  if (cell) {
    for (const j of m.convert) {
      for (const row of m.rows) {
        const v = row[j]!;
        if (v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
          row[j] = cell(v) as Value;
      }
    }
  }
  return m.bytes;
}
