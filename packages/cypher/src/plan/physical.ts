// Running a plan: each operator is a generator pulling rows from its input (a LIMIT stops the reading), with
// the engine's budgets as in the interpreter: the deadline ticks in every loop, what Sort, Top, Distinct and
// Aggregate hold is counted against the memory budget, and a Sort whose rows all go to the result stops as
// soon as it holds more than max_rows. Rewritten shapes run over columns (columnar.ts) or count without
// building rows (count.ts). With `profile`, each operator's rows and time (inclusive) are recorded.
import { equals } from '../compare.js';
import { type EvalContext, evaluate, isList, listSource, lookup, type Row } from '../eval.js';
import { count } from '../interpret/project.js';
import { GraphNode, GraphRelationship, ownValue, PathValue, setOwn, type Value } from '../values.js';
import { holds, nodeCheck, propsOf, usedBy, walkPaths } from './checks.js';
import { columnarAggregate, columnScan, columnTuples } from './columnar.js';
import { chainRows, chainTuples } from './chain-walk.js';
import { columnarExpandAggregate } from './columnar-expand.js';
import { countExpansions, nodeCount } from './count.js';
import { adjacentRows, existsRow } from './exists.js';
import { aggregate, distinct, sort, top, union } from './holding.js';
import { optionalColumnRows, optionalColumnTuples } from './optional-columns.js';
import { nulledRow, optionalExpandRows } from './optional-expand.js';
import type { NodeCheck, Op } from './operators.js';
import { relFilterRows, relFiltersHold } from './rel-filter-adjacency.js';
import { slotScanRows } from './slot-scan.js';
import { slotRows } from './var-paths.js';

type OpOf<K extends Op['op']> = Extract<Op, { op: K }>;

export interface OpStats {
  rows: number;
  /** Milliseconds spent producing this operator's rows, its inputs included. */
  ms: number;
}

export type Profile = Map<Op, OpStats>;

export function runPlan(op: Op, ctx: EvalContext, profile?: Profile): Iterable<Value[]> {
  if (op.op !== 'ProduceResults') throw new Error(`a plan ends in ProduceResults, not ${op.op}`);
  const r = new Runner(ctx, profile);
  const columns = op.columns;
  return r.wrap(op, r.tuples(op.input, columns) ?? produce(r.rows(op.input, {}), columns));
}

function* produce(rows: Iterable<Row>, columns: string[]): Generator<Value[]> {
  for (const r of rows) yield columns.map((k) => lookup(r, k) ?? null);
}

function* later<T>(f: () => Iterable<T>): Generator<T> {
  yield* f();
}

const with1 = (row: Row, k: string, v: Value): Row => {
  const r = { ...row };
  setOwn(r, k, v);
  return r;
};

export class Runner {
  constructor(
    readonly ctx: EvalContext,
    private readonly profile?: Profile,
  ) {}

  /** The rows of `op` run on the argument row `arg`. */
  rows(op: Op, arg: Row): Iterable<Row> {
    return this.wrap(op, this.raw(op, arg));
  }

  wrap<T>(op: Op, it: Iterable<T>): Iterable<T> {
    const profile = this.profile;
    if (!profile) return it;
    let s = profile.get(op);
    if (!s) {
      s = { rows: 0, ms: 0 };
      profile.set(op, s);
    }
    const stats = s;
    return (function* () {
      const i = it[Symbol.iterator]();
      try {
        for (;;) {
          const t = performance.now();
          const n = i.next();
          stats.ms += performance.now() - t;
          if (n.done) return;
          stats.rows++;
          yield n.value;
        }
      } finally {
        i.return?.();
      }
    })();
  }

