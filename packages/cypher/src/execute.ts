// The executor: a pipeline of clauses over a stream of rows. Reading clauses are lazy: each pulls rows from
// the one before as it needs them, so a LIMIT stops the reading early and the result's row count is checked
// as rows are produced. A writing clause reads all of its input before it writes (openCypher's semantics
// for updates: each clause sees the complete output of the one before) and passes its output on from a
// buffer; ORDER BY, DISTINCT, aggregation and UNION hold what they must, counted against the memory budget.
import { type Accumulator, accumulator, children, findAggregates } from './aggregate.js';
import type { Clause, Expr, PatternPart, Projection, Query, SetItem, SingleQuery } from './ast.js';
import { Held, measure, rowBytes } from './budget.js';
import { equivalenceKey, orderCompare } from './compare.js';
import {
  CypherArgumentError,
  CypherError,
  CypherParameterMissingError,
  CypherSemanticError,
  CypherSyntaxError,
  CypherTypeError,
} from './errors.js';
import { coerceArgument, type Procedure, yieldItems } from './procedures.js';
import { type EvalContext, evaluate, isList, listSource, lookup, type Row, truthy } from './eval.js';
import { AGGREGATES } from './functions.js';
import { type GraphWriter, isWritable } from './graph.js';
import { type LookupHints, matchPart, matchPattern } from './match.js';
import {
  DurationValue,
  GraphNode,
  GraphRelationship,
  isMap,
  ownValue,
  PathValue,
  type Properties,
  setOwn,
  TemporalValue,
  type Value,
  typeName,
} from './values.js';

export interface Result {
  columns: string[];
  rows: Value[][];
}

/** A result as it is produced: the columns now, the rows as they are pulled. */
export interface Stream {
  columns: string[];
  rows: Iterable<Value[]>;
}

type Call = Extract<Expr, { kind: 'call' }>;
export const isAggregate = (c: Call): boolean => AGGREGATES.has(c.name.toLowerCase());

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
  const seen = new Set<string>();
  const held = new Held(ctx.budget, 'UNION');
  try {
    for (const part of parts) {
      for (const r of part.rows) {
        if (!all) {
          const k = equivalenceKey(r);
          if (seen.has(k)) continue;
          seen.add(k);
          held.add(48 + 2 * k.length);
        }
        yield r;
      }
    }
  } finally {
    held.release();
  }
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

