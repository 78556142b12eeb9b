// Count-only aggregation: `count(*)` over a node scan answered from the graph's counts (NodeCount), and over
// the last expansion of a pattern by counting relationships or paths as they are walked (ExpandCount), with
// no row, relationship list or node binding per match. Relationship uniqueness holds as row by row. With the
// graph's relationship columns and node slots, over slots (var-paths.ts): no relationship object either.
import type { EvalContext, Row } from '../eval.js';
import { lookup } from '../eval.js';
import type { Direction } from '../graph.js';
import { GraphNode, setOwn } from '../values.js';
import { usedBy, walkPaths } from './checks.js';
import type { EndsCount, Op } from './operators.js';
import { members } from './exists.js';
import { hopDegree } from './optional-expand.js';
import type { Runner } from './physical.js';
import { slotTests } from './var-count.js';
import { countPaths, EndCounts, excludedSlots, SlotWalk, slotAdjacency, slotIn } from './var-paths.js';

/** The node count from the graph, or undefined when it has none (the fallback scans). */
export function nodeCount(op: Extract<Op, { op: 'NodeCount' }>, ctx: EvalContext): Row[] | undefined {
  const n = ctx.graph.countNodes?.(op.label);
  if (n === undefined) return undefined;
  const r: Row = {};
  setOwn(r, op.name, BigInt(n));
  return [r];
}

export function* countExpansions(op: Extract<Op, { op: 'ExpandCount' }>, runner: Runner, arg: Row): Generator<Row> {
  const ctx = runner.ctx;
  const e = op.expand;
  if (e.op !== 'Expand' && e.op !== 'VarLengthExpand') throw new Error(`ExpandCount over ${e.op}`);
  if (op.ends) {
    const tally = new Tally();
    if (e.op === 'Expand') countHops(op, op.ends, e, runner, arg, tally);
    else countByEnds(op, op.ends, e, runner, arg, tally);
    yield tally.row(op.names, op.ends.hopNames);
    return;
  }
  const range = e.op === 'Expand' ? { min: 1, max: 1 } : e;
  const space = e.op === 'VarLengthExpand' && e.slots ? e.space : undefined;
  let walk: SlotWalk | undefined;
  let total = 0;
  const countRow = (row: Row) => {
    const from = lookup(row, e.from);
    if (!(from instanceof GraphNode)) return;
    // Over slots when nothing is excluded, or only the slots of earlier walks of the same space.
    const excluded = e.op === 'VarLengthExpand' && e.slots ? excludedSlots(row, e.distinctFrom) : undefined;
    const used = excluded ? undefined : usedBy(row, e.distinctFrom);
    if (!used) {
      walk ??= slotWalk(ctx, e.types, e.direction, space);
      const slot = walk && slotIn(ctx, from);
      if (walk && slot !== undefined) {
        // A hop is the node's degree; paths counted without walking their last hop.
        total += countPaths(walk, slot, range, excluded);
        return;
      }
    }
    if (e.op === 'Expand') {
      for (const r of ctx.graph.expand(from, e.direction, e.types)) {
        ctx.budget.tick();
        if (!r.deleted && !used?.has(r)) total++;
      }
    } else {
      for (const _ of walkPaths(from, e, used, null, ctx)) total++;
    }
  };
  const v = op.input;
  if (e.op === 'VarLengthExpand' && e.slots && v.op === 'VarLengthExpand' && v.slots && v.bindRels) {
    // countRow adds to `total` too (rows the slots cannot take): added after it, not assigned over it.
    const walked = countAfterWalk(e, v, runner, arg, countRow);
    total += walked;
  } else for (const row of runner.rows(op.input, arg)) countRow(row);
  yield new Tally(total).row(op.names, []);
}

type SlotExpand = Extract<Op, { op: 'VarLengthExpand' }>;

/**
 * The count of slot walk `e` right after slot walk `v` of the same MATCH (`(a)-[*1..2]->(b)-[:T]->(c) RETURN
 * count(*)`): `v` walks inline, so no row, end node or slot list is built per path of it; `e` excludes the
 * path's relationship slots. A row the slots cannot take goes through `v`'s rows and `countRow`.
 */
