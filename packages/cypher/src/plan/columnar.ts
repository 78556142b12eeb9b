// ColumnarAggregate: an aggregation over one node scan, run over the columns the graph gives
// (GraphReader.scanColumns) instead of a node object and a row per node. Filters on `n.key` compare a column
// with a value known before the scan (a dictionary column is compared once per distinct value, with Cypher's
// own comparison); grouping keys are dictionary codes combined into one integer group id per slot; each
// aggregate is a loop over a typed array into per-group accumulators. When the graph has no such columns, a
// value is of a kind the columns cannot compare exactly, or a sum could lose precision, this returns
// undefined and the operator's row-by-row fallback runs; the results are the same either way
// (test/plan.test.ts runs both).
import type { Budget } from '../budget.js';
import type { Column, NodeColumns } from '../columns.js';
import { collectColumn } from './collect-column.js';
import type { EvalContext, Row } from '../eval.js';
import { ownValue, setOwn, type Value } from '../values.js';
import type { ColumnItem, ExistsTest, Op } from './operators.js';
import { selectSlots } from './column-filters.js';
import { borrowFloat64, borrowInt32, giveBack, lendingScope, zeroedFloat64 } from './lent-arrays.js';
import { inResultOrder, refine } from './column-select.js';
import { existsTest } from './columnar-expand.js';
import { extremes, repeatedSums, sums, weightedSums } from './column-sums.js';
import { hopDegrees, weigh, type Weights } from './optional-hop.js';
import { labelTotals } from './label-totals.js';
import { rangeCount } from './range-count.js';
import { columnRows, type MeasuredRows, permuteRows } from './tuples.js';

/** Beyond this many possible groups the combined group id would not fit a small array: run row by row. */
const MAX_GROUPS = 1 << 22;
/** Sums stay exact in a double below 2^53; a column that could pass it runs row by row (overflow checks). */
const EXACT = 2 ** 53;

export function columnarAggregate(op: Extract<Op, { op: 'ColumnarAggregate' }>, ctx: EvalContext): Row[] | undefined {
  if (!ctx.graph.scanColumns) return undefined;
  const keys = new Set<string>();
  for (const i of op.items) if (i.kind === 'key' || i.kind === 'agg') keys.add(i.key);
  for (const f of op.filters) keys.add(f.key);
  const scan = ctx.graph.scanColumns(op.label, [...keys]);
  if (!scan) return undefined;
  const whole = labelTotals(scan, op.filters, op.exists ?? [], op.optional, op.items, ctx);
  if (whole) return whole;
  const tests: ((slot: number) => boolean)[] = [];
  for (const x of op.exists ?? []) {
    const t = existsTest(x, scan, ctx);
    if (!t) return undefined;
    tests.push(t);
  }
  // Only counts over range filters on one numeric column: an ordered copy of it answers (range-count.ts).
  if (tests.length === 0 && !op.optional && op.items.every((i) => i.kind === 'count')) {
    const n = rangeCount(scan, op.filters, ctx);
    if (n !== undefined) return [countsRow(op.items, n)];
  }
  // The selection and the group ids are borrowed for this run (lent-arrays.ts): nothing returned reads them.
  const slots = borrowInt32(scan.rows ? scan.rows.length : scan.size);
  const lent: (Int32Array | Float64Array)[] = [slots];
  try {
    const sel = selectSlots(scan, op.filters, ctx, tests, slots, { label: op.label });
    if (!sel) return undefined;
    let weights: Weights | undefined;
    if (op.optional) {
      const degree = hopDegrees(op.optional, scan, ctx);
      if (!degree) return undefined;
      const into = { w: borrowFloat64(sel.length), k: borrowFloat64(sel.length) };
      lent.push(into.w, into.k);
      weights = weigh(sel, sel.length, degree, ctx, into);
    }
    const gid = borrowInt32(sel.length);
    lent.push(gid);
    // The per-group accumulators lent until the rows are made (lendingScope).
    return lendingScope(() => run(op.items, scan, sel, ctx, weights, gid.subarray(0, sel.length)));
  } finally {
    for (const a of lent) giveBack(a);
  }
}

function countsRow(items: ColumnItem[], n: number): Row {
  const r: Row = {};
  for (const it of items) setOwn(r, it.name, BigInt(n));
  return r;
}