function collect(rows: Iterable<Row>, ctx: EvalContext, held: Held): Row[] {
  const out: Row[] = [];
  for (const r of rows) {
    ctx.budget.tick();
    held.add(rowBytes(r));
    out.push(r);
  }
  return out;
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

function writer(ctx: EvalContext): GraphWriter {
  if (!isWritable(ctx.graph)) {
    throw new CypherSemanticError(
      'ReadOnlyGraph',
      'this graph is read-only: write through its own interface',
      'compile',
    );
  }
  return ctx.graph;
}

/**
 * A writing clause: all of its input is read (and held) first, then `write` runs over it, and its output is
 * passed on once every write is done.
 */
function* writes(rows: Iterable<Row>, ctx: EvalContext, what: string, write: (input: Row[]) => Row[]): Generator<Row> {
  const held = new Held(ctx.budget, what);
  try {
    yield* write(collect(rows, ctx, held));
  } finally {
    held.release();
  }
}

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
    case 'create': {
      const g = writer(ctx);
      const out = writes(rows, ctx, 'CREATE', (input) =>
        input.map((row) => {
          ctx.budget.tick();
          let r = row;
          for (const part of c.pattern) r = createPart(part, r, g, ctx);
          return r;
        }),
      );
      return [out, addScope(scope, patternVars(c.pattern))];
    }
    case 'merge': {
      const g = writer(ctx);
      const out = writes(rows, ctx, 'MERGE', (input) => {
        const merged: Row[] = [];
        for (const row of input) {
          ctx.budget.tick();
          for (const p of [...c.pattern.nodes, ...c.pattern.rels]) {
            const props = p.properties ? evaluate(p.properties, row, ctx) : null;
            if (isMap(props) && Object.values(props).includes(null)) {
              throw new CypherSemanticError('MergeReadOwnWrites', 'MERGE cannot match or create a null property');
            }
          }
          const matches = [...matchPart(c.pattern, row, ctx, new Set())];
          if (matches.length > 0) {
            for (const m of matches) {
              applySet(c.onMatch, m, g, ctx);
              merged.push(m);
            }
          } else {
            const r = createPart(c.pattern, row, g, ctx);
            applySet(c.onCreate, r, g, ctx);
            merged.push(r);
          }
        }
        return merged;
      });
      return [out, addScope(scope, patternVars([c.pattern]))];
    }
    case 'set': {
      const g = writer(ctx);
      const out = writes(rows, ctx, 'SET', (input) => {
        for (const row of input) {
          ctx.budget.tick();
          applySet(c.items, row, g, ctx);
        }
        return input;
      });
      return [out, scope];
    }
    case 'remove': {
      const g = writer(ctx);
      const out = writes(rows, ctx, 'REMOVE', (input) => {
        for (const row of input) {
          ctx.budget.tick();
          for (const item of c.items) {
            if (item.kind === 'labels') {
              const n = lookup(row, item.variable);
              if (n instanceof GraphNode) for (const l of item.labels) g.removeLabel(n, l);
            } else {
              const t = evaluate(item.target, row, ctx);
              if (t instanceof GraphNode || t instanceof GraphRelationship) g.setProperty(t, item.key, null);
            }
          }
        }
        return input;
      });
      return [out, scope];
    }
    case 'delete': {
      const g = writer(ctx);
      return [writes(rows, ctx, 'DELETE', (input) => deleteRows(c, input, g, ctx)), scope];
    }
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

function deleteRows(c: Extract<Clause, { kind: 'delete' }>, input: Row[], g: GraphWriter, ctx: EvalContext): Row[] {
  const nodes: GraphNode[] = [];
  for (const row of input) {
    ctx.budget.tick();
    for (const e of c.exprs) {
      const v = evaluate(e, row, ctx);
      const drop = (x: Value) => {
        if (x === null) return;
        if (x instanceof GraphRelationship) g.deleteRelationship(x);
        else if (x instanceof GraphNode) nodes.push(x);
        else if (x instanceof PathValue) {
          for (const r of x.rels) g.deleteRelationship(r);
          nodes.push(...x.nodes);
        } else throw new CypherTypeError('InvalidArgumentType', `cannot delete ${typeName(x)}`);
      };
      drop(v);
    }
  }
  for (const n of nodes) {
    ctx.budget.tick();
    if (n.deleted) continue;
    const rels = [...g.expand(n, 'both', [])];
    if (rels.length > 0 && !c.detach) {
      throw new CypherError(
        'ConstraintVerificationFailed',
        'DeleteConnectedNode',
        'cannot delete a node that still has relationships; use DETACH DELETE',
        'runtime',
      );
    }
    g.deleteNode(n);
  }
  return input;
}

function* callRows(
  c: Extract<Clause, { kind: 'call' }>,
  proc: Procedure,
  yields: { name: string; alias: string }[],
  rows: Iterable<Row>,
  ctx: EvalContext,
): Generator<Row> {
  for (const row of rows) {
    const args = proc.inputs.map((field, i) => {
      if (c.args) return coerceArgument(field, evaluate(c.args[i]!, row, ctx));
      const v = ownValue(ctx.params, field.name);
      if (v === undefined) throw new CypherParameterMissingError(field.name);
      return coerceArgument(field, v);
    });
    // A procedure without outputs runs for its effect and keeps the row.
    if (proc.outputs.length === 0) {
      for (const _ of proc.call(args)) ctx.budget.tick();
      yield row;
      continue;
    }
    for (const values of proc.call(args)) {
      ctx.budget.tick();
      const r = { ...row };
      for (const y of yields) setOwn(r, y.alias, values[proc.outputs.findIndex((o) => o.name === y.name)] ?? null);
      if (c.where && truthy(evaluate(c.where, r, ctx)) !== true) continue;
      yield r;
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

function evalProps(e: Expr | null, row: Row, ctx: EvalContext): Properties {
  if (!e) return {};
  const m = evaluate(e, row, ctx);
  if (m === null) return {};
  if (!isMap(m)) throw new CypherTypeError('InvalidArgumentType', 'properties must be a MAP');
  const out: Properties = {};
  for (const [k, v] of Object.entries(m)) if (v !== null) setOwn(out, k, checkPropertyValue(v));
  return out;
}

function checkPropertyValue(v: Value): Value {
  if (v === null || typeof v !== 'object' || v instanceof TemporalValue || v instanceof DurationValue) return v;
  if (
    Array.isArray(v) &&
    v.every((x) => x === null || typeof x !== 'object' || x instanceof TemporalValue || x instanceof DurationValue)
  )
    return v;
  throw new CypherTypeError('InvalidPropertyType', `a property cannot hold ${typeName(v)}`);
}

function createPart(part: PatternPart, row: Row, g: GraphWriter, ctx: EvalContext): Row {
  const r = { ...row };
  const nodes: GraphNode[] = part.nodes.map((n) => {
    const bound = n.variable !== null ? lookup(r, n.variable) : undefined;
    if (bound !== undefined && bound !== null) {
      if (!(bound instanceof GraphNode))
        throw new CypherTypeError('InvalidArgumentType', `${n.variable} is not a node`);
      return bound;
    }
    const node = g.createNode(n.labels, evalProps(n.properties, r, ctx));
    if (n.variable !== null) setOwn(r, n.variable, node);
    return node;
  });
  const rels: GraphRelationship[] = part.rels.map((p, i) => {
    const a = nodes[i]!;
    const b = nodes[i + 1]!;
    const [s, e] = p.direction === 'in' ? [b, a] : [a, b];
    const rel = g.createRelationship(p.types[0]!, s, e, evalProps(p.properties, r, ctx));
    if (p.variable !== null) setOwn(r, p.variable, rel);
    return rel;
  });
  if (part.variable !== null) setOwn(r, part.variable, new PathValue(nodes, rels));
  return r;
}

function applySet(items: SetItem[], row: Row, g: GraphWriter, ctx: EvalContext): void {
  for (const item of items) {
    if (item.kind === 'labels') {
      const n = lookup(row, item.variable);
      if (n === null || n === undefined) continue;
      if (!(n instanceof GraphNode)) throw new CypherTypeError('InvalidArgumentType', 'labels go on nodes');
      for (const l of item.labels) g.addLabel(n, l);
      continue;
    }
    if (item.kind === 'property') {
      const t = evaluate(item.target, row, ctx);
      if (t === null) continue;
      if (!(t instanceof GraphNode || t instanceof GraphRelationship)) {
        throw new CypherTypeError('InvalidArgumentType', `cannot set a property on ${typeName(t)}`);
      }
      g.setProperty(t, item.key, checkPropertyValue(evaluate(item.value, row, ctx)));
      continue;
    }
    const t = lookup(row, item.variable);
    if (t === null || t === undefined) continue;
    if (!(t instanceof GraphNode || t instanceof GraphRelationship)) {
      throw new CypherTypeError('InvalidArgumentType', `cannot set properties on ${typeName(t)}`);
    }
    let v = evaluate(item.value, row, ctx);
    if (v instanceof GraphNode || v instanceof GraphRelationship) v = { ...v.properties };
    if (v === null) v = {};
    if (!isMap(v)) throw new CypherTypeError('InvalidArgumentType', `cannot set properties from ${typeName(v)}`);
    if (item.kind === 'replace') {
      for (const k of Object.keys(t.properties)) if (!Object.hasOwn(v, k)) g.setProperty(t, k, null);
    }
    for (const [k, x] of Object.entries(v)) g.setProperty(t, k, checkPropertyValue(x));
  }
}

// ---- projection (WITH, RETURN) ----

/** A projected row, with the context ORDER BY and WITH … WHERE may read: the input row under the new names. */
interface Projected {
  row: Row;
  sortCtx: Row;
  aggValues?: Map<Expr, Value>;
}

function project(
  p: Projection,
  rows: Iterable<Row>,
  scope: string[],
  ctx: EvalContext,
  where: Expr | null = null,
): { rows: Iterable<Row>; columns: string[] } {
  const items = [
    ...(p.star
      ? [...scope].sort().map((v) => ({ expr: { kind: 'var', name: v, pos: 0 } as Expr, alias: v, text: v }))
      : []),
    ...p.items,
  ];
  const columns = items.map((i) => i.alias ?? i.text);
  return { columns, rows: projectRows(p, items, columns, rows, ctx, where) };
}

function* projectRows(
  p: Projection,
  items: Projection['items'],
  columns: string[],
  rows: Iterable<Row>,
  ctx: EvalContext,
  where: Expr | null,
): Generator<Row> {
  const aggs: Call[] = [];
  for (const i of items) findAggregates(i.expr, aggs, isAggregate);
  const orderAggs: Call[] = [];
  for (const o of p.order) findAggregates(o.expr, orderAggs, isAggregate);
  let out =
    aggs.length === 0 && orderAggs.length === 0
      ? mapRows(items, columns, rows, ctx)
      : groupRows(items, columns, [...aggs, ...orderAggs], rows, ctx);
  if (p.distinct) out = distinctRows(out, columns, ctx);
  const skip = p.skip ? count(p.skip, 'SKIP', ctx) : 0;
  const limit = p.limit ? count(p.limit, 'LIMIT', ctx) : Number.POSITIVE_INFINITY;
  if (p.order.length > 0) out = sortedRows(out, p, ctx, skip + limit);
  // SKIP and LIMIT count rows before WITH … WHERE, which sees the projected names and the variables before.
  const it = out[Symbol.iterator]();
  try {
    let seen = 0;
    let taken = 0;
    for (let next = taken < limit ? it.next() : undefined; next && !next.done; next = it.next()) {
      if (seen++ < skip) continue;
      const r = next.value;
      if (!where || truthy(evaluate(where, r.sortCtx, ctx)) === true) yield r.row;
      if (++taken >= limit) break;
    }
    // Past the LIMIT a reading query stops here; a writing one reads on, so that its writes happen for all rows.
    if (ctx.writes) for (let next = it.next(); !next.done; next = it.next());
  } finally {
    it.return?.(undefined);
  }
}

function* mapRows(items: Projection['items'], columns: string[], rows: Iterable<Row>, ctx: EvalContext) {
  for (const row of rows) {
    ctx.budget.tick();
    const o: Row = {};
    items.forEach((it, k) => {
      setOwn(o, columns[k]!, evaluate(it.expr, row, ctx));
    });
    yield { row: o, sortCtx: { ...row, ...o } } as Projected;
  }
}

/** Aggregation: one group per distinct key, each aggregate folded row by row (rows are not kept). */
function* groupRows(
  items: Projection['items'],
  columns: string[],
  aggs: Call[],
  rows: Iterable<Row>,
  ctx: EvalContext,
): Generator<Projected> {
  const keyItems = items
    .map((it, k) => ({ it, k }))
    .filter(({ it }) => findAggregates(it.expr, [], isAggregate).length === 0);
  const held = new Held(ctx.budget, 'aggregation');
  try {
    const groups = new Map<string, { keyRow: Row; keys: Value[]; accs: Accumulator[] }>();
    const group = (keyRow: Row, keys: Value[]) => ({
      keyRow,
      keys,
      accs: aggs.map((a) => accumulator(a, ctx, held)),
    });
    for (const row of rows) {
      ctx.budget.tick();
      const keys = keyItems.map(({ it }) => evaluate(it.expr, row, ctx));
      const k = equivalenceKey(keys);
      let g = groups.get(k);
      if (!g) {
        g = group(row, keys);
        groups.set(k, g);
        held.add(rowBytes(row) + 2 * k.length + 64 * (1 + aggs.length));
      }
      for (const acc of g.accs) acc.add(row);
    }
    if (groups.size === 0 && keyItems.length === 0) groups.set('', group({}, []));
    for (const g of groups.values()) {
      ctx.budget.tick();
      const values = new Map<Expr, Value>();
      aggs.forEach((a, i) => {
        values.set(a, g.accs[i]!.result());
      });
      const actx = { ...ctx, aggregates: values };
      const o: Row = {};
      items.forEach((it, k) => {
        const ki = keyItems.findIndex((x) => x.k === k);
        setOwn(o, columns[k]!, ki >= 0 ? g.keys[ki]! : evaluate(it.expr, g.keyRow, actx));
      });
      yield { row: o, sortCtx: { ...g.keyRow, ...o }, aggValues: values };
    }
  } finally {
    held.release();
  }
}

function* distinctRows(out: Iterable<Projected>, columns: string[], ctx: EvalContext): Generator<Projected> {
  const seen = new Set<string>();
  const held = new Held(ctx.budget, 'DISTINCT');
  try {
    for (const r of out) {
      const k = equivalenceKey(columns.map((c) => lookup(r.row, c) ?? null));
      if (seen.has(k)) continue;
      seen.add(k);
      held.add(48 + 2 * k.length);
      yield r;
    }
  } finally {
    held.release();
  }
}

/**
 * ORDER BY: every row is held, or with a LIMIT only the `keep` (SKIP + LIMIT) first: the buffer is sorted
 * and cut back whenever it doubles. The sort is stable, so ties keep their input order either way.
 */
function* sortedRows(out: Iterable<Projected>, p: Projection, ctx: EvalContext, keep: number): Generator<Projected> {
  const held = new Held(ctx.budget, 'ORDER BY');
  type Keyed = { r: Projected; keys: Value[]; bytes: number };
  const cmp = (a: Keyed, b: Keyed) => {
    ctx.budget.tick();
    for (let i = 0; i < p.order.length; i++) {
      const c = orderCompare(a.keys[i]!, b.keys[i]!);
      if (c !== 0) return p.order[i]!.descending ? -c : c;
    }
    return 0;
  };
  const cut = (buf: Keyed[]) => {
    buf.sort(cmp);
    if (buf.length <= keep) return;
    for (const k of buf.slice(keep)) held.add(-k.bytes);
    buf.length = keep;
  };
  try {
    const buf: Keyed[] = [];
    for (const r of out) {
      const octx = r.aggValues ? { ...ctx, aggregates: r.aggValues } : ctx;
      const keys = p.order.map((o) => evaluate(o.expr, r.sortCtx, octx));
      let bytes = rowBytes(r.sortCtx) + rowBytes(r.row);
      for (const k of keys) bytes += measure(k).bytes;
      held.add(bytes);
      buf.push({ r, keys, bytes });
      if (buf.length >= 2 * keep + 1024) cut(buf);
    }
    cut(buf);
    for (const k of buf) yield k.r;
  } finally {
    held.release();
  }
}

/** The value of a SKIP or LIMIT: a non-negative INTEGER, read once before any row. */
export function count(e: Expr, what: string, ctx: EvalContext): number {
  const v = evaluate(e, {}, ctx);
  if (typeof v === 'number' && Number.isInteger(v))
    return count({ kind: 'literal', value: BigInt(v), pos: 0 }, what, ctx);
  if (typeof v !== 'bigint') {
    throw new CypherSyntaxError(
      'InvalidArgumentType',
      `${what} needs an INTEGER, got ${typeName(v)}`,
      undefined,
      'runtime',
    );
  }
  if (v < 0n)
    throw new CypherSyntaxError('NegativeIntegerArgument', `${what} cannot be negative`, undefined, 'runtime');
  return Number(v);
}

export { CypherArgumentError };
