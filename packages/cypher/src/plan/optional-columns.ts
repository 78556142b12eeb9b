// OPTIONAL MATCH of one relationship from a column scan's node, projected to properties of both ends (`MATCH
// (n:Drug) WHERE n.c > 12 OPTIONAL MATCH (n)<--(o:Disease) RETURN n.name, o.name`): the scan's slots selected on
// the columns, each one's far slots from the graph's adjacency (tested for the far labels on their slots), and
// each row read from the node columns at the two slots. No node, relationship or intermediate row is built; the
// rows come in the order the row-by-row OptionalExpand gives them, lazily (a LIMIT above stops the scan).
import type { Column } from '../columns.js';
import type { Row } from '../eval.js';
import { ownValue, setOwn, type Value } from '../values.js';
import { selectSlots } from './column-filters.js';
import { existsTests, reader } from './columnar.js';
import { members } from './exists.js';
import { mapInputs, type Op } from './operators.js';
import type { Runner } from './physical.js';
import { propOf } from './rewrite.js';
import { slotAdjacency } from './var-paths.js';
import { chunked } from './chunked.js';
import { narrowed } from './labelled-adjacency.js';
import { alongAdjacency } from './far-columns.js';
import { type FarCell, type NodeCell, optionalRows } from './optional-rows.js';
import { type ColumnRead, columnRows, type MeasuredRows, SlotPairs } from './tuples.js';

type Scan = Extract<Op, { op: 'OptionalColumnScan' }>;

/** A whole-plan pass: Projection over OptionalExpand (by adjacency) over NodeColumnScan → OptionalColumnScan. */
export function optionalColumns(op: Op): Op {
  const o = mapInputs(op, optionalColumns);
  if (o.op !== 'Projection' || o.keep || o.input.op !== 'OptionalExpand') return o;
  const x = o.input;
  const e = x.expand;
  const scan = x.input;
  if (scan.op !== 'NodeColumnScan' || scan.columns || x.predicates.length > 0) return o;
  if (!e.adjacency || e.adjacency.relFilters || e.relBound || e.distinctFrom.length > 0) return o;
  if (e.from !== scan.variable || e.to === e.from) return o;
  const items: Scan['items'] = [];
  for (const it of o.items) {
    const from = propOf(it.expr, e.from);
    const to = propOf(it.expr, e.to);
    if (from !== undefined) items.push({ name: it.name, key: from, side: 'from' });
    else if (to !== undefined) items.push({ name: it.name, key: to, side: 'to' });
    else return o;
  }
  const { direction, types } = e;
  const toLabels = e.adjacency.toLabels;
  return { op: 'OptionalColumnScan', scan, to: e.to, direction, types, toLabels, items, fallback: o, est: o.est };
}

/** The rows, or undefined when the graph cannot give the columns, adjacency or label slots (the fallback runs). */
export function optionalColumnRows(op: Scan, runner: Runner): Iterable<Row> | undefined {
  const m = optionalMatches(op, runner);
  if (!m) return undefined;
  return chunked((into) => {
    const pairs = new SlotPairs();
    const more = m.fill(pairs, CHUNK);
    for (let k = 0; k < pairs.length; k++) {
      const s = pairs.from[k]!;
      const t = pairs.to[k]!;
      const r: Row = {};
      for (const c of m.read) setOwn(r, c.name, c.from ? c.value(s) : t < 0 ? null : c.value(t));
      into.push(r);
    }
    return more;
  });
}

/**
 * The result's tuples (`names` in order, each one of the items) read straight from the columns: in one pass over
 * the nodes and their adjacency when every far column is kept along it (optional-rows.ts); else the matches first,
 * as slot pairs, then the rows, each cell read from its column at its slot.
 */
export function optionalColumnTuples(op: Scan, runner: Runner, names: string[]): MeasuredRows | undefined {
  const m = optionalMatches(op, runner);
  if (!m) return undefined;
  const ctx = runner.ctx;
  const numbers = ctx.integersAsNumbers === true;
  const items = names.map((name) => m.read.find((x) => x.name === name)!);
  // A far end's column along the adjacency the matches came from, when one is kept for it.
  const along = items.map((r) => (!r.from && m.adj ? alongAdjacency(m.adj.far, r.column) : undefined));
  if (m.adj && items.every((r, j) => r.from || along[j])) {
    // Every far column along the adjacency: the rows in one pass (optional-rows.ts).
    const nodeCells: NodeCell[] = [];
    const farCells: FarCell[] = [];
    items.forEach((r, col) => {
      if (r.from) nodeCells.push({ col, column: r.column });
      else farCells.push({ col, along: along[col]! });
    });
    const tick = (work: number) => ctx.budget.tick(work);
    const rows = optionalRows(m.sel, m.adj.offsets, nodeCells, farCells, names.length, numbers, tick);
    ctx.budget.tick(rows.rows.length);
    return rows;
  }
  // Every match at once: nothing above the scan but the result (no LIMIT) stops it early. The pairs are read
  // before this returns, so the thread's scratch pairs serve.
  const pairs = SlotPairs.scratch();
  m.fill(pairs, Number.POSITIVE_INFINITY);
  ctx.budget.tick(pairs.length);
  const reads = items.map((r, j): ColumnRead => {
    const a = along[j];
    if (a) return { along: a, at: pairs.at };
    return { column: r.column, slots: r.from ? pairs.from : pairs.to };
  });
  return columnRows(reads, pairs.length, numbers);
}

