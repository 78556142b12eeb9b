// The planner: a bound query (semantic.ts) → a logical plan (operators.ts). Each MATCH part starts at its
// cheapest node (bound before the MATCH, found by an index seek, or the smallest label by the graph's counts)
// and expands first the side whose hops make fewer rows; WHERE is split into conjuncts, each placed right
// after the operator that binds its last variable. WITH and RETURN become Projection or Aggregate, Distinct,
// Sort, Skip, Limit and Filter.
// What is not planned yet (writes, CALL, a relationship variable repeated in one MATCH or a variable-length
// one bound before it) makes the whole query an `Interpret` leaf: it runs clause by clause.
import { findAggregates } from '../aggregate.js';
import type { Clause, Expr, NodePattern, PatternPart, Projection, SingleQuery } from '../ast.js';
import { isAggregate } from '../interpret/project.js';
import type { Direction, GraphReader } from '../graph.js';
import type { BoundQuery } from '../semantic.js';
import { chainCost, type Counts, leftFirst, relChainCost } from './cost.js';
import { DEFAULT_NODES, EQUALITY, limitEstimate, RANGE, selectivity } from './cost.js';
import { mapExpr, varsOf } from './exprs.js';
import { conjuncts, type RangeEnd, rangeOf, seekOf } from './seeks.js';
import type { Item, Op, Predicate } from './operators.js';

class NotPlanned extends Error {}

/** What visiting a relationship that builds no row costs, in rows. */
const VISIT = 0.1;

const WRITES = new Set<Clause['kind']>(['create', 'merge', 'set', 'remove', 'delete', 'call']);

export function planQuery(bound: BoundQuery, graph: GraphReader): Op {
  const q = bound.query;
  if (q.parts.some((p) => p.clauses.some((c) => WRITES.has(c.kind)))) {
    return { op: 'Interpret', reason: 'the query writes or calls a procedure', est: 0 };
  }
  try {
    const planner = new Planner(graph);
    const parts = bound.parts.map((p) => planner.single(p.query, p.scopes));
    if (parts.length === 1) return parts[0]!;
    const all = q.unionAll.every((a) => a);
    const columns = (parts[0] as Extract<Op, { op: 'ProduceResults' }>).columns;
    const inputs = parts.map((p) => (p as Extract<Op, { op: 'ProduceResults' }>).input);
    const est = inputs.reduce((s, p) => s + p.est, 0);
    return { op: 'ProduceResults', columns, est, input: { op: 'Union', inputs, all, columns, est } };
  } catch (e) {
    if (e instanceof NotPlanned) return { op: 'Interpret', reason: e.message, est: 0 };
    throw e;
  }
}

class Planner {
  private hidden = 0;

  constructor(private readonly graph: GraphReader) {}

  private anon(kind: string): string {
    return ` ${kind}${this.hidden++}`;
  }

  private readonly counts = new Map<string | undefined, number>();
  /** The graph's counts as the cost model reads them (cost.ts). */
  private readonly costs: Counts = { nodes: (l) => this.nodes(l), degree: (t, d) => this.degree(t, d) };

  private nodes(label?: string): number {
    let n = this.counts.get(label);
    if (n === undefined) {
      const g = this.graph;
      n = (g.estimateNodes ? g.estimateNodes(label) : g.countNodes?.(label)) ?? DEFAULT_NODES;
      this.counts.set(label, n);
    }
    return n;
  }

  /** Average relationships of `types` per node, in `direction` (both ways doubles it). */
  private degree(types: string[], direction: Direction): number {
    const n = Math.max(1, this.nodes());
    const rels =
      types.length === 0
        ? this.graph.countRelationships?.()
        : types.reduce<number | undefined>((s, t) => {
            const c = this.graph.countRelationships?.(t);
            return s === undefined || c === undefined ? undefined : s + c;
          }, 0);
    const per = rels === undefined ? 2 : rels / n;
    return direction === 'both' ? 2 * per : per;
  }

