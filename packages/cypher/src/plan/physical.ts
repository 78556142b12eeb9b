// Running a plan: each operator is a generator pulling rows from its input (a LIMIT stops the reading), with
// the engine's budgets as in the interpreter: the deadline ticks in every loop, what Sort, Top, Distinct and
// Aggregate hold is counted against the memory budget, and a Sort whose rows all go to the result stops as
// soon as it holds more than max_rows. Rewritten shapes run over columns (columnar.ts) or count without
// building rows (count.ts). With `profile`, each operator's rows and time (inclusive) are recorded.
import { type Accumulator, accumulator } from '../aggregate.js';
import type { Expr, SortItem } from '../ast.js';
import { Held, measure, rowBytes } from '../budget.js';
import { equals, equivalenceKey, orderCompare } from '../compare.js';
import { CypherLimitError, CypherTypeError } from '../errors.js';
import { type EvalContext, evaluate, isList, listSource, lookup, type Row, truthy } from '../eval.js';
import { count } from '../execute.js';
import { GraphNode, GraphRelationship, isMap, ownValue, PathValue, setOwn, type Value } from '../values.js';
import { columnarAggregate, columnScan } from './columnar.js';
import { countExpansions, nodeCount } from './count.js';
import type { NodeCheck, Op, Predicate } from './operators.js';

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
  return r.wrap(op, produce(r.rows(op.input, {}), columns));
}