function countAfterWalk(e: SlotExpand, v: SlotExpand, runner: Runner, arg: Row, countRow: (r: Row) => void): number {
  const ctx = runner.ctx;
  const adjV = slotAdjacency(ctx, v.types, v.direction, v.space);
  const adjE = slotAdjacency(ctx, e.types, e.direction, e.space);
  const first = adjV && new SlotWalk(adjV, ctx);
  const second = adjE && new SlotWalk(adjE, ctx);
  const keptApart = e.distinctFrom.includes(v.rel);
  const others = e.distinctFrom.filter((d) => d !== v.rel);
  const rowsOfV: Op = { ...v, input: { op: 'Argument', est: 1 } };
  let total = 0;
  for (const row of runner.rows(v.input, arg)) {
    const a = lookup(row, v.from);
    if (!(a instanceof GraphNode)) continue;
    const start = slotIn(ctx, a);
    const outer = excludedSlots(row, v.distinctFrom);
    const before = excludedSlots(row, others);
    const bound = e.from === v.to ? undefined : lookup(row, e.from);
    const fixed = bound instanceof GraphNode ? slotIn(ctx, bound) : undefined;
    if (!first || !second || start === undefined || !outer || !before || (bound !== undefined && fixed === undefined)) {
      for (const r of runner.rows(rowsOfV, row)) countRow(r);
      continue;
    }
    const count = (end: number) => {
      const excluded = keptApart && first.path.length > 0 ? [...before, ...first.path] : before;
      total += countPaths(second, fixed ?? end, e, excluded);
    };
    if (v.min === 0) {
      first.start(start, 0);
      count(start);
    }
    first.start(start, v.max, outer);
    for (let b = first.step(); b >= 0; b = first.step()) if (first.path.length >= v.min) count(b);
  }
  return total;
}

function slotWalk(
  ctx: EvalContext,
  types: string[],
  direction: Direction,
  space: string[] | undefined,
): SlotWalk | undefined {
  const adj = slotAdjacency(ctx, types, direction, space);
  return adj && new SlotWalk(adj, ctx);
}

/**
 * The rows an ExpandCount with `ends` counts (each of its matches m times, standing for max(k, 1) rows, k the
 * folded OPTIONAL MATCH's matches), and the matches counted by count(o).
 */
class Tally {
  constructor(
    public rows = 0,
    public matches = 0,
  ) {}

  add(m: number, k: number) {
    this.rows += m * (k > 0 ? k : 1);
    this.matches += m * k;
  }

  row(names: string[], hopNames: string[]): Row {
    const out: Row = {};
    for (const name of names) setOwn(out, name, BigInt(this.rows));
    for (const name of hopNames) setOwn(out, name, BigInt(this.matches));
    return out;
  }
}

/**
 * ExpandCount's `ends` over one hop: each relationship is max(k, 1) rows of each row the operators above it give
 * on its far end (k the folded OPTIONAL MATCH's there). When every such operator is a test on the far end's slot,
 * no row is built; by adjacency (the relationship read by nothing), no relationship either.
 */