  single(q: SingleQuery, scopes: readonly ReadonlyMap<string, unknown>[]): Op {
    let op: Op = { op: 'Argument', est: 1 };
    let scope = new Set<string>();
    for (const [i, c] of q.clauses.entries()) {
      switch (c.kind) {
        case 'match':
          if (c.optional) {
            const inner = this.match(c.pattern, c.where, { op: 'Argument', est: 1 }, scope);
            const nullable = [...scopes[i]!.keys()].filter((v) => !scope.has(v));
            op = { op: 'Optional', input: op, inner, nullable, est: Math.max(op.est, op.est * inner.est) };
          } else op = this.match(c.pattern, c.where, op, scope);
          break;
        case 'unwind':
          op = { op: 'Unwind', input: op, expr: c.expr, alias: c.alias, est: op.est * 10 };
          break;
        case 'with':
          op = this.projection(c, op, scope, c.where);
          break;
        case 'return': {
          op = this.projection(c, op, scope, null);
          const columns = [...(c.star ? [...scope].sort() : []), ...c.items.map((it) => it.alias ?? it.text)];
          return { op: 'ProduceResults', input: op, columns, est: op.est };
        }
        default:
          throw new NotPlanned(`${c.kind.toUpperCase()} is not planned`);
      }
      scope = new Set(scopes[i]!.keys());
    }
    throw new NotPlanned('a query without RETURN');
  }

  private match(parts: PatternPart[], where: Expr | null, input: Op, before: Set<string>): Op {
    const bound = new Set(before);
    const relVars: string[] = [];
    let pending = conjuncts(where);
    let op = input;
    const seen = new Set<string>();
    for (const part of parts) {
      for (const r of part.rels) {
        if (r.variable === null) continue;
        // Bound before the MATCH, a relationship is an Expand that must follow it, a list a path that must be it.
        if (seen.has(r.variable)) {
          throw new NotPlanned('a relationship variable bound twice');
        }
        seen.add(r.variable);
      }
    }
    /** Filters whose variables are now all bound, placed here. */
    const place = (extra: Predicate[]): void => {
      const ready: Predicate[] = [...extra];
      pending = pending.filter((e) => {
        const vars = varsOf(e);
        if (vars === 'late' || ![...vars].every((v) => bound.has(v) || !this.isPatternVar(v, parts))) return true;
        ready.push({ kind: 'expr', expr: e });
        return false;
      });
      if (ready.length === 0) return;
      let est = op.est;
      for (const p of ready) est *= p.kind === 'expr' ? selectivity(p.expr) : p.kind === 'props' ? EQUALITY : 1;
      op = { op: 'Filter', input: op, predicates: ready, est };
    };
    for (const part of parts) {
      const names = part.nodes.map((n) => n.variable ?? this.anon('node'));
      const rels = part.rels.map((r) => r.variable ?? this.anon('rel'));
      const a = this.anchor(part, names, bound, pending);
      const ra = this.relAnchor(part, names, rels, bound, pending, a);
      const hop = (i: number, from: number, to: number, direction: Direction, reversed: boolean) => {
        const r = part.rels[i]!;
        const into = bound.has(names[to]!);
        const common = {
          input: op,
          from: names[from]!,
          rel: rels[i]!,
          to: names[to]!,
          direction,
          types: r.types,
          into,
          distinctFrom: [...relVars],
        };
        const deg = this.degree(r.types, direction);
        if (r.range === null) {
          const relBound = bound.has(rels[i]!);
          op = { op: 'Expand', ...common, relBound, est: op.est * (into || relBound ? Math.min(1, deg) : deg) };
        } else {
          const min = r.range.min ?? 1;
          const max = r.range.max ?? Number.POSITIVE_INFINITY;
          const est = op.est * deg ** Math.min(max, 3);
          const relBound = bound.has(rels[i]!);
          const e = relBound ? Math.min(1, est) : est;
          op = { op: 'VarLengthExpand', ...common, min, max, reversed, relProps: r.properties, relBound, est: e };
        }
        relVars.push(rels[i]!);
        bound.add(names[to]!);
        const preds = this.nodePredicates(part.nodes[to]!, names[to]!, 0);
        if (r.range === null && r.properties) preds.push({ kind: 'props', variable: rels[i]!, map: r.properties });
        bound.add(rels[i]!);
        place(preds);
      };
      if (ra !== undefined) {
        // Starting at a rare relationship type: both ends bound by the scan, then the hops out of them.
        op = this.relScan(part, ra, names, rels[ra]!, op, relVars);
        relVars.push(rels[ra]!);
        for (const v of [names[ra]!, names[ra + 1]!, rels[ra]!]) bound.add(v);
        place(this.relScanPredicates(part, ra, names, rels[ra]!));
      } else {
        op = this.anchorOp(part.nodes[a]!, names[a]!, op, bound, pending);
        bound.add(names[a]!);
        const labelled =
          op.op === 'NodeByLabelScan' ||
          ((op.op === 'NodeIndexSeek' || op.op === 'NodeIndexRangeSeek') && op.label !== undefined);
        place(this.nodePredicates(part.nodes[a]!, names[a]!, labelled ? 1 : 0));
      }
      const right = ra === undefined ? a : ra + 1;
      const left = ra === undefined ? a : ra;
      // The side whose hops make fewer rows first (a labelled neighbour before a wide fan-out).
      const order = leftFirst(part, right, left, op.est, this.costs) ? ['left', 'right'] : ['right', 'left'];
      for (const side of order) {
        if (side === 'right')
          for (let i = right; i < part.rels.length; i++) hop(i, i, i + 1, part.rels[i]!.direction, false);
        else for (let i = left - 1; i >= 0; i--) hop(i, i + 1, i, flip(part.rels[i]!.direction), true);
      }
      if (part.variable !== null) {
        op = { op: 'NamedPath', input: op, variable: part.variable, nodes: names, rels, est: op.est };
        bound.add(part.variable);
        place([]);
      }
    }
    // Pattern predicates become SemiApply over the pattern planned from the bound variables; the rest filter.
    const semis: Op[] = [];
    const rest: Expr[] = [];
    for (const e of pending) {
      const s = this.semiApply(e, bound);
      if (s) semis.push(s);
      else rest.push(e);
    }
    if (rest.length > 0) {
      let est = op.est;
      for (const e of rest) est *= selectivity(e);
      op = { op: 'Filter', input: op, predicates: rest.map((expr) => ({ kind: 'expr', expr })), est };
    }
    for (const s of semis) op = { ...(s as Extract<Op, { op: 'SemiApply' }>), input: op, est: op.est * RANGE };
    return op;
  }