function* produce(rows: Iterable<Row>, columns: string[]): Generator<Value[]> {
  for (const r of rows) yield columns.map((k) => lookup(r, k) ?? null);
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

  private raw(op: Op, arg: Row): Iterable<Row> {
    const ctx = this.ctx;
    switch (op.op) {
      case 'Argument':
        return [arg];
      case 'NodeScan':
      case 'NodeByLabelScan':
        return this.scan(op.input, arg, op.variable, op.op === 'NodeByLabelScan' ? op.label : undefined, op.where);
      case 'NodeIndexSeek':
        return this.seek(op, arg);
      case 'Expand':
        return this.expand(op, arg);
      case 'VarLengthExpand':
        return this.varLength(op, arg);
      case 'Filter':
        return this.filter(op.input, arg, op.predicates);
      case 'Unwind':
        return this.unwind(op, arg);
      case 'Projection':
        return this.project(op, arg);
      case 'Aggregate':
        return this.aggregate(op, arg);
      case 'Distinct':
        return this.distinct(op, arg);
      case 'Sort':
        return this.sort(op.input, arg, op.order, Number.POSITIVE_INFINITY, op.bounded);
      case 'Top':
        return this.top(op, arg);
      case 'Skip':
        return this.skip(op, arg);
      case 'Limit':
        return this.limit(op, arg);
      case 'Optional':
        return this.optional(op, arg);
      case 'Union':
        return this.union(op, arg);
      case 'SemiApply':
        return this.semiApply(op, arg);
      case 'NamedPath':
        return this.namedPath(op, arg);
      case 'ColumnarAggregate':
        return columnarAggregate(op, ctx) ?? this.rows(op.fallback, arg);
      case 'NodeCount':
        return nodeCount(op, ctx) ?? this.rows(op.fallback, arg);
      case 'NodeColumnScan':
        return columnScan(op, ctx) ?? this.rows(op.fallback, arg);
      case 'ExpandCount':
        return countExpansions(op, this, arg);
      case 'ProduceResults':
      case 'Interpret':
        throw new Error(`${op.op} runs at the top of a plan only`);
    }
  }

  private *scan(input: Op, arg: Row, v: string, label: string | undefined, where?: NodeCheck): Generator<Row> {
    const g = this.ctx.graph;
    const budget = this.ctx.budget;
    for (const row of this.rows(input, arg)) {
      const check = nodeCheck(where, row, this.ctx);
      for (const n of g.scanNodes(label)) {
        budget.tick();
        if (n.deleted || (check && !check(n))) continue;
        yield with1(row, v, n);
      }
    }
  }

  private *seek(op: Extract<Op, { op: 'NodeIndexSeek' }>, arg: Row): Generator<Row> {
    const g = this.ctx.graph;
    for (const row of this.rows(op.input, arg)) {
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
  }

  private *expand(op: Extract<Op, { op: 'Expand' }>, arg: Row): Generator<Row> {
    const g = this.ctx.graph;
    const budget = this.ctx.budget;
    for (const row of this.rows(op.input, arg)) {
      const from = lookup(row, op.from);
      if (!(from instanceof GraphNode)) continue;
      const used = usedBy(row, op.distinctFrom);
      const target = op.into ? lookup(row, op.to) : undefined;
      const only = op.relBound ? lookup(row, op.rel) : undefined;
      if (op.relBound && !(only instanceof GraphRelationship)) continue;
      for (const r of g.expand(from, op.direction, op.types)) {
        budget.tick();
        if (r.deleted || used?.has(r) || (only !== undefined && r !== only)) continue;
        const other = r.start === from ? r.end : r.start;
        if (op.into) {
          if (other !== target) continue;
          yield with1(row, op.rel, r);
          continue;
        }
        const out = with1(row, op.rel, r);
        setOwn(out, op.to, other);
        yield out;
      }
    }
  }

  private *varLength(op: Extract<Op, { op: 'VarLengthExpand' }>, arg: Row): Generator<Row> {
    for (const row of this.rows(op.input, arg)) {
      const from = lookup(row, op.from);
      if (!(from instanceof GraphNode)) continue;
      const props = op.relProps ? propsOf(op.relProps, row, this.ctx) : null;
      const target = op.into ? lookup(row, op.to) : undefined;
      for (const [path, end] of walkPaths(from, op, usedBy(row, op.distinctFrom), props, this.ctx)) {
        if (op.into && end !== target) continue;
        const out = with1(row, op.rel, op.reversed ? [...path].reverse() : [...path]);
        if (!op.into) setOwn(out, op.to, end);
        yield out;
      }
    }
  }

  private *filter(input: Op, arg: Row, preds: Predicate[]): Generator<Row> {
    const ctx = this.ctx;
    for (const row of this.rows(input, arg)) {
      ctx.budget.tick();
      if (preds.every((p) => holds(p, row, ctx))) yield row;
    }
  }

  private *unwind(op: Extract<Op, { op: 'Unwind' }>, arg: Row): Generator<Row> {
    for (const row of this.rows(op.input, arg)) {
      const v = listSource(op.expr, row, this.ctx);
      if (v === null) continue;
      for (const x of isList(v) ? v : [v]) {
        this.ctx.budget.tick();
        yield { ...row, [op.alias]: x };
      }
    }
  }

  private *project(op: Extract<Op, { op: 'Projection' }>, arg: Row): Generator<Row> {
    const ctx = this.ctx;
    for (const row of this.rows(op.input, arg)) {
      ctx.budget.tick();
      const o: Row = {};
      for (const it of op.items) setOwn(o, it.name, evaluate(it.expr, row, ctx));
      yield op.keep ? { ...row, ...o } : o;
    }
  }

  /** One group per distinct key, each aggregate folded row by row (rows are not kept). */
  private *aggregate(op: Extract<Op, { op: 'Aggregate' }>, arg: Row): Generator<Row> {
    const ctx = this.ctx;
    const held = new Held(ctx.budget, 'aggregation');
    const keyIndex = new Map(op.keys.map((k, i) => [k, i]));
    try {
      const groups = new Map<string, { keyRow: Row; keys: Value[]; accs: Accumulator[] }>();
      const group = (keyRow: Row, keys: Value[]) => ({
        keyRow,
        keys,
        accs: op.aggregates.map((a) => accumulator(a, ctx, held)),
      });
      for (const row of this.rows(op.input, arg)) {
        ctx.budget.tick();
        const keys = op.keys.map((k) => evaluate(k.expr, row, ctx));
        const k = equivalenceKey(keys);
        let g = groups.get(k);
        if (!g) {
          g = group(row, keys);
          groups.set(k, g);
          held.add(rowBytes(row) + 2 * k.length + 64 * (1 + op.aggregates.length));
          if (op.bounded && groups.size > ctx.budget.maxRows) {
            throw new CypherLimitError(
              'cypher_too_many_rows',
              'max_rows',
              ctx.budget.maxRows,
              `the query returns more than max_rows ${ctx.budget.maxRows} rows: the aggregation stopped at group ${groups.size}, before reading all of its input`,
            );
          }
        }
        for (const acc of g.accs) acc.add(row);
      }
      if (groups.size === 0 && op.keys.length === 0) groups.set('', group({}, []));
      for (const g of groups.values()) {
        ctx.budget.tick();
        const values = new Map(op.aggregates.map((a, i) => [a, g.accs[i]!.result()] as const));
        const actx: EvalContext = { ...ctx, aggregates: values };
        const o: Row = {};
        for (const it of op.items) {
          const ki = keyIndex.get(it);
          setOwn(o, it.name, ki !== undefined ? g.keys[ki]! : evaluate(it.expr, g.keyRow, actx));
        }
        yield op.keep ? { ...g.keyRow, ...o } : o;
      }
    } finally {
      held.release();
    }
  }

  private *distinct(op: Extract<Op, { op: 'Distinct' }>, arg: Row): Generator<Row> {
    const seen = new Set<string>();
    const held = new Held(this.ctx.budget, 'DISTINCT');
    try {
      for (const r of this.rows(op.input, arg)) {
        const k = equivalenceKey(op.columns.map((c) => lookup(r, c) ?? null));
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
   * ORDER BY: every row is held, or only the `keep` first (Top): the buffer is sorted and cut back whenever
   * it doubles. The sort is stable, so ties keep their input order either way. `bounded`: every row held
   * would be a row of the result, so holding more than max_rows stops the query before it sorts.
   */
  private *sort(input: Op, arg: Row, order: SortItem[], keep: number, bounded: boolean): Generator<Row> {
    const ctx = this.ctx;
    const held = new Held(ctx.budget, 'ORDER BY');
    type Keyed = { r: Row; keys: Value[]; bytes: number };
    const cmp = (a: Keyed, b: Keyed) => {
      ctx.budget.tick();
      for (let i = 0; i < order.length; i++) {
        const c = orderCompare(a.keys[i]!, b.keys[i]!);
        if (c !== 0) return order[i]!.descending ? -c : c;
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
      for (const r of this.rows(input, arg)) {
        const keys = order.map((o) => evaluate(o.expr, r, ctx));
        let bytes = rowBytes(r);
        for (const k of keys) bytes += measure(k).bytes;
        held.add(bytes);
        buf.push({ r, keys, bytes });
        if (bounded && buf.length > ctx.budget.maxRows) {
          throw new CypherLimitError(
            'cypher_too_many_rows',
            'max_rows',
            ctx.budget.maxRows,
            `the query returns more than max_rows ${ctx.budget.maxRows} rows: ORDER BY stopped at row ${buf.length}, before sorting`,
          );
        }
        if (buf.length >= 2 * keep + 1024) cut(buf);
      }
      cut(buf);
      for (const k of buf) yield k.r;
    } finally {
      held.release();
    }
  }

  /**
   * Top-k: a heap of the SKIP + LIMIT best rows so far (its root the worst of them); a row that does not beat
   * the root is dropped at once, without being measured or held. Ties keep their input order, as a stable sort.
   */
  private *top(op: Extract<Op, { op: 'Top' }>, arg: Row): Generator<Row> {
    const ctx = this.ctx;
    const skip = op.skip ? count(op.skip, 'SKIP', ctx) : 0;
    const limit = count(op.limit, 'LIMIT', ctx);
    if (limit === 0) return;
    const keep = skip + limit;
    const order = op.order;
    type Keyed = { r: Row; keys: Value[]; seq: number; bytes: number };
    // > 0: a comes after b in the result.
    const cmp = (a: Keyed, b: Keyed) => {
      ctx.budget.tick();
      for (let i = 0; i < order.length; i++) {
        const c = orderCompare(a.keys[i]!, b.keys[i]!);
        if (c !== 0) return order[i]!.descending ? -c : c;
      }
      return a.seq - b.seq;
    };
    const heap: Keyed[] = [];
    const up = (i: number) => {
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (cmp(heap[i]!, heap[p]!) <= 0) return;
        [heap[i], heap[p]] = [heap[p]!, heap[i]!];
        i = p;
      }
    };
    const down = (i: number) => {
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && cmp(heap[l]!, heap[m]!) > 0) m = l;
        if (r < heap.length && cmp(heap[r]!, heap[m]!) > 0) m = r;
        if (m === i) return;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    };
    const held = new Held(ctx.budget, 'ORDER BY');
    try {
      let seq = 0;
      for (const r of this.rows(op.input, arg)) {
        const k: Keyed = { r, keys: order.map((o) => evaluate(o.expr, r, ctx)), seq: seq++, bytes: 0 };
        if (heap.length >= keep && cmp(k, heap[0]!) >= 0) continue;
        k.bytes = rowBytes(r);
        for (const v of k.keys) k.bytes += measure(v).bytes;
        held.add(k.bytes);
        if (heap.length < keep) {
          heap.push(k);
          up(heap.length - 1);
        } else {
          held.add(-heap[0]!.bytes);
          heap[0] = k;
          down(0);
        }
      }
      heap.sort(cmp);
      for (let i = skip; i < heap.length; i++) yield heap[i]!.r;
    } finally {
      held.release();
    }
  }

  private *skip(op: Extract<Op, { op: 'Skip' }>, arg: Row): Generator<Row> {
    const n = count(op.count, 'SKIP', this.ctx);
    let i = 0;
    for (const r of this.rows(op.input, arg)) if (i++ >= n) yield r;
  }

  private *limit(op: Extract<Op, { op: 'Limit' }>, arg: Row): Generator<Row> {
    const n = count(op.count, 'LIMIT', this.ctx);
    if (n === 0) return;
    let i = 0;
    for (const r of this.rows(op.input, arg)) {
      yield r;
      if (++i >= n) return;
    }
  }

  private *optional(op: Extract<Op, { op: 'Optional' }>, arg: Row): Generator<Row> {
    for (const row of this.rows(op.input, arg)) {
      let found = false;
      for (const r of this.rows(op.inner, row)) {
        found = true;
        yield r;
      }
      if (!found) {
        const r = { ...row };
        for (const v of op.nullable) setOwn(r, v, null);
        yield r;
      }
    }
  }

  private *semiApply(op: Extract<Op, { op: 'SemiApply' }>, arg: Row): Generator<Row> {
    for (const row of this.rows(op.input, arg)) {
      let found = false;
      for (const _ of this.rows(op.inner, row)) {
        found = true;
        break;
      }
      if (found !== op.anti) yield row;
    }
  }

  private *namedPath(op: Extract<Op, { op: 'NamedPath' }>, arg: Row): Generator<Row> {
    for (const row of this.rows(op.input, arg)) {
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
      yield with1(row, op.variable, new PathValue(nodes, rels));
    }
  }

  private *union(op: Extract<Op, { op: 'Union' }>, arg: Row): Generator<Row> {
    const seen = new Set<string>();
    const held = new Held(this.ctx.budget, 'UNION');
    try {
      for (const part of op.inputs) {
        for (const r of this.rows(part, arg)) {
          if (!op.all) {
            const k = equivalenceKey(op.columns.map((c) => lookup(r, c) ?? null));
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
}

/** The relationships bound to `vars` in `row` (single ones and lists), or undefined when there are none. */
function usedBy(row: Row, vars: string[]): Set<GraphRelationship> | undefined {
  if (vars.length === 0) return undefined;
  const used = new Set<GraphRelationship>();
  for (const v of vars) {
    const b = lookup(row, v);
    if (b instanceof GraphRelationship) used.add(b);
    else if (Array.isArray(b)) for (const r of b) if (r instanceof GraphRelationship) used.add(r);
  }
  return used;
}

function propsOf(e: Expr, row: Row, ctx: EvalContext): [string, Value][] {
  const m = evaluate(e, row, ctx);
  if (m === null) return [];
  if (!isMap(m)) throw new CypherTypeError('InvalidArgumentType', 'pattern properties must be a MAP');
  return Object.entries(m);
}

/** A scan's pushed-down check for one input row: the property map evaluated now, compared per node. */
function nodeCheck(where: NodeCheck | undefined, row: Row, ctx: EvalContext): ((n: GraphNode) => boolean) | undefined {
  if (!where) return undefined;
  const props = where.props ? propsOf(where.props, row, ctx) : [];
  const labels = where.labels;
  return (n) => labels.every((l) => n.labels.includes(l)) && propsMatch(n, props);
}

function propsMatch(entity: GraphNode | GraphRelationship, props: [string, Value][]): boolean {
  for (const [k, v] of props) if (equals(ownValue(entity.properties, k) ?? null, v) !== true) return false;
  return true;
}

function holds(p: Predicate, row: Row, ctx: EvalContext): boolean {
  switch (p.kind) {
    case 'expr':
      return truthy(evaluate(p.expr, row, ctx)) === true;
    case 'isNode':
      return lookup(row, p.variable) instanceof GraphNode;
    case 'labels': {
      const n = lookup(row, p.variable);
      return n instanceof GraphNode && p.labels.every((l) => n.labels.includes(l));
    }
    case 'props': {
      const e = lookup(row, p.variable);
      if (!(e instanceof GraphNode || e instanceof GraphRelationship)) return false;
      // A map written in the pattern is compared entry by entry, without building the map for every row.
      if (p.map.kind === 'map') {
        for (const [k, x] of p.map.entries) {
          if (equals(ownValue(e.properties, k) ?? null, evaluate(x, row, ctx)) !== true) return false;
        }
        return true;
      }
      return propsMatch(e, propsOf(p.map, row, ctx));
    }
  }
}

/**
 * The paths of a variable-length expansion from `from`, depth first with an explicit stack (stack[i] expands
 * the node after path[0..i-1]), relationships unique on a path and apart from `used`: [path, end node]. The
 * path array is reused: callers copy it.
 */
export function* walkPaths(
  from: GraphNode,
  op: { direction: Extract<Op, { op: 'VarLengthExpand' }>['direction']; types: string[]; min: number; max: number },
  used: Set<GraphRelationship> | undefined,
  props: [string, Value][] | null,
  ctx: EvalContext,
): Generator<[GraphRelationship[], GraphNode]> {
  const g = ctx.graph;
  const path: GraphRelationship[] = [];
  const onPath = new Set<GraphRelationship>();
  if (op.min === 0) yield [path, from];
  if (op.max === 0) return;
  const stack: { node: GraphNode; rels: Iterator<GraphRelationship> }[] = [
    { node: from, rels: g.expand(from, op.direction, op.types)[Symbol.iterator]() },
  ];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const next = top.rels.next();
    if (next.done) {
      stack.pop();
      if (path.length > 0) onPath.delete(path.pop()!);
      continue;
    }
    ctx.budget.tick();
    const r = next.value;
    if (r.deleted || onPath.has(r) || used?.has(r) || (props && !propsMatch(r, props))) continue;
    path.push(r);
    onPath.add(r);
    const n = r.start === top.node ? r.end : r.start;
    if (path.length >= op.min) yield [path, n];
    if (path.length < op.max) stack.push({ node: n, rels: g.expand(n, op.direction, op.types)[Symbol.iterator]() });
    else onPath.delete(path.pop()!);
  }
}