  // Deliberate likeness (eval.ts evaluate): a dispatch over a union's kinds, one case a line; alike in shape only.
  private raw(op: Op, arg: Row): Iterable<Row> {
    const ctx = this.ctx;
    switch (op.op) {
      case 'Argument':
        return [arg];
      case 'NodeScan':
      case 'NodeByLabelScan': {
        const label = op.op === 'NodeByLabelScan' ? op.label : undefined;
        return this.each(op.input, arg, (row) => this.scanRow(row, op.variable, label, op.where));
      }
      case 'NodeIndexSeek':
        return this.each(op.input, arg, (row) => this.seekRow(op, row));
      case 'NodeIndexRangeSeek':
        return this.each(op.input, arg, (row) => this.rangeSeekRow(op, row));
      case 'Expand':
        return this.each(
          op.input,
          arg,
          (row) =>
            (op.adjacency && (op.adjacency.relFilters ? relFilterRows(this, op, row) : adjacentRows(this, op, row))) ||
            this.expandRow(op, row),
        );
      case 'VarLengthExpand':
        return this.each(
          op.input,
          arg,
          (row) => (op.slots && slotRows(this.ctx, op, row)) || this.varLengthRow(op, row),
        );
      case 'RelationshipScan':
        return this.each(op.input, arg, (row) => (op.slots && slotScanRows(ctx, op, row)) || this.relScanRow(op, row));
      case 'Unwind':
        return this.each(op.input, arg, (row) => this.unwindRow(op, row));
      case 'Optional':
        return this.each(op.input, arg, (row) => this.optionalRow(op, row));
      case 'OptionalExpand':
        return this.each(op.input, arg, (row) => optionalExpandRows(this, op, row));
      case 'Filter':
        return this.map(op.input, arg, (row) => (op.predicates.every((p) => holds(p, row, ctx)) ? row : undefined));
      case 'Projection':
        return this.map(op.input, arg, (row) => this.projectRow(op, row));
      case 'SemiApply':
        return this.map(op.input, arg, (row) => this.semiApplyRow(op, row));
      case 'ExpandExists':
        return this.map(op.input, arg, (row) => existsRow(this, op, row));
      case 'NamedPath':
        return this.map(op.input, arg, (row) => this.namedPathRow(op, row));
      case 'Skip':
        return this.skip(op, arg);
      case 'Limit':
        return this.limit(op, arg);
      case 'Aggregate':
        return aggregate(this, op, arg);
      case 'Distinct':
        return distinct(this, op, arg);
      case 'Sort':
        return sort(this, op, arg);
      case 'Top':
        return top(this, op, arg);
      case 'Union':
        return union(this, op, arg);
      case 'ColumnarAggregate':
        return this.whole(() => columnarAggregate(op, ctx) ?? this.rows(op.fallback, arg));
      case 'ColumnarExpandAggregate':
        return this.whole(() => columnarExpandAggregate(op, ctx) ?? this.rows(op.fallback, arg));
      case 'NodeCount':
        return this.whole(() => nodeCount(op, ctx) ?? this.rows(op.fallback, arg));
      case 'NodeColumnScan':
        return this.whole(() => columnScan(op, ctx) ?? this.rows(op.fallback, arg));
      case 'OptionalColumnScan':
        return this.whole(() => optionalColumnRows(op, this) ?? this.rows(op.fallback, arg));
      case 'ChainProjection':
        return this.whole(() => chainRows(op, this, arg) ?? this.rows(op.fallback, arg));
      case 'ExpandCount':
        return countExpansions(op, this, arg);
      case 'ProduceResults':
      case 'Interpret':
        throw new Error(`${op.op} runs at the top of a plan only`);
    }
  }

  /**
   * An operator that does its work before its first row: with a profile, run on the first pull, so the work
   * counts in the operator's time (not in no operator's).
   */
  private whole<T>(f: () => Iterable<T>): Iterable<T> {
    return this.profile ? later(f) : f();
  }

  /**
   * The result's tuples straight from a column scan that reads every column of the result (late
   * materialisation to the end): the values are read into each result row, with no row object between.
   * Undefined for any other operator (its rows are projected to the columns as usual).
   */
  tuples(op: Op, columns: string[]): Iterable<Value[]> | undefined {
    const covers = (names: string[]) => columns.every((c) => names.includes(c));
    const fallback = (f: Op) => produce(this.rows(f, {}), columns);
    if (op.op === 'NodeColumnScan' && op.columns && covers(op.columns.map((c) => c.name)))
      return this.wrap(
        op,
        this.whole(() => columnTuples(op, this.ctx, columns) ?? fallback(op.fallback)),
      );
    if (op.op === 'OptionalColumnScan' && covers(op.items.map((i) => i.name)))
      return this.wrap(
        op,
        this.whole(() => optionalColumnTuples(op, this, columns) ?? fallback(op.fallback)),
      );
    if (op.op === 'ChainProjection' && !op.count && covers(op.items.map((i) => i.name)))
      return this.wrap(
        op,
        this.whole(() => chainTuples(op, this, columns) ?? fallback(op.fallback)),
      );
    return undefined;
  }