function countHops(
  op: Extract<Op, { op: 'ExpandCount' }>,
  ends: EndsCount,
  e: Extract<Op, { op: 'Expand' }>,
  runner: Runner,
  arg: Row,
  tally: Tally,
): void {
  const ctx = runner.ctx;
  const g = ctx.graph;
  const tests = slotTests(ends, e.to, ctx);
  // k per row, made when a row needs it (with slot tests, none does).
  let byRow: ((row: Row) => number) | undefined | null = null;
  const kOf = (r: Row) => {
    if (byRow === null) byRow = ends.hop && hopDegree(runner, ends.hop);
    return byRow ? byRow(r) : 0;
  };
  const labels = e.adjacency?.toLabels ?? [];
  const m = labels.length > 0 ? members(runner, labels) : undefined;
  const addFar = (row: Row, far: GraphNode | undefined, slot: number | undefined) => {
    if (tests && slot !== undefined && slot < tests.size) {
      if (tests.pass(slot)) tally.add(1, tests.k ? tests.k(slot) : 0);
      return;
    }
    const at = { ...row };
    setOwn(at, e.to, far ?? g.nodeAt!(slot!));
    for (const r of runner.rows(ends.inner, at)) tally.add(1, kOf(r));
  };
  // With slot tests, the far ends read from the kept slot adjacency (as a count without `ends` reads a degree):
  // no walk of the node's relationships per row.
  const kept = tests && e.adjacency && m !== null ? slotAdjacency(ctx, e.types, e.direction) : undefined;
  for (const row of runner.rows(op.input, arg)) {
    const from = lookup(row, e.from);
    if (!(from instanceof GraphNode)) continue;
    const slot = kept && slotIn(ctx, from);
    if (kept && slot !== undefined) {
      const { offsets, far } = kept;
      const end = slot + 1 < offsets.length ? offsets[slot + 1]! : 0;
      for (let j = slot + 1 < offsets.length ? offsets[slot]! : 0; j < end; j++) {
        ctx.budget.tick();
        const s = far[j]!;
        if (!m || m[s] === 1) addFar(row, undefined, s);
      }
      continue;
    }
    const adjacent = e.adjacency && m !== null && g.nodeAt ? g.adjacent?.(from, e.direction, e.types) : undefined;
    if (adjacent) {
      // Copied: the graph may reuse its buffer on the next adjacency call (a test or k may make one).
      const slots = Int32Array.from(adjacent);
      for (let i = 0; i < slots.length; i++) {
        ctx.budget.tick();
        if (!m || m[slots[i]!] === 1) addFar(row, undefined, slots[i]!);
      }
      continue;
    }
    const used = usedBy(row, e.distinctFrom);
    for (const r of g.expand(from, e.direction, e.types)) {
      ctx.budget.tick();
      if (r.deleted || used?.has(r)) continue;
      const far = r.start === from ? r.end : r.start;
      if (!labels.every((l) => far.labels.includes(l))) continue;
      addFar(row, far, tests ? g.slotOf?.(far) : undefined);
    }
  }
}

/** The counts of ExpandCount's `ends`: the inner plan once per distinct end, weighed by the paths reaching it. */
function countByEnds(
  op: Extract<Op, { op: 'ExpandCount' }>,
  ends: EndsCount,
  e: Extract<Op, { op: 'VarLengthExpand' }>,
  runner: Runner,
  arg: Row,
  tally: Tally,
): void {
  const ctx = runner.ctx;
  const byRow = ends.hop ? hopDegree(runner, ends.hop) : undefined;
  const adj = slotAdjacency(ctx, e.types, e.direction, e.space);
  const counts = adj && new EndCounts(adj, ctx);
  const tests = counts && slotTests(ends, e.to, ctx);
  // Every inner operator a test on the end's slot (and k per slot): no row per end. Else the inner plan's rows.
  const addEnd = (row: Row, s: number, m: number) => {
    if (tests) {
      if (s < tests.size && tests.pass(s)) tally.add(m, tests.k ? tests.k(s) : 0);
      return;
    }
    const at = { ...row };
    setOwn(at, e.to, ctx.graph.nodeAt!(s));
    for (const r of runner.rows(ends.inner, at)) tally.add(m, byRow ? byRow(r) : 0);
  };
  // The walk over relationships, one row per path, when the graph gives no slots.
  const walk: Op = { ...e, input: { op: 'Argument', est: 1 }, slots: false };
  try {
    for (const row of runner.rows(op.input, arg)) {
      const from = lookup(row, e.from);
      if (!(from instanceof GraphNode)) continue;
      const slot = counts && slotIn(ctx, from);
      const excluded = excludedSlots(row, e.distinctFrom);
      if (!counts || slot === undefined || !excluded) {
        for (const r of runner.rows(walk, row)) {
          for (const x of runner.rows(ends.inner, r)) tally.add(1, byRow ? byRow(x) : 0);
        }
        continue;
      }
      counts.count(slot, e, excluded);
      for (const s of counts.slots) addEnd(row, s, counts.paths[s]!);
    }
  } finally {
    counts?.release();
  }
}
