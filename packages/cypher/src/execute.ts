// The executor: runs a checked query clause by clause over a list of rows. Each clause sees the complete
// output of the clause before it, which is the semantics openCypher specifies for updates and reads.
import { aggregate, children, findAggregates } from './aggregate.js';
import type { Clause, Expr, PatternPart, Projection, Query, SetItem, SingleQuery } from './ast.js';
import { equivalenceKey, orderCompare } from './compare.js';
import {
  CypherArgumentError,
  CypherError,
  CypherParameterMissingError,
  CypherSemanticError,
  CypherSyntaxError,
  CypherTypeError,
} from './errors.js';
import { coerceArgument, yieldItems } from './procedures.js';
import { countPaths } from './path-count.js';
import { columnarAggregate } from './pushdown.js';
import { type EvalContext, evaluate, lookup, type Row, truthy } from './eval.js';
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

type Call = Extract<Expr, { kind: 'call' }>;
export const isAggregate = (c: Call): boolean => AGGREGATES.has(c.name.toLowerCase());

export function executeQuery(q: Query, ctx: EvalContext): Result {
  const results = q.parts.map((p) => executeSingle(p, ctx));
  if (results.length === 1) return results[0]!;
  const columns = results[0]!.columns;
  const rows: Value[][] = [];
  for (const r of results) rows.push(...r.rows);
  if (q.unionAll.every((a) => a)) return { columns, rows };
  return { columns, rows: distinctRows(rows) };
}

function distinctRows(rows: Value[][]): Value[][] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const k = equivalenceKey(r);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** EXISTS { … }: whether the clauses, run on the outer row, leave any row. */
export function subqueryHasRows(q: SingleQuery, row: Row, ctx: EvalContext): boolean {
  let rows: Row[] = [row];
  let scope = Object.keys(row);
  for (const c of q.clauses) {
    if (c.kind === 'return') return project(c, rows, scope, ctx).rows.length > 0;
    [rows, scope] = runClause(c, rows, scope, ctx);
  }
  return rows.length > 0;
}