  /** The shape most operators share: each input row gives zero or more rows. */
  private *each(input: Op, arg: Row, f: (row: Row) => Iterable<Row>): Generator<Row> {
    for (const row of this.rows(input, arg)) yield* f(row);
  }

  /** Each input row gives at most one row (`undefined`: none), without a generator per row. */
  private *map(input: Op, arg: Row, f: (row: Row) => Row | undefined): Generator<Row> {
    for (const row of this.rows(input, arg)) {
      this.ctx.budget.tick();
      const out = f(row);
      if (out !== undefined) yield out;
    }
  }

  private *scanRow(row: Row, v: string, label: string | undefined, where?: NodeCheck): Generator<Row> {
    const budget = this.ctx.budget;
    const check = nodeCheck(where, row, this.ctx);
    for (const n of this.ctx.graph.scanNodes(label)) {
      budget.tick();
      if (n.deleted || (check && !check(n))) continue;
      yield with1(row, v, n);
    }
  }

  private *seekRow(op: OpOf<'NodeIndexSeek'>, row: Row): Generator<Row> {
    const g = this.ctx.graph;
    const value = evaluate(op.value, row, this.ctx);
    const found = g.findNodes?.(op.label, op.key, value);
    const check = nodeCheck(op.where, row, this.ctx);
    for (const n of found ?? g.scanNodes(op.label)) {
      this.ctx.budget.tick();
      if (n.deleted || (op.label !== undefined && !n.labels.includes(op.label)) || (check && !check(n))) continue;
      if (!found && equals(ownValue(n.properties, op.key) ?? null, value) !== true) continue;
      yield with1(row, op.variable, n);
    }
  }

  private *rangeSeekRow(op: OpOf<'NodeIndexRangeSeek'>, row: Row): Generator<Row> {
    const g = this.ctx.graph;
    const bound = (b: OpOf<'NodeIndexRangeSeek'>['lower']) =>
      b && { value: evaluate(b.value, row, this.ctx), inclusive: b.inclusive };
    const lower = bound(op.lower);
    const upper = bound(op.upper);
    // A comparison with null holds for no node.
    if (lower?.value === null || upper?.value === null) return;
    const found = g.findNodesInRange?.(op.label, op.key, lower, upper);
    const check = nodeCheck(op.where, row, this.ctx);
    for (const n of found ?? g.scanNodes(op.label)) {
      this.ctx.budget.tick();
      if (n.deleted || (op.label !== undefined && !n.labels.includes(op.label)) || (check && !check(n))) continue;
      yield with1(row, op.variable, n);
    }
  }

  *expandRow(op: OpOf<'Expand'>, row: Row): Generator<Row> {
    const from = lookup(row, op.from);
    if (!(from instanceof GraphNode)) return;
    const used = usedBy(row, op.distinctFrom);
    const target = op.into ? lookup(row, op.to) : undefined;
    const only = op.relBound ? lookup(row, op.rel) : undefined;
    if (op.relBound && !(only instanceof GraphRelationship)) return;
    for (const r of this.ctx.graph.expand(from, op.direction, op.types)) {
      this.ctx.budget.tick();
      if (r.deleted || used?.has(r) || (only !== undefined && r !== only)) continue;
      const other = r.start === from ? r.end : r.start;
      if (op.into && other !== target) continue;
      if (op.adjacency && !op.adjacency.toLabels.every((l) => other.labels.includes(l))) continue;
      if (op.adjacency?.relFilters && !relFiltersHold(op, row, r, this.ctx)) continue;
      const out = with1(row, op.rel, r);
      if (!op.into) setOwn(out, op.to, other);
      yield out;
    }
  }

