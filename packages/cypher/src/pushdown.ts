// Aggregation pushed down to a columnar scan. `MATCH (n[:L]) RETURN n.k…, count/sum/avg/min/max(…)` over a
// graph that offers columns (GraphReader.scanColumns) runs without a node object or a row per node: the
// grouping keys are dictionary codes combined into one integer group id per slot, then each aggregate is a
// loop over a typed array into per-group accumulators. Anything else (WHERE, ORDER BY, DISTINCT, other
// expressions, a column the graph cannot give) returns undefined and the query runs row by row; the results
// are the same either way (test/pushdown.test.ts runs both).
import type { Expr, SingleQuery } from './ast.js';
import type { Column, NodeColumns } from './columns.js';
import type { EvalContext } from './eval.js';
import type { Result } from './execute.js';
import { ownValue, type Value } from './values.js';

type Item =
  | { kind: 'key'; key: string }
  | { kind: 'count' }
  | { kind: 'agg'; fn: 'count' | 'sum' | 'avg' | 'min' | 'max'; key: string };

/** Beyond this many possible groups the combined group id would not fit a small array: run row by row. */
const MAX_GROUPS = 1 << 22;
/** Sums stay exact in a double below 2^53; a column that could pass it runs row by row (overflow checks). */
const EXACT = 2 ** 53;

export function columnarAggregate(q: SingleQuery, ctx: EvalContext): Result | undefined {
  const plan = planOf(q);
  if (!plan || !ctx.graph.scanColumns) return undefined;
  const keys = [...new Set(plan.items.flatMap((i) => (i.kind === 'count' ? [] : [i.key])))];
  const scan = ctx.graph.scanColumns(plan.label, keys);
  if (!scan) return undefined;
  return run(plan.items, plan.columns, scan, ctx);
}

function planOf(q: SingleQuery): { label: string | undefined; items: Item[]; columns: string[] } | undefined {
  const [m, r] = q.clauses;
  if (q.clauses.length !== 2 || m?.kind !== 'match' || r?.kind !== 'return') return undefined;
  if (m.optional || m.where || m.pattern.length !== 1) return undefined;
  const part = m.pattern[0]!;
  const node = part.nodes[0];
  if (part.variable || part.rels.length > 0 || !node?.variable || node.properties || node.labels.length > 1) {
    return undefined;
  }
  if (r.distinct || r.star || r.order.length > 0 || r.skip || r.limit) return undefined;
  const v = node.variable;
  const propKey = (e: Expr | undefined): string | undefined =>
    e?.kind === 'prop' && e.target.kind === 'var' && e.target.name === v ? e.key : undefined;
  const items: Item[] = [];
  let aggregates = 0;
  for (const it of r.items) {
    const e = it.expr;
    const key = propKey(e);
    if (key !== undefined) {
      items.push({ kind: 'key', key });
      continue;
    }
    if (e.kind !== 'call' || e.distinct) return undefined;
    const fn = e.name.toLowerCase();
    aggregates++;
    if (fn === 'count' && (e.star || (e.args[0]?.kind === 'var' && e.args[0].name === v))) {
      items.push({ kind: 'count' });
      continue;
    }
    const arg = propKey(e.args[0]);
    if (e.args.length !== 1 || arg === undefined) return undefined;
    if (fn !== 'count' && fn !== 'sum' && fn !== 'avg' && fn !== 'min' && fn !== 'max') return undefined;
    items.push({ kind: 'agg', fn, key: arg });
  }
  if (aggregates === 0) return undefined;
  return { label: node.labels[0], items, columns: r.items.map((i) => i.alias ?? i.text) };
}