  /** `(pattern)`, `EXISTS { pattern [WHERE …] }` or their negation, as a SemiApply (its input set later). */
  private semiApply(e: Expr, bound: Set<string>): Op | undefined {
    const anti = e.kind === 'unary' && e.op === 'not';
    const x = anti ? (e as Extract<Expr, { kind: 'unary' }>).arg : e;
    let pattern: PatternPart[];
    let where: Expr | null = null;
    if (x.kind === 'patternExpr') pattern = [x.pattern];
    else if (x.kind === 'existsSubquery' && x.pattern && !x.query) {
      pattern = x.pattern;
      where = x.where;
    } else return undefined;
    const arg: Op = { op: 'Argument', est: 1 };
    try {
      const inner = this.match(pattern, where, arg, bound);
      return { op: 'SemiApply', input: arg, inner, anti, est: 1 };
    } catch (err) {
      if (err instanceof NotPlanned) return undefined;
      throw err;
    }
  }

  private isPatternVar(v: string, parts: PatternPart[]): boolean {
    return parts.some(
      (p) => p.variable === v || p.nodes.some((n) => n.variable === v) || p.rels.some((r) => r.variable === v),
    );
  }

  /** Labels beyond the first `skip` (a label scan checks the first) and the property map of a node. */
  private nodePredicates(n: NodePattern, name: string, skip: number): Predicate[] {
    const out: Predicate[] = [];
    if (n.labels.length > skip) out.push({ kind: 'labels', variable: name, labels: n.labels.slice(skip) });
    if (n.properties) out.push({ kind: 'props', variable: name, map: n.properties });
    return out;
  }

  /** The node to start from: bound, else the one whose chain (plan/cost.ts) is cheapest by estimated rows. */
  private anchor(part: PatternPart, names: string[], bound: Set<string>, where: Expr[]): number {
    let best = 0;
    let bestCost = Number.POSITIVE_INFINITY;
    part.nodes.forEach((n, i) => {
      const cost = bound.has(names[i]!)
        ? 0
        : chainCost(part, i, this.startCost(n, names[i]!, bound, where), this.costs);
      if (cost < bestCost) {
        best = i;
        bestCost = cost;
      }
    });
    return best;
  }