  private *relScanRow(op: OpOf<'RelationshipScan'>, row: Row): Generator<Row> {
    const found = this.ctx.graph.scanRelationships?.(op.types);
    if (!found) throw new Error('RelationshipScan planned over a graph without scanRelationships');
    const used = usedBy(row, op.distinctFrom);
    const bind = (r: GraphRelationship, a: GraphNode, b: GraphNode) => {
      const out = with1(row, op.rel, r);
      setOwn(out, op.from, a);
      setOwn(out, op.to, b);
      return out;
    };
    // Labels on the ends before a row is built: most relationships of a type may end at other labels.
    const fromLabels = op.labels?.from ?? [];
    const toLabels = op.labels?.to ?? [];
    const has = (n: GraphNode, labels: string[]) => labels.every((l) => n.labels.includes(l));
    const ends = (a: GraphNode, b: GraphNode) => has(a, fromLabels) && has(b, toLabels);
    for (const r of found) {
      this.ctx.budget.tick();
      if (r.deleted || used?.has(r)) continue;
      if (op.direction !== 'in' && ends(r.start, r.end)) yield bind(r, r.start, r.end);
      const back = op.direction === 'in' || (op.direction === 'both' && r.start !== r.end);
      if (back && ends(r.end, r.start)) yield bind(r, r.end, r.start);
    }
  }

  private *varLengthRow(op: OpOf<'VarLengthExpand'>, row: Row): Generator<Row> {
    const from = lookup(row, op.from);
    if (!(from instanceof GraphNode)) return;
    const props = op.relProps ? propsOf(op.relProps, row, this.ctx) : null;
    const target = op.into ? lookup(row, op.to) : undefined;
    // A list bound before the MATCH: the paths walked are kept when they are that list (as the interpreter does).
    const given = op.relBound ? (lookup(row, op.rel) ?? null) : undefined;
    if (given !== undefined && !Array.isArray(given)) return;
    for (const [path, end] of walkPaths(from, op, usedBy(row, op.distinctFrom), props, this.ctx)) {
      if (op.into && end !== target) continue;
      const list = op.reversed ? [...path].reverse() : [...path];
      if (given !== undefined && equals(given, list) !== true) continue;
      const out = with1(row, op.rel, list);
      if (!op.into) setOwn(out, op.to, end);
      yield out;
    }
  }

  private *unwindRow(op: OpOf<'Unwind'>, row: Row): Generator<Row> {
    const v = listSource(op.expr, row, this.ctx);
    if (v === null) return;
    for (const x of isList(v) ? v : [v]) {
      this.ctx.budget.tick();
      yield { ...row, [op.alias]: x };
    }
  }

  private projectRow(op: OpOf<'Projection'>, row: Row): Row {
    const o: Row = {};
    for (const it of op.items) setOwn(o, it.name, evaluate(it.expr, row, this.ctx));
    return op.keep ? { ...row, ...o } : o;
  }

  private *skip(op: OpOf<'Skip'>, arg: Row): Generator<Row> {
    const n = count(op.count, 'SKIP', this.ctx);
    let i = 0;
    for (const r of this.rows(op.input, arg)) if (i++ >= n) yield r;
  }

  private *limit(op: OpOf<'Limit'>, arg: Row): Generator<Row> {
    const n = count(op.count, 'LIMIT', this.ctx);
    if (n === 0) return;
    let i = 0;
    for (const r of this.rows(op.input, arg)) {
      yield r;
      if (++i >= n) return;
    }
  }

  private *optionalRow(op: OpOf<'Optional'>, row: Row): Generator<Row> {
    let found = false;
    for (const r of this.rows(op.inner, row)) {
      found = true;
      yield r;
    }
    if (!found) yield nulledRow(row, op.nullable);
  }

  private semiApplyRow(op: OpOf<'SemiApply'>, row: Row): Row | undefined {
    let found = false;
    for (const _ of this.rows(op.inner, row)) {
      found = true;
      break;
    }
    return found !== op.anti ? row : undefined;
  }

  private namedPathRow(op: OpOf<'NamedPath'>, row: Row): Row {
    const at = (i: number) => lookup(row, op.nodes[i]!) as GraphNode;
    const nodes = [at(0)];
    const rels: GraphRelationship[] = [];
    op.rels.forEach((v, i) => {
      const b = lookup(row, v) as GraphRelationship | GraphRelationship[];
      const list = Array.isArray(b) ? b : [b];
      let cur = nodes[nodes.length - 1]!;
      for (const r of list) {
        rels.push(r);
        cur = r.start === cur ? r.end : r.start;
        nodes.push(cur);
      }
      if (list.length === 0 || cur !== at(i + 1)) nodes[nodes.length - 1] = at(i + 1);
    });
    return with1(row, op.variable, new PathValue(nodes, rels));
  }
}
