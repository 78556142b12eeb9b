// EXPLAIN and PROFILE output: the plan as a tree of { operator, details, estimated_rows, children }, with
// rows and time per operator when profiled (time is the operator's own: its inputs' time taken off), and as
// text, one operator per line, indented under the one that reads it (as Neo4j prints plans).
import type { Expr } from '../ast.js';
import {
  type ExistsTest,
  type ExpandItem,
  inputsOf,
  type NodeCheck,
  type Op,
  type OptionalHop,
  type Predicate,
  type Side,
} from './operators.js';
import type { Profile } from './physical.js';

export interface PlanDescription {
  operator: string;
  details: string;
  estimated_rows: number;
  /** PROFILE only: the rows the operator gave and the milliseconds it spent (its inputs' time excluded). */
  rows?: number;
  time_ms?: number;
  children: PlanDescription[];
}

export function describePlan(op: Op, profile?: Profile): PlanDescription {
  const children = inputsOf(op).map((c) => describePlan(c, profile));
  const d: PlanDescription = {
    // A column scan planned as a range seek starts at the index (column-filters.ts indexStart): named as a seek.
    operator: op.op === 'NodeColumnScan' && op.seek ? 'NodeIndexRangeSeek' : op.op,
    details: details(op),
    estimated_rows: Math.round(op.est * 100) / 100,
    children,
  };
  if (profile) {
    const s = profile.get(op);
    const inner = inputsOf(op).reduce((t, c) => t + (profile.get(c)?.ms ?? 0), 0);
    d.rows = s?.rows ?? 0;
    d.time_ms = Math.round(Math.max(0, (s?.ms ?? 0) - inner) * 1000) / 1000;
  }
  return d;
}

/** The plan as text: `+Operator  details  (est. N[, rows R, T ms])`, inputs indented below. */
export function planText(d: PlanDescription, depth = 0): string {
  const stats = d.rows === undefined ? '' : `, rows ${d.rows}, ${d.time_ms} ms`;
  const line = `${'  '.repeat(depth)}+${d.operator}${d.details ? `  ${d.details}` : ''}  (est. ${d.estimated_rows}${stats})`;
  return [line, ...d.children.map((c) => planText(c, depth + 1))].join('\n');
}