function run(items: Item[], columns: string[], scan: NodeColumns, ctx: EvalContext): Result | undefined {
  const sel = scan.rows;
  const n = sel ? sel.length : scan.size;
  const col = (key: string): Column | undefined => ownValue(scan.columns, key);

  // Group ids: the key columns' codes (shifted by one so null is code 0) in mixed radix.
  const keyItems = [...new Set(items.flatMap((i) => (i.kind === 'key' ? [i.key] : [])))];
  const keyCols: { key: string; codes: ArrayLike<number>; dict: readonly Value[]; stride: number }[] = [];
  let groups = 1;
  for (const key of keyItems) {
    const c = col(key);
    if (c?.kind !== 'dict') return undefined;
    keyCols.push({ key, codes: c.codes, dict: c.dict, stride: groups });
    groups *= c.dict.length + 1;
    if (groups > MAX_GROUPS) return undefined;
  }
  const gid = new Int32Array(n);
  const seen = new Uint8Array(groups);
  const order: number[] = [];
  const single = keyCols.length === 1 ? keyCols[0]!.codes : undefined;
  for (let i = 0; i < n; i++) {
    // The deadline is checked every 1024 ticks: one tick per 64 slots still stops a huge scan in time.
    if ((i & 63) === 0) ctx.budget.tick();
    const s = sel ? sel[i]! : i;
    let g = 0;
    if (single) g = single[s]! + 1;
    else for (const k of keyCols) g += (k.codes[s]! + 1) * k.stride;
    gid[i] = g;
    if (seen[g] === 0) {
      seen[g] = 1;
      order.push(g);
    }
  }
  // No grouping key: one group, even over no rows (count 0, avg null).
  if (keyCols.length === 0 && order.length === 0) order.push(0);

  const outputs: ((g: number) => Value)[] = [];
  for (const it of items) {
    if (it.kind === 'key') {
      const k = keyCols.find((x) => x.key === it.key)!;
      const size = k.dict.length + 1;
      outputs.push((g) => {
        const code = Math.floor(g / k.stride) % size;
        return code === 0 ? null : k.dict[code - 1]!;
      });
      continue;
    }
    const out = it.kind === 'count' ? countRows(gid, groups) : accumulate(it, col(it.key), gid, groups, sel);
    if (!out) return undefined;
    outputs.push(out);
  }
  const rows = order.map((g) => outputs.map((f) => f(g)));
  return { columns, rows };
}

function countRows(gid: Int32Array, groups: number): (g: number) => Value {
  const counts = new Float64Array(groups);
  for (let i = 0; i < gid.length; i++) counts[gid[i]!]!++;
  return (g) => BigInt(counts[g]!);
}

function accumulate(
  it: Extract<Item, { kind: 'agg' }>,
  c: Column | undefined,
  gid: Int32Array,
  groups: number,
  sel: ArrayLike<number> | undefined,
): ((g: number) => Value) | undefined {
  if (!c) return undefined;
  const counts = new Float64Array(groups);
  if (c.kind === 'dict') {
    // Only nulls (a key no scanned node has): nothing to add up, as row by row.
    if (c.dict.length === 0) return (_g) => (it.fn === 'count' || it.fn === 'sum' ? 0n : null);
    if (it.fn !== 'count') return undefined;
    for (let i = 0; i < gid.length; i++) if (c.codes[sel ? sel[i]! : i]! >= 0) counts[gid[i]!]!++;
    return (g) => BigInt(counts[g]!);
  }
  // min/max over FLOATs keep Cypher's ordering of NaN and -0.0: row by row.
  if (c.kind === 'float' && (it.fn === 'min' || it.fn === 'max')) return undefined;
  const { values, nulls } = c;
  const acc = new Float64Array(groups);
  if (it.fn === 'min') acc.fill(Number.POSITIVE_INFINITY);
  if (it.fn === 'max') acc.fill(Number.NEGATIVE_INFINITY);
  let bound = 0;
  for (let i = 0; i < gid.length; i++) {
    const s = sel ? sel[i]! : i;
    if (nulls && nulls[s] !== 0) continue;
    const x = values[s]!;
    const g = gid[i]!;
    counts[g]!++;
    if (it.fn === 'min') {
      if (x < acc[g]!) acc[g] = x;
    } else if (it.fn === 'max') {
      if (x > acc[g]!) acc[g] = x;
    } else {
      acc[g]! += x;
      bound += Math.abs(x);
    }
  }
  const int = c.kind === 'int';
  switch (it.fn) {
    case 'count':
      return (g) => BigInt(counts[g]!);
    case 'avg':
      return (g) => (counts[g] === 0 ? null : acc[g]! / counts[g]!);
    case 'sum':
      if (int && bound >= EXACT) return undefined;
      // As row by row: the sum of no values is the INTEGER 0.
      return (g) => (counts[g] === 0 ? 0n : int ? BigInt(acc[g]!) : acc[g]!);
    default:
      return (g) => (counts[g] === 0 ? null : int ? BigInt(acc[g]!) : acc[g]!);
  }
}