/** The nodes of a filtered scan, built only for the slots the filters keep; undefined: scan row by row. */
export function columnScan(op: Extract<Op, { op: 'NodeColumnScan' }>, ctx: EvalContext): Row[] | undefined {
  const selected = columnSelection(op, ctx);
  if (!selected) return undefined;
  const { scan } = selected;
  const sel = inResultOrder(selected);
  const out: Row[] = [];
  if (op.columns) {
    const read = op.columns.map((c) => ({ name: c.name, value: reader(ownValue(scan.columns, c.key) as Column) }));
    for (let i = 0; i < sel.length; i++) {
      ctx.budget.tick();
      const r: Row = {};
      for (const c of read) setOwn(r, c.name, c.value(sel[i]!));
      out.push(r);
    }
    return out;
  }
  for (let i = 0; i < sel.length; i++) {
    ctx.budget.tick();
    const n = scan.node!(sel[i]!);
    if (n.deleted) continue;
    const r: Row = {};
    setOwn(r, op.variable, n);
    out.push(r);
  }
  return out;
}

type ColumnScanOp = Extract<Op, { op: 'NodeColumnScan' }>;

/** The scan's columns and the slots it gives, in result order; undefined: scan row by row. */
function columnSelection(op: ColumnScanOp, ctx: EvalContext) {
  if (!ctx.graph.scanColumns) return undefined;
  const keys = new Set([...op.filters.map((f) => f.key), ...(op.columns ?? []).map((c) => c.key)]);
  const scan = ctx.graph.scanColumns(op.label, [...keys]);
  if (!scan || (!op.columns && !scan.node)) return undefined;
  const tests = existsTests(op.exists, scan, ctx);
  const sel = tests && selectSlots(scan, op.filters, ctx, tests, undefined, { label: op.label });
  if (!sel) return undefined;
  if (op.columns && (op.distinct || op.order || op.skip || op.limit)) return { scan, ...refine(op, scan, sel, ctx) };
  return { scan, slots: sel as ArrayLike<number>, order: undefined };
}

/** The result's tuples (`names` in order, each one of the scan's columns) read straight from the columns. */
export function columnTuples(op: ColumnScanOp, ctx: EvalContext, names: string[]): MeasuredRows | undefined {
  const selected = columnSelection(op, ctx);
  if (!selected || !op.columns) return undefined;
  const { scan, slots, order } = selected;
  const columns = names.map((n) => ownValue(scan.columns, op.columns!.find((c) => c.name === n)!.key) as Column);
  ctx.budget.tick(slots.length >>> 6);
  const rows = columnRows(
    columns.map((column) => ({ column, slots })),
    slots.length,
    ctx.integersAsNumbers === true,
  );
  if (order) permuteRows(rows.rows, order);
  return rows;
}

/** The pattern predicates' tests of a slot, or undefined when one cannot be answered per slot. */
export function existsTests(
  exists: readonly ExistsTest[] | undefined,
  scan: NodeColumns,
  ctx: EvalContext,
): ((slot: number) => boolean)[] | undefined {
  const tests: ((slot: number) => boolean)[] = [];
  for (const x of exists ?? []) {
    const t = existsTest(x, scan, ctx);
    if (!t) return undefined;
    tests.push(t);
  }
  return tests;
}

/** A column's value at a slot, as the node's property reads (INTEGERs as bigint, a missing value as null). */
/**
 * The INTEGERs 0..SMALL_INTS-1, made once: counts read from a column are mostly small, and a BigInt per cell read
 * was most of what a scan of 35,000 rows allocated (BigInts are immutable, so one value serves every read).
 */
const SMALL_INTS = 4096;
let smallInts: bigint[] | undefined;

export function integerOf(v: number): bigint {
  if (v >= 0 && v < SMALL_INTS && Number.isInteger(v)) {
    smallInts ??= Array.from({ length: SMALL_INTS }, (_, i) => BigInt(i));
    return smallInts[v]!;
  }
  return BigInt(v);
}

export function reader(c: Column): (slot: number) => Value {
  if (c.kind === 'dict') return (s) => (c.codes[s]! < 0 ? null : c.dict[c.codes[s]!]!);
  const { values, nulls } = c;
  if (c.kind === 'int') return (s) => (nulls && nulls[s] !== 0 ? null : integerOf(values[s]!));
  return (s) => (nulls && nulls[s] !== 0 ? null : values[s]!);
}

function run(
  items: ColumnItem[],
  scan: NodeColumns,
  sel: ArrayLike<number>,
  ctx: EvalContext,
  weights: Weights | undefined,
  /** sel.length long: each row's group id goes here. */
  gid: Int32Array,
): Row[] | undefined {
  const col = (key: string): Column | undefined => ownValue(scan.columns, key) as Column | undefined;

  // Group ids: the key columns' codes (shifted by one so null is code 0) in mixed radix.
  const keyNames = [...new Set(items.flatMap((i) => (i.kind === 'key' ? [i.key] : [])))];
  const keyCols: { key: string; codes: ArrayLike<number>; dict: readonly Value[]; stride: number }[] = [];
  let groups = 1;
  for (const key of keyNames) {
    const c = col(key);
    if (c?.kind !== 'dict') return undefined;
    keyCols.push({ key, codes: c.codes, dict: c.dict, stride: groups });
    groups *= c.dict.length + 1;
    if (groups > MAX_GROUPS) return undefined;
  }
  const order = groupIds(sel, keyCols, gid, groups, ctx.budget);
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
    const out =
      it.kind === 'count'
        ? countRows(gid, groups, weights?.w)
        : it.kind === 'hopCount'
          ? weights && countRows(gid, groups, weights.k)
          : accumulate(it, col(it.key), gid, groups, sel, weights?.w, ctx.budget);
    if (!out) return undefined;
    outputs.push(out);
  }
  return order.map((g) => {
    const r: Row = {};
    items.forEach((it, i) => {
      setOwn(r, it.name, outputs[i]!(g));
    });
    return r;
  });
}