  private relScan(part: PatternPart, i: number, names: string[], rel: string, input: Op, relVars: string[]): Op {
    const r = part.rels[i]!;
    const est = input.est * (this.relRows(r.types, r.direction) ?? 1);
    const { direction, types } = r;
    const [from, to] = [names[i]!, names[i + 1]!];
    return { op: 'RelationshipScan', input, from, rel, to, direction, types, distinctFrom: [...relVars], est };
  }

  /** The labels and property maps of a RelationshipScan's ends and relationship. */
  private relScanPredicates(part: PatternPart, i: number, names: string[], rel: string): Predicate[] {
    const r = part.rels[i]!;
    const preds = [
      ...this.nodePredicates(part.nodes[i]!, names[i]!, 0),
      ...this.nodePredicates(part.nodes[i + 1]!, names[i + 1]!, 0),
    ];
    if (r.properties) preds.push({ kind: 'props', variable: rel, map: r.properties });
    return preds;
  }

  /** Relationships of `types` (both ways doubled), from the graph's counts; undefined when it has none. */
  private relRows(types: string[], direction: Direction): number | undefined {
    let n = 0;
    for (const t of types) {
      const c = this.graph.countRelationships?.(t);
      if (c === undefined) return undefined;
      n += c;
    }
    return direction === 'both' ? 2 * n : n;
  }

  /**
   * A typed relationship to start the part at instead of the node anchor `a` (RelationshipScan) when that chain is
   * cheaper: a hop from a scanned node visits all of its relationships whatever their type, charged as VISIT each.
   */
  private relAnchor(part: PatternPart, names: string[], rels: string[], bound: Set<string>, where: Expr[], a: number) {
    const n = part.nodes[a]!;
    if (!this.graph.scanRelationships || bound.has(names[a]!)) return undefined;
    if (this.seek(n, names[a]!, bound, where) || this.rangeSeek(n, names[a]!, bound, where)) return undefined;
    const start = this.startCost(n, names[a]!, bound, where);
    let best: number | undefined;
    let bestCost = chainCost(part, a, start, this.costs) + VISIT * start * this.degree([], 'both');
    part.rels.forEach((r, i) => {
      const [x, y] = [names[i]!, names[i + 1]!];
      if (r.range !== null || r.types.length === 0 || x === y || [x, y, rels[i]!].some((v) => bound.has(v))) return;
      const rows = this.relRows(r.types, r.direction);
      if (rows === undefined) return;
      const cost = relChainCost(part, i, rows, this.costs);
      if (cost < bestCost) {
        best = i;
        bestCost = cost;
      }
    });
    return best;
  }

  private seek(n: NodePattern, name: string, bound: Set<string>, where: Expr[]) {
    if (!this.graph.findNodes) return undefined;
    if (n.properties?.kind === 'map' && n.properties.entries.length > 0) {
      const [key, value] = n.properties.entries[0]!;
      const vars = varsOf(value);
      if (vars !== 'late' && [...vars].every((v) => bound.has(v))) return { key, value };
    }
    for (const e of where) {
      const s = seekOf(e, name, bound);
      if (s) return s;
    }
    return undefined;
  }

  /** Comparisons of `name.key` with values known before it, on a key the graph has an ordered index for. */
  private rangeSeek(n: NodePattern, name: string, bound: Set<string>, where: Expr[]) {
    const g = this.graph;
    if (!g.findNodesInRange || !g.countNodesWhere) return undefined;
    const label = n.labels[0];
    let found: { key: string; lower?: RangeEnd; upper?: RangeEnd } | undefined;
    for (const e of where) {
      for (const r of rangeOf(e, name, bound)) {
        if ((found && found.key !== r.key) || g.countNodesWhere(label, r.key) === undefined) continue;
        found ??= { key: r.key };
        if (r.side === 'lower') found.lower ??= r.end;
        else found.upper ??= r.end;
      }
    }
    return found;
  }

  private startCost(n: NodePattern, name: string, bound: Set<string>, where: Expr[]): number {
    const label = n.labels[0];
    const s = this.seek(n, name, bound, where);
    if (s) return this.graph.countNodesWhere?.(label, s.key) ?? Math.max(1, this.nodes(label) * EQUALITY * EQUALITY);
    const r = this.rangeSeek(n, name, bound, where);
    if (r) return Math.max(1, this.nodes(label) * (r.lower && r.upper ? RANGE * RANGE : RANGE));
    return label === undefined ? this.nodes() : this.nodes(label);
  }