function details(op: Op): string {
  switch (op.op) {
    case 'Argument':
      return '';
    case 'NodeScan':
      return `(${v(op.variable)}${check(op.where)})`;
    case 'NodeByLabelScan':
      return `(${v(op.variable)}:${op.label}${check(op.where)})`;
    case 'NodeIndexSeek':
      return `(${v(op.variable)}${op.label ? `:${op.label}` : ''} {${op.key}: ${expr(op.value)}})${check(op.where) ? ` WHERE${check(op.where)}` : ''}`;
    case 'NodeIndexRangeSeek': {
      const lo = op.lower ? `${expr(op.lower.value)} ${op.lower.inclusive ? '<=' : '<'} ` : '';
      const hi = op.upper ? ` ${op.upper.inclusive ? '<=' : '<'} ${expr(op.upper.value)}` : '';
      return `(${v(op.variable)}${op.label ? `:${op.label}` : ''}) ${lo}${v(op.variable)}.${op.key}${hi}${check(op.where) ? ` WHERE${check(op.where)}` : ''}`;
    }
    case 'Expand':
    case 'VarLengthExpand': {
      const range = op.op === 'VarLengthExpand' ? `*${op.min}..${Number.isFinite(op.max) ? op.max : ''}` : '';
      const types = op.types.length > 0 ? `:${op.types.join('|')}` : '';
      const [l, r] = op.direction === 'out' ? ['-', '->'] : op.direction === 'in' ? ['<-', '-'] : ['-', '-'];
      const bound = op.relBound ? 'bound ' : '';
      const hop = `${op.into ? 'Into ' : ''}${bound}(${v(op.from)})${l}[${v(op.rel)}${types}${range}]${r}(${v(op.to)})`;
      if (op.op !== 'Expand' || !op.adjacency) return hop;
      const labels = op.adjacency.toLabels;
      const tests = (op.adjacency.relFilters ?? []).map((f) => expr(f.expr)).join(' AND ');
      return `${hop} by adjacency${labels.length > 0 ? ` to :${labels.join(':')}` : ''}${tests ? ` WHERE ${tests}` : ''}`;
    }
    case 'RelationshipScan': {
      const [l, r] = op.direction === 'out' ? ['-', '->'] : op.direction === 'in' ? ['<-', '-'] : ['-', '-'];
      const at = (x: string, ls: string[] | undefined) => `${v(x)}${ls?.length ? `:${ls.join(':')}` : ''}`;
      const types = op.types.join('|');
      return `(${at(op.from, op.labels?.from)})${l}[${v(op.rel)}:${types}]${r}(${at(op.to, op.labels?.to)})`;
    }
    case 'Filter':
      return op.predicates.map(predicate).join(' AND ');
    case 'Unwind':
      return `${expr(op.expr)} AS ${op.alias}`;
    case 'Projection':
      return op.items.map((i) => item(i.name, i.expr)).join(', ');
    case 'Aggregate':
      return `${op.hop ? `${hopText(op.hop)}, ` : ''}${op.keys.length > 0 ? `by ${op.keys.map((k) => item(k.name, k.expr)).join(', ')}: ` : ''}${op.items
        .filter((i) => !op.keys.includes(i))
        .map((i) => item(i.name, i.expr))
        .join(', ')}`;
    case 'Distinct':
      return op.columns.join(', ');
    case 'Sort':
      return `${op.order.map((o) => `${expr(o.expr)}${o.descending ? ' DESC' : ''}`).join(', ')}`;
    case 'Top':
      return `${op.order.map((o) => `${expr(o.expr)}${o.descending ? ' DESC' : ''}`).join(', ')} LIMIT ${expr(op.limit)}${op.skip ? ` SKIP ${expr(op.skip)}` : ''}${op.ties ? ' WITH TIES' : ''}${op.distinct ? ` DISTINCT ${op.distinct.join(', ')}` : ''}`;
    case 'Skip':
    case 'Limit':
      return expr(op.count);
    case 'Optional':
      return op.nullable.join(', ');
    case 'OptionalExpand': {
      const where = op.predicates.map(predicate).join(' AND ');
      return `${details(op.expand)}${where ? ` WHERE ${where}` : ''}`;
    }
    case 'Union':
      return op.all ? 'ALL' : 'DISTINCT';
    case 'SemiApply':
      return op.anti ? 'NOT' : '';
    case 'NamedPath':
      return `${op.variable} = (${op.nodes.map(v).join(')-(')})`;
    case 'ProduceResults':
      return op.columns.join(', ');
    case 'Interpret':
      return op.reason;
    case 'ColumnarAggregate': {
      const where = [
        ...op.filters.map((f) => `${v(op.variable)}.${f.key} ${f.op} ${expr(f.value)}`),
        ...(op.exists ?? []).map((x) => existsText(x, v(op.variable))),
      ];
      return `(${v(op.variable)}${op.label ? `:${op.label}` : ''})${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}${
        op.optional ? ` ${hopText(op.optional)}` : ''
      }: ${op.items
        .map((i) =>
          i.kind === 'key'
            ? `${i.name} = .${i.key}`
            : i.kind === 'count'
              ? `${i.name} = count(*)`
              : i.kind === 'hopCount'
                ? `${i.name} = count(${v(op.optional?.binds[0] ?? '')})`
                : `${i.name} = ${i.fn}(.${i.key})`,
        )
        .join(', ')}`;
    }
    case 'NodeCount':
      return `${op.name} = count((${op.label ? `:${op.label}` : ''}))`;
    case 'NodeColumnScan':
      return `(${v(op.variable)}${op.label ? `:${op.label}` : ''}) WHERE ${[
        ...op.filters.map((f) => `${v(op.variable)}.${f.key} ${f.op} ${expr(f.value)}`),
        ...(op.exists ?? []).map((x) => existsText(x, v(op.variable))),
      ].join(' AND ')}${op.columns ? `: ${op.columns.map((c) => `${c.name} = .${c.key}`).join(', ')}` : ''}${
        op.distinct ? ` DISTINCT ${op.distinct.join(', ')}` : ''
      }${op.order ? ` ORDER BY ${op.order.map((o) => `${o.name}${o.descending ? ' DESC' : ''}`).join(', ')}` : ''}${
        op.skip ? ` SKIP ${expr(op.skip)}` : ''
      }${op.limit ? ` LIMIT ${expr(op.limit)}` : ''}`;
    case 'ExpandCount':
      return `${op.names.join(', ')} = count(${details(op.expand)})`;
    case 'OptionalColumnScan': {
      const [a, b] = op.direction === 'out' ? ['-', '->'] : op.direction === 'in' ? ['<-', '-'] : ['-', '-'];
      const t = op.types.length > 0 ? `:${op.types.join('|')}` : '';
      const far = `${v(op.to)}${op.toLabels.map((l) => `:${l}`).join('')}`;
      const items = op.items.map((i) => `${i.name} = ${v(i.side === 'from' ? op.scan.variable : op.to)}.${i.key}`);
      return `${details(op.scan)} OPTIONAL (${v(op.scan.variable)})${a}[${t}]${b}(${far}): ${items.join(', ')}`;
    }
    case 'ColumnarExpandAggregate':
      return expandAggregate(op);
    case 'ChainProjection':
      return chainDetails(op);
    case 'ExpandExists': {
      const types = op.types.length > 0 ? `:${op.types.join('|')}` : '';
      const [l, r] = op.direction === 'out' ? ['-', '->'] : op.direction === 'in' ? ['<-', '-'] : ['-', '-'];
      return `${op.anti ? 'NOT ' : ''}(${v(op.from)})${l}[${types}]${r}(${op.toLabels.map((x) => `:${x}`).join('')})`;
    }
  }
}