/**
 * Each row's group id into `gid` (the key columns' codes, shifted by one so null is code 0, in mixed radix);
 * returns the ids in order of first appearance. One key column, the common case, has a loop of its own.
 */
function groupIds(
  sel: ArrayLike<number>,
  keyCols: { codes: ArrayLike<number>; stride: number }[],
  gid: Int32Array,
  groups: number,
  budget: Budget,
): number[] {
  const seen = new Uint8Array(groups);
  const order: number[] = [];
  const n = gid.length;
  if (keyCols.length === 1) {
    const codes = keyCols[0]!.codes;
    for (let i = 0; i < n; i++) {
      // The deadline is checked every 1024 ticks: one tick per 64 slots still stops a huge scan in time.
      if ((i & 63) === 0) budget.tick();
      const g = codes[sel[i]!]! + 1;
      gid[i] = g;
      if (seen[g] === 0) {
        seen[g] = 1;
        order.push(g);
      }
    }
    return order;
  }
  for (let i = 0; i < n; i++) {
    if ((i & 63) === 0) budget.tick();
    const s = sel[i]!;
    let g = 0;
    for (const k of keyCols) g += (k.codes[s]! + 1) * k.stride;
    gid[i] = g;
    if (seen[g] === 0) {
      seen[g] = 1;
      order.push(g);
    }
  }
  return order;
}

/** Rows per group; each row counted `w[row]` times when given (an optional hop's multiplicity). */
export function countRows(gid: Int32Array, groups: number, w?: Float64Array): (g: number) => Value {
  const counts = zeroedFloat64(groups);
  if (w) for (let i = 0; i < gid.length; i++) counts[gid[i]!]! += w[i]!;
  else for (let i = 0; i < gid.length; i++) counts[gid[i]!]!++;
  return (g) => BigInt(counts[g]!);
}

export function accumulate(
  it: Pick<Extract<ColumnItem, { kind: 'agg' }>, 'fn'>,
  c: Column | undefined,
  gid: Int32Array,
  groups: number,
  sel: ArrayLike<number>,
  w?: Float64Array,
  budget?: Budget,
): ((g: number) => Value) | undefined {
  if (!c) return undefined;
  if (it.fn === 'collect') return budget && collectColumn(c, gid, groups, sel, budget, w);
  const counts = zeroedFloat64(groups);
  if (c.kind === 'dict') {
    // Only nulls (a key no scanned node has): nothing to add up, as row by row.
    if (c.dict.length === 0) return (_g) => (it.fn === 'count' || it.fn === 'sum' ? 0n : null);
    if (it.fn !== 'count') return undefined;
    for (let i = 0; i < gid.length; i++) if (c.codes[sel[i]!]! >= 0) counts[gid[i]!]! += w ? w[i]! : 1;
    return (g) => BigInt(counts[g]!);
  }
  // min/max over FLOATs keep Cypher's ordering of NaN and -0.0: row by row.
  if (c.kind === 'float' && (it.fn === 'min' || it.fn === 'max')) return undefined;
  const { values, nulls } = c;
  const acc = zeroedFloat64(groups);
  // One loop per case, the case decided once (a loop that asks per row which aggregate it adds up ran several
  // times slower): a row standing for m rows (an optional hop) is added m times, INTEGERs as x * m (exact below
  // 2^53, as checked), FLOATs one by one, in the order row by row adds them, so the result is the same to the bit.
  let bound = 0;
  if (it.fn === 'min' || it.fn === 'max') extremes(it.fn === 'min', values, nulls, sel, gid, w, counts, acc);
  else if (!w) bound = sums(values, nulls, sel, gid, counts, acc);
  else if (c.kind === 'int') bound = weightedSums(values, nulls, sel, gid, w, counts, acc);
  else bound = repeatedSums(values, nulls, sel, gid, w, counts, acc);
  const int = c.kind === 'int';
  // Past 2^53, x * m and m additions round differently.
  if (w && int && bound >= EXACT) return undefined;
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