function executeSingle(q: SingleQuery, ctx: EvalContext): Result {
  const pushed = columnarAggregate(q, ctx) ?? countPaths(q, ctx);
  if (pushed) return pushed;
  let rows: Row[] = [{}];
  let scope: string[] = [];
  const only = q.clauses.length === 1 ? q.clauses[0] : undefined;
  if (only?.kind === 'call') {
    // A standalone CALL returns its yields, or every output.
    const proc = ctx.procedures?.get(only.name);
    const columns = proc ? yieldItems(only.yields, proc).map((y) => y.alias) : [];
    const [out] = runClause(only, rows, scope, ctx);
    // A procedure without outputs returns no rows when called on its own.
    if (columns.length === 0) return { columns, rows: [] };
    return { columns, rows: out.map((r) => columns.map((k) => lookup(r, k) ?? null)) };
  }
  for (const c of q.clauses) {
    if (c.kind === 'return') {
      const { rows: out, columns } = project(c, rows, scope, ctx);
      return { columns, rows: out.map((r) => columns.map((k) => lookup(r, k) ?? null)) };
    }
    [rows, scope] = runClause(c, rows, scope, ctx);
  }
  return { columns: [], rows: [] };
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

function runClause(c: Clause, rows: Row[], scope: string[], ctx: EvalContext): [Row[], string[]] {
  switch (c.kind) {
    case 'match': {
      const out: Row[] = [];
      const newVars = patternVars(c.pattern).filter((v) => !scope.includes(v));
      const hints = c.where ? lookupHints(c.where, scope) : undefined;
      for (const row of rows) {
        let found = false;
        for (const r of matchPattern(c.pattern, row, ctx, hints)) {
          if (c.where && truthy(evaluate(c.where, r, ctx)) !== true) continue;
          found = true;
          out.push(r);
        }
        if (!found && c.optional) {
          const r = { ...row };
          for (const v of newVars) setOwn(r, v, null);
          out.push(r);
        }
      }
      return [out, addScope(scope, newVars)];
    }
    case 'unwind': {
      const out: Row[] = [];
      for (const row of rows) {
        const v = evaluate(c.expr, row, ctx);
        if (v === null) continue;
        for (const x of Array.isArray(v) ? v : [v]) {
          ctx.tick();
          out.push({ ...row, [c.alias]: x });
        }
      }
      return [out, addScope(scope, [c.alias])];
    }
    case 'with': {
      const { rows: out, columns } = project(c, rows, scope, ctx, c.where);
      return [out, columns];
    }
    case 'create': {
      const g = writer(ctx);
      const out = rows.map((row) => {
        let r = row;
        for (const part of c.pattern) r = createPart(part, r, g, ctx);
        return r;
      });
      return [out, addScope(scope, patternVars(c.pattern))];
    }
    case 'merge': {
      const g = writer(ctx);
      const out: Row[] = [];
      for (const row of rows) {
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
            out.push(m);
          }
        } else {
          const r = createPart(c.pattern, row, g, ctx);
          applySet(c.onCreate, r, g, ctx);
          out.push(r);
        }
      }
      return [out, addScope(scope, patternVars([c.pattern]))];
    }
    case 'set': {
      const g = writer(ctx);
      for (const row of rows) applySet(c.items, row, g, ctx);
      return [rows, scope];
    }
    case 'remove': {
      const g = writer(ctx);
      for (const row of rows) {
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
      return [rows, scope];
    }
    case 'delete': {
      const g = writer(ctx);
      const nodes: GraphNode[] = [];
      for (const row of rows) {
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
      return [rows, scope];
    }
    case 'call': {
      const proc = ctx.procedures?.get(c.name);
      if (!proc)
        throw new CypherError('ProcedureError', 'ProcedureNotFound', `there is no procedure ${c.name}`, 'compile');
      const out: Row[] = [];
      const yields = yieldItems(c.yields, proc);
      for (const row of rows) {
        const args = proc.inputs.map((field, i) => {
          if (c.args) return coerceArgument(field, evaluate(c.args[i]!, row, ctx));
          const v = ownValue(ctx.params, field.name);
          if (v === undefined) throw new CypherParameterMissingError(field.name);
          return coerceArgument(field, v);
        });
        // A procedure without outputs runs for its effect and keeps the row.
        if (proc.outputs.length === 0) {
          for (const _ of proc.call(args)) ctx.tick();
          out.push(row);
          continue;
        }
        for (const values of proc.call(args)) {
          ctx.tick();
          const r = { ...row };
          for (const y of yields) setOwn(r, y.alias, values[proc.outputs.findIndex((o) => o.name === y.name)] ?? null);
          if (c.where && truthy(evaluate(c.where, r, ctx)) !== true) continue;
          out.push(r);
        }
      }
      return [out, addScope(scope, c.yields ? yields.map((y) => y.alias) : [])];
    }
    case 'return':
      return [rows, scope];
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
  if (Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object' || x instanceof TemporalValue)) return v;
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

function project(
  p: Projection,
  rows: Row[],
  scope: string[],
  ctx: EvalContext,
  where: Expr | null = null,
): { rows: Row[]; columns: string[] } {
  const items = [
    ...(p.star
      ? [...scope].sort().map((v) => ({ expr: { kind: 'var', name: v, pos: 0 } as Expr, alias: v, text: v }))
      : []),
    ...p.items,
  ];
  const columns = items.map((i) => i.alias ?? i.text);
  const aggs: Call[] = [];
  for (const i of items) findAggregates(i.expr, aggs, isAggregate);
  const orderAggs: Call[] = [];
  for (const o of p.order) findAggregates(o.expr, orderAggs, isAggregate);

  // Each output row keeps the context ORDER BY may read: the input row under the projected names.
  let out: { row: Row; sortCtx: Row; aggValues?: Map<Expr, Value> }[] = [];
  if (aggs.length === 0 && orderAggs.length === 0) {
    for (const row of rows) {
      ctx.tick();
      const o: Row = {};
      items.forEach((it, k) => {
        setOwn(o, columns[k]!, evaluate(it.expr, row, ctx));
      });
      out.push({ row: o, sortCtx: { ...row, ...o } });
    }
  } else {
    const keyItems = items
      .map((it, k) => ({ it, k }))
      .filter(({ it }) => findAggregates(it.expr, [], isAggregate).length === 0);
    const groups = new Map<string, { keyRow: Row; rows: Row[]; keys: Value[] }>();
    for (const row of rows) {
      ctx.tick();
      const keys = keyItems.map(({ it }) => evaluate(it.expr, row, ctx));
      const k = equivalenceKey(keys);
      let g = groups.get(k);
      if (!g) {
        g = { keyRow: row, rows: [], keys };
        groups.set(k, g);
      }
      g.rows.push(row);
    }
    if (groups.size === 0 && keyItems.length === 0) groups.set('', { keyRow: {}, rows: [], keys: [] });
    for (const g of groups.values()) {
      const values = new Map<Expr, Value>();
      for (const a of [...aggs, ...orderAggs]) values.set(a, aggregate(a, g.rows, ctx));
      const actx = { ...ctx, aggregates: values };
      const o: Row = {};
      items.forEach((it, k) => {
        const ki = keyItems.findIndex((x) => x.k === k);
        setOwn(o, columns[k]!, ki >= 0 ? g.keys[ki]! : evaluate(it.expr, g.keyRow, actx));
      });
      out.push({ row: o, sortCtx: { ...g.keyRow, ...o }, aggValues: values });
    }
  }

  if (p.distinct) {
    const seen = new Set<string>();
    out = out.filter((r) => {
      const k = equivalenceKey(columns.map((c) => lookup(r.row, c) ?? null));
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  }
  if (p.order.length > 0) {
    const keyed = out.map((r) => {
      const octx = r.aggValues ? { ...ctx, aggregates: r.aggValues } : ctx;
      return { r, keys: p.order.map((o) => evaluate(o.expr, r.sortCtx, octx)) };
    });
    keyed.sort((a, b) => {
      for (let i = 0; i < p.order.length; i++) {
        const c = orderCompare(a.keys[i]!, b.keys[i]!);
        if (c !== 0) return p.order[i]!.descending ? -c : c;
      }
      return 0;
    });
    out = keyed.map((k) => k.r);
  }
  const skip = p.skip ? count(p.skip, 'SKIP', ctx) : 0;
  const limit = p.limit ? count(p.limit, 'LIMIT', ctx) : Number.POSITIVE_INFINITY;
  let sliced = out.slice(skip, skip + limit);
  // WITH … WHERE sees the projected names and, like ORDER BY, the variables before them.
  if (where) sliced = sliced.filter((r) => truthy(evaluate(where, r.sortCtx, ctx)) === true);
  return { rows: sliced.map((r) => r.row), columns };
}

function count(e: Expr, what: string, ctx: EvalContext): number {
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