const check = (w: NodeCheck | undefined) =>
  w ? `${w.labels.map((l) => `:${l}`).join('')}${w.props ? ` ${expr(w.props)}` : ''}` : '';

/** Planner-made names print as anonymous, but a chain's property reads (` n.key`) as the property. */
const v = (name: string) => (!name.startsWith(' ') ? name : name.includes('.') ? name.slice(1) : '');

const item = (name: string, e: Expr) => {
  const t = expr(e);
  return t === name ? t : `${t} AS ${name}`;
};

function predicate(p: Predicate): string {
  switch (p.kind) {
    case 'expr':
      return expr(p.expr);
    case 'labels':
      return `${v(p.variable)}:${p.labels.join(':')}`;
    case 'props':
      return `${v(p.variable)} ${expr(p.map)}`;
    case 'isNode':
      return `${v(p.variable)} IS A NODE`;
  }
}

/** A compact rendering of an expression (patterns and subqueries abbreviated). */
export function expr(e: Expr): string {
  switch (e.kind) {
    case 'literal':
      return typeof e.value === 'string'
        ? `'${e.value}'`
        : e.value === null
          ? 'null'
          : typeof e.value === 'object'
            ? JSON.stringify(e.value, (_k, x) => (typeof x === 'bigint' ? Number(x) : x))
            : String(e.value);
    case 'param':
      return `$${e.name}`;
    case 'var':
      return v(e.name);
    case 'list':
      return `[${e.items.map(expr).join(', ')}]`;
    case 'map':
      return `{${e.entries.map(([k, x]) => `${k}: ${expr(x)}`).join(', ')}}`;
    case 'prop':
      return `${expr(e.target)}.${e.key}`;
    case 'index':
      return `${expr(e.target)}[${expr(e.index)}]`;
    case 'slice':
      return `${expr(e.target)}[${e.from ? expr(e.from) : ''}..${e.to ? expr(e.to) : ''}]`;
    case 'hasLabels':
      return `${expr(e.target)}:${e.labels.join(':')}`;
    case 'unary':
      return e.op === 'not' ? `NOT ${expr(e.arg)}` : `${e.op}${expr(e.arg)}`;
    case 'binary':
      return `${expr(e.left)} ${BINARY[e.op] ?? e.op} ${expr(e.right)}`;
    case 'compare':
      return e.args.map((a, i) => (i === 0 ? expr(a) : `${e.ops[i - 1]} ${expr(a)}`)).join(' ');
    case 'isNull':
      return `${expr(e.arg)} IS ${e.negated ? 'NOT ' : ''}NULL`;
    case 'call':
      return `${e.name}(${e.distinct ? 'DISTINCT ' : ''}${e.star ? '*' : e.args.map(expr).join(', ')})`;
    case 'case':
      return 'CASE … END';
    case 'listComp':
      return `[${e.variable} IN ${expr(e.source)} …]`;
    case 'quantifier':
      return `${e.quantifier}(${e.variable} IN ${expr(e.source)} …)`;
    case 'patternComp':
      return '[pattern comprehension]';
    case 'patternExpr':
      return '(pattern)';
    case 'mapProjection':
      return `${e.target}{…}`;
    case 'existsSubquery':
      return 'EXISTS { … }';
  }
}