  private anchorOp(n: NodePattern, name: string, input: Op, bound: Set<string>, where: Expr[]): Op {
    if (bound.has(name)) {
      return { op: 'Filter', input, predicates: [{ kind: 'isNode', variable: name }], est: input.est };
    }
    const label = n.labels[0];
    const s = this.seek(n, name, bound, where);
    if (s) {
      const est = input.est * this.startCost(n, name, bound, where);
      return { op: 'NodeIndexSeek', input, variable: name, label, key: s.key, value: s.value, est };
    }
    const r = this.rangeSeek(n, name, bound, where);
    if (r) {
      const est = input.est * this.startCost(n, name, bound, where);
      return { op: 'NodeIndexRangeSeek', input, variable: name, label, ...r, est };
    }
    if (label !== undefined) {
      return { op: 'NodeByLabelScan', input, variable: name, label, est: input.est * this.nodes(label) };
    }
    return { op: 'NodeScan', input, variable: name, est: input.est * this.nodes() };
  }

  private projection(p: Projection, input: Op, scope: Set<string>, where: Expr | null): Op {
    const items: Item[] = [
      ...(p.star ? [...scope].sort().map((v) => ({ name: v, expr: { kind: 'var', name: v, pos: 0 } as Expr })) : []),
      ...p.items.map((it) => ({ name: it.alias ?? it.text, expr: it.expr })),
    ];
    const aggregates: Extract<Expr, { kind: 'call' }>[] = [];
    for (const it of items) findAggregates(it.expr, aggregates, isAggregate);
    // An aggregate inside ORDER BY is computed by the aggregation as a hidden item the sort then reads.
    const orderAggs: Extract<Expr, { kind: 'call' }>[] = [];
    for (const o of p.order) findAggregates(o.expr, orderAggs, isAggregate);
    const hidden = new Map(orderAggs.map((c) => [c as Expr, this.anon('order')]));
    const order = p.order.map((o) => ({
      ...o,
      expr: mapExpr(o.expr, (x) => {
        const name = hidden.get(x);
        return name === undefined ? undefined : { kind: 'var', name, pos: x.pos };
      }),
    }));
    if (order.some((o) => findAggregates(o.expr, [], isAggregate).length > 0)) {
      throw new NotPlanned('an aggregate inside a comprehension in ORDER BY');
    }
    aggregates.push(...orderAggs);
    // ORDER BY and WITH … WHERE read the input's variables too: the rows stay extended until they are done.
    const extended = p.order.length > 0 || where !== null;
    let op: Op;
    if (aggregates.length > 0) {
      const keys = items.filter((it) => findAggregates(it.expr, [], isAggregate).length === 0);
      const all = [...items, ...[...hidden].map(([expr, name]) => ({ name, expr }))];
      const est = keys.length === 0 ? 1 : Math.max(1, Math.sqrt(input.est));
      const reads = new Set<string>();
      for (const e of [...order.map((o) => o.expr), ...(where ? [where] : [])]) {
        const vars = varsOf(e);
        if (vars === 'late') reads.add(' pattern');
        else for (const v of vars) reads.add(v);
      }
      op = { op: 'Aggregate', input, keys, items: all, aggregates, keep: extended, reads: [...reads], est };
    } else {
      op = { op: 'Projection', input, items, keep: extended, est: input.est };
    }
    const columns = items.map((it) => it.name);
    if (p.distinct) op = { op: 'Distinct', input: op, columns, est: op.est };
    if (order.length > 0) op = { op: 'Sort', input: op, order, bounded: false, est: op.est };
    if (p.skip) op = { op: 'Skip', input: op, count: p.skip, est: op.est };
    if (p.limit) op = { op: 'Limit', input: op, count: p.limit, est: Math.min(op.est, limitEstimate(p.limit)) };
    if (where) op = { op: 'Filter', input: op, predicates: [{ kind: 'expr', expr: where }], est: op.est * RANGE };
    if (extended) {
      const vars = columns.map((name) => ({ name, expr: { kind: 'var', name, pos: 0 } as Expr }));
      op = { op: 'Projection', input: op, items: vars, keep: false, est: op.est };
    }
    return op;
  }
}

const flip = (d: Direction): Direction => (d === 'out' ? 'in' : d === 'in' ? 'out' : 'both');