type Read = { name: string; from: boolean; column: Column; value: (slot: number) => Value }[];

/**
 * Each selected slot with each far slot of the hop (-1 when none): `fill(into, n)` appends the next slots'
 * matches until `into` holds n or more, and says whether slots remain; `read` says how each item is read from
 * a slot. Undefined when the graph cannot give the columns, adjacency or label slots.
 */
function optionalMatches(
  op: Scan,
  runner: Runner,
):
  | {
      read: Read;
      fill: (into: SlotPairs, n: number) => boolean;
      sel: ArrayLike<number>;
      adj: { offsets: Int32Array; far: Int32Array } | undefined;
    }
  | undefined {
  const ctx = runner.ctx;
  const g = ctx.graph;
  if (!g.scanColumns || !g.adjacent) return undefined;
  const keys = (side: 'from' | 'to') => op.items.filter((i) => i.side === side).map((i) => i.key);
  const scan = g.scanColumns(op.scan.label, [...new Set([...op.scan.filters.map((f) => f.key), ...keys('from')])]);
  const far = g.scanColumns(undefined, [...new Set(keys('to'))]);
  if (!scan || !far) return undefined;
  const tests = existsTests(op.scan.exists, scan, ctx);
  const sel = tests && selectSlots(scan, op.scan.filters, ctx, tests, undefined, { label: op.scan.label });
  const m = op.toLabels.length > 0 ? members(runner, op.toLabels) : undefined;
  if (!sel || m === null) return undefined;
  // The kept adjacency of the types when the graph gives relationship columns (no walk of a node's facts per
  // row); else the graph's own, which it gives for every node or for none: asked once before any row.
  const full = slotAdjacency(ctx, op.types, op.direction);
  if (!full && sel.length > 0 && !g.adjacent(sel[0]!, op.direction, op.types)) return undefined;
  // Narrowed to the far label's slots when there is one: no label test per relationship of the node.
  const adj = full && m ? narrowed(full, op.toLabels, m) : full;
  const read: Read = [];
  for (const i of op.items) {
    const c = ownValue((i.side === 'from' ? scan : far).columns, i.key) as Column | undefined;
    if (!c) return undefined;
    read.push({ name: i.name, from: i.side === 'from', column: c, value: reader(c) });
  }
  let i = 0;
  // Each match as a pair of slots: the scanned node's, and the far node's (-1 when the optional part found none).
  const fill = (into: SlotPairs, n: number) => {
    if (adj) {
      // A block of nodes per call, so that the budget's deadline is still checked within a long scan.
      while (i < sel.length && into.length < n) {
        const before = into.length;
        const stop = Math.min(sel.length, i + 1024);
        const done = adjacencyPairs(sel, i, stop, n, adj.offsets, adj.far, into);
        ctx.budget.tick(done - i + into.length - before);
        i = done;
      }
      return i < sel.length;
    }
    for (; i < sel.length && into.length < n; i++) {
      ctx.budget.tick();
      const s = sel[i]!;
      const before = into.length;
      // Read at once: the graph may reuse its buffer on the next call.
      const ends = g.adjacent!(s, op.direction, op.types) ?? [];
      for (let j = 0; j < ends.length; j++) {
        const t = ends[j]!;
        if (!m || m[t] === 1) into.push(s, t, -1);
      }
      ctx.budget.tick(into.length - before);
      if (into.length === before) into.push(s, -1, -1);
    }
    return i < sel.length;
  };
  return { read, fill, sel, adj };
}

/**
 * The pairs of the nodes `sel[i]`, `sel[i+1]` … before `stop` (or until `into` holds `n`), each node with each far
 * slot of its adjacency (already narrowed to the far labels), or with -1 when it has none; returns the position
 * it stopped at. A loop of its own over the arrays, writing straight into the pairs' arrays: as a closure calling
 * `push` per pair it took 0.58-0.67 ms a query against 0.39-0.56 for 35,657 pairs at a million claims.
 */
function adjacencyPairs(
  sel: ArrayLike<number>,
  i: number,
  stop: number,
  n: number,
  offsets: Int32Array,
  far: Int32Array,
  into: SlotPairs,
): number {
  const last = offsets.length - 1;
  let k = into.length;
  let { from, to, at } = into;
  for (; i < stop && k < n; i++) {
    const s = sel[i]!;
    const start = s < last ? offsets[s]! : 0;
    const end = s < last ? offsets[s + 1]! : 0;
    if (k + end - start + 1 > from.length) {
      into.length = k;
      into.reserve(k + end - start + 1);
      ({ from, to, at } = into);
    }
    const before = k;
    for (let j = start; j < end; j++) {
      from[k] = s;
      to[k] = far[j]!;
      at[k++] = j;
    }
    if (k === before) {
      from[k] = s;
      to[k] = -1;
      at[k++] = -1;
    }
  }
  into.length = k;
  return i;
}

/** Rows made per chunk: a LIMIT above stops within one chunk's scan. */
const CHUNK = 256;
