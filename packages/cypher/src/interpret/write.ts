// The interpreter's writing clauses (CREATE, MERGE, SET, REMOVE, DELETE) and CALL. A writing clause reads all
// of its input (held against the memory budget) before it writes, as openCypher's semantics for updates say.
import type { Clause, Expr, PatternPart, SetItem } from '../ast.js';
import { Held, rowBytes } from '../budget.js';
import { CypherError, CypherParameterMissingError, CypherSemanticError, CypherTypeError } from '../errors.js';
import { type EvalContext, evaluate, lookup, type Row, truthy } from '../eval.js';
import { type GraphWriter, isWritable } from '../graph.js';
import { matchPart } from '../match.js';
import { coerceArgument, type Procedure } from '../procedures.js';
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
} from '../values.js';

type WriteClause = Extract<Clause, { kind: 'create' | 'merge' | 'set' | 'remove' | 'delete' }>;

export function collect(rows: Iterable<Row>, ctx: EvalContext, held: Held): Row[] {
  const out: Row[] = [];
  for (const r of rows) {
    ctx.budget.tick();
    held.add(rowBytes(r));
    out.push(r);
  }
  return out;
}

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

/** The rows after a writing clause, its writes done when the first is pulled. */
export function writeClause(c: WriteClause, rows: Iterable<Row>, ctx: EvalContext): Iterable<Row> {
  switch (c.kind) {
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
      return out;
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
      return out;
    }
    // Deliberate likeness: SET and REMOVE run alike through writes(); the item each applies differs.
    case 'set': {
      const g = writer(ctx);
      const out = writes(rows, ctx, 'SET', (input) => {
        for (const row of input) {
          ctx.budget.tick();
          applySet(c.items, row, g, ctx);
        }
        return input;
      });
      return out;
    }
    // Deliberate likeness: as SET above.
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
      return out;
    }
    case 'delete': {
      const g = writer(ctx);
      return writes(rows, ctx, 'DELETE', (input) => deleteRows(c, input, g, ctx));
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

export function* callRows(
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