const BINARY: Partial<Record<string, string>> = {
  or: 'OR',
  xor: 'XOR',
  and: 'AND',
  in: 'IN',
  startsWith: 'STARTS WITH',
  endsWith: 'ENDS WITH',
  contains: 'CONTAINS',
};

function expandAggregate(op: Extract<Op, { op: 'ColumnarExpandAggregate' }>): string {
  const types = op.types.length > 0 ? `:${op.types.join('|')}` : '';
  const [l, r] = op.direction === 'out' ? ['-', '->'] : op.direction === 'in' ? ['<-', '-'] : ['-', '-'];
  const labels = (ls: string[]) => ls.map((x) => `:${x}`).join('');
  const name = { from: v(op.from), rel: v(op.rel), to: v(op.to) };
  const where = [
    ...op.filters.map((f) => `${name[f.side]}.${f.key} ${f.op} ${expr(f.value)}`),
    ...op.exists.map((x) => existsText(x, name[x.side])),
  ].join(' AND ');
  const items = op.items.map((i) => expandItem(i, name, op.optional));
  const pattern = `(${name.from}${labels(op.fromLabels)})${l}[${name.rel}${types}]${r}(${name.to}${labels(op.toLabels)})`;
  return `${pattern}${where ? ` WHERE ${where}` : ''}${op.optional ? ` ${hopText(op.optional)}` : ''}: ${items.join(', ')}`;
}

function existsText(x: ExistsTest, from: string): string {
  const [a, b] = x.direction === 'out' ? ['-', '->'] : x.direction === 'in' ? ['<-', '-'] : ['-', '-'];
  const t = x.types.length > 0 ? `:${x.types.join('|')}` : '';
  return `${x.anti ? 'NOT ' : ''}EXISTS { (${from})${a}[${t}]${b}(${x.labels.map((l) => `:${l}`).join('')}) }`;
}

/** `OPTIONAL (b)<-[]-(o:L)`: the hop whose matches weigh each row. */
function hopText(h: OptionalHop): string {
  const [a, b] = h.direction === 'out' ? ['-', '->'] : h.direction === 'in' ? ['<-', '-'] : ['-', '-'];
  const t = h.types.length > 0 ? `:${h.types.join('|')}` : '';
  return `OPTIONAL (${v(h.variable)})${a}[${t}]${b}(${v(h.binds[0]!)}${h.labels.map((l) => `:${l}`).join('')})`;
}

function expandItem(i: ExpandItem, name: Record<Side, string>, hop?: OptionalHop): string {
  switch (i.kind) {
    case 'key':
      return `${i.name} = ${name[i.side]}.${i.key}`;
    case 'node':
      return `${i.name} = ${name[i.side]}`;
    case 'type':
      return `${i.name} = type(${name.rel})`;
    case 'count':
      return `${i.name} = count(*)`;
    case 'hopCount':
      return `${i.name} = count(${v(hop?.binds[0] ?? '')})`;
    case 'distinct':
      return `${i.name} = count(DISTINCT ${name[i.side]})`;
    case 'agg':
      return `${i.name} = ${i.fn}(${name[i.side]}.${i.key})`;
  }
}

/** A chain's anchor, hops and items (or its aggregation or count). */
function chainDetails(op: Extract<Op, { op: 'ChainProjection' }>): string {
  const a = op.anchor;
  const anchorLabels = [...(a.label ? [a.label] : []), ...op.anchorLabels].map((l) => `:${l}`).join('');
  const hops = op.hops.map((h, i) => {
    const [l, r] = h.direction === 'out' ? ['-', '->'] : h.direction === 'in' ? ['<-', '-'] : ['-', '-'];
    const t = h.types.length > 0 ? `:${h.types.join('|')}` : '';
    const from = `${v(h.from)}${op.relAnchor && i === 0 ? anchorLabels : ''}`;
    return `(${from})${l}[${v(h.rel)}${t}]${r}(${v(h.to)}${h.toLabels.map((x) => `:${x}`).join('')})`;
  });
  const agg = op.aggregate;
  const end = (side: string) => (side === 'from' ? agg!.from : side === 'rel' ? agg!.rel! : agg!.to);
  const items = op.count
    ? op.count.map((n) => `${n} = count(*)`)
    : agg
      ? agg.items.map((i) => {
          if (i.kind === 'count') return `${i.name} = count(*)`;
          if (i.kind === 'node') return `${i.name} = ${end(i.side)}`;
          if (i.kind === 'distinct') return `${i.name} = count(DISTINCT ${end(i.side)})`;
          if (i.kind === 'key') return `${i.name} = ${end(i.side)}.${i.key}`;
          if (i.kind === 'type') return `${i.name} = type(${agg.rel})`;
          if (i.kind === 'hopCount') return `${i.name} = count(${agg.optional?.binds[0] ?? ''})`;
          return `${i.name} = ${i.fn}(${end(i.side)}.${i.key})`;
        })
      : op.items.map((i) => `${i.name.trim()} = ${v(i.variable)}${i.key === null ? '' : `.${i.key}`}`);
  const tests = [
    ...(op.filters ?? []).map((f) => `${v(f.variable)}.${f.key} ${f.op} ${expr(f.value)}`),
    ...op.hops.flatMap((h) => (h.relFilters ?? []).map((f) => `${v(h.rel)}.${f.key} ${f.op} ${expr(f.value)}`)),
    ...(op.exists ?? []).map((x) => existsText(x, v(x.variable))),
  ];
  const where = tests.length > 0 ? ` WHERE ${tests.join(' AND ')}` : '';
  if (op.relAnchor) return `relationships ${hops.join(', ')}${where}: ${items.join(', ')}`;
  const start = a.filters.length > 0 || a.exists ? details(a) : `(${v(a.variable)}${a.label ? `:${a.label}` : ''})`;
  const also =
    op.anchorLabels.length > 0 ? ` WHERE ${v(a.variable)}${op.anchorLabels.map((l) => `:${l}`).join('')}` : '';
  return `${start}${also} ${hops.join(', ')}${where}: ${items.join(', ')}`;
}
