// ORDER BY … LIMIT k straight over a ChainProjection whose sort keys are its node properties (`MATCH (a)-->(b)-->(c)
// RETURN c.name AS name ORDER BY name LIMIT 9`): each match's keys are numbers read at its slots (a dictionary
// column's codes ranked once by the order ORDER BY uses, an integer column's values), a heap keeps the k best slot
// tuples, and rows are built for those k only, not for each of the hundreds of thousands of matches. Ties keep
// match order, as Top does, so Top then orders the k rows exactly as it would have among all of them.
import { type Held, rowBytes } from '../budget.js';
import type { Column } from '../columns.js';
import { orderCompare } from '../compare.js';
import type { Row } from '../eval.js';
import { count } from '../interpret/project.js';
import { ownValue, setOwn, type Value } from '../values.js';
import { chainReads, walkChain } from './chain-walk.js';
import type { Op } from './operators.js';
import type { Runner } from './physical.js';

type TopOp = Extract<Op, { op: 'Top' }>;
type Chain = Extract<Op, { op: 'ChainProjection' }>;

/** EVIDENT_CYPHER_TOP_CHAIN=0 (read per query) builds every match's row: for before/after measurements. */
const off = () =>
  (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.EVIDENT_CYPHER_TOP_CHAIN ===
  '0';

/** Each dictionary's codes ranked by orderCompare, kept while the dictionary (grown in place by some graphs) has that length. */
const ranks = new WeakMap<readonly Value[], Float64Array>();

function rankOf(dict: readonly Value[]): Float64Array {
  const known = ranks.get(dict);
  if (known && known.length === dict.length) return known;
  const order = Array.from({ length: dict.length }, (_, i) => i).sort((a, b) => orderCompare(dict[a]!, dict[b]!));
  const rank = new Float64Array(dict.length);
  for (let i = 1; i < order.length; i++) {
    const same = orderCompare(dict[order[i - 1]!]!, dict[order[i]!]!) === 0;
    rank[order[i]!] = same ? rank[order[i - 1]!]! : i;
  }
  ranks.set(dict, rank);
  return rank;
}

/**
 * A sort key as a number per slot, smaller first: DESC negated, null last ascending and first descending (as
 * orderCompare places it); undefined for a column whose order is not that of numbers (floats: NaN's place).
 */
function keyOf(c: Column, descending: boolean): ((slot: number) => number) | undefined {
  const sign = descending ? -1 : 1;
  const none = sign * Number.POSITIVE_INFINITY;
  if (c.kind === 'dict') {
    const rank = rankOf(c.dict);
    const codes = c.codes;
    return (s) => (s < 0 || codes[s]! < 0 ? none : sign * rank[codes[s]!]!);
  }
  if (c.kind !== 'int') return undefined;
  const { values, nulls } = c;
  return (s) => (s < 0 || (nulls && nulls[s] !== 0) ? none : sign * values[s]!);
}

/** What a Top over a chain reads per match: the walk, each sort key's number at its slot, and the rows' reads. */
function chainKeys(r: Runner, op: TopOp) {
  const input = op.input;
  if (off() || input.op !== 'ChainProjection' || input.count || input.aggregate || op.distinct) return undefined;
  const g = r.ctx.graph;
  const sortItems: Chain['items'] = [];
  for (const o of op.order) {
    const item =
      o.expr.kind === 'var' ? input.items.find((i) => i.name === (o.expr as { name: string }).name) : undefined;
    if (!item || item.key === null) return undefined;
    sortItems.push(item);
  }
  const cols = g.scanColumns?.(undefined, [...new Set(sortItems.map((i) => i.key!))]);
  if (!cols) return undefined;
  const keys: ((slot: number) => number)[] = [];
  for (let i = 0; i < sortItems.length; i++) {
    const c = ownValue(cols.columns, sortItems[i]!.key!) as Column | undefined;
    const k = c && keyOf(c, op.order[i]!.descending);
    if (!k) return undefined;
    keys.push(k);
  }
  const ctx = r.ctx;
  const keep = (op.skip ? count(op.skip, 'SKIP', ctx) : 0) + count(op.limit, 'LIMIT', ctx);
  const walk = walkChain(input, r);
  const read = walk && chainReads(input, r, walk.nodes);
  if (!walk || !read) return undefined;
  const at = sortItems.map((i) => walk.nodes.indexOf(i.variable));
  const row = (slots: ArrayLike<number>, offset: number) => {
    const out: Row = {};
    for (const c of read) setOwn(out, c.name, c.value(slots[offset + c.at]!));
    return out;
  };
  return { walk, again: () => walkChain(input, r), keys, at, keep, row };
}

/** A heap of entries whose root is the last in order (`after(a, b) > 0`: a comes after b): entry heap[i] moved up. */
function siftUp(heap: Int32Array, i: number, after: (a: number, b: number) => number): void {
  for (let p = (i - 1) >> 1; i > 0 && after(heap[i]!, heap[p]!) > 0; i = p, p = (i - 1) >> 1) {
    [heap[i], heap[p]] = [heap[p]!, heap[i]!];
  }
}

/** The same heap of n entries after its root was replaced: the root moved down to its place. */
function siftDown(heap: Int32Array, n: number, after: (a: number, b: number) => number): void {
  for (let i = 0; ; ) {
    const l = 2 * i + 1;
    let w = i;
    if (l < n && after(heap[l]!, heap[w]!) > 0) w = l;
    if (l + 1 < n && after(heap[l + 1]!, heap[w]!) > 0) w = l + 1;
    if (w === i) return;
    [heap[i], heap[w]] = [heap[w]!, heap[i]!];
    i = w;
  }
}

/** The rows of the Top's SKIP + LIMIT best matches, best first; undefined when the chain cannot answer so. */
export function topChainRows(r: Runner, op: TopOp): Row[] | undefined {
  if (op.ties) return undefined;
  const chain = chainKeys(r, op);
  if (!chain) return undefined;
  const { walk, keys, at, keep } = chain;
  if (keep === 0) return [];
  const K = keys.length;
  const width = walk.slots.length;
  // Entry e: its keys at e*K, its match number, its slots at e*width. heap[0] is the worst entry kept.
  const held = new Float64Array(keep * K);
  const seq = new Float64Array(keep);
  const slots = new Int32Array(keep * width);
  const heap = new Int32Array(keep);
  const key = new Float64Array(K);
  let n = 0;
  let m = 0;
  // > 0: entry a comes after entry b in the result (key and sequence; the new match is entry -1, `key`, `m`).
  const after = (a: number, b: number) => {
    for (let i = 0; i < K; i++) {
      const x = a < 0 ? key[i]! : held[a * K + i]!;
      const y = held[b * K + i]!;
      if (x !== y) return x < y ? -1 : 1;
    }
    return (a < 0 ? m : seq[a]!) - seq[b]!;
  };
  const store = (e: number) => {
    for (let i = 0; i < K; i++) held[e * K + i] = key[i]!;
    seq[e] = m;
    slots.set(walk.slots, e * width);
  };
  while (walk.step()) {
    m++;
    const first = keys[0]!(walk.slots[at[0]!]!);
    // Most matches lose to the worst kept on the first key alone.
    if (n === keep && first > held[heap[0]! * K]!) continue;
    key[0] = first;
    for (let i = 1; i < K; i++) key[i] = keys[i]!(walk.slots[at[i]!]!);
    if (n < keep) {
      store(n);
      heap[n] = n;
      siftUp(heap, n++, after);
      continue;
    }
    if (after(-1, heap[0]!) >= 0) continue;
    store(heap[0]!);
    siftDown(heap, n, after);
  }
  const best = Array.from(heap.subarray(0, n)).sort((a, b) => after(a, b));
  return best.map((e) => chain.row(slots, e * width));
}

/**
 * A Top `ties` (top-ties.ts) over a chain: a first walk finds the SKIP + LIMIT-th best keys (a heap of keys); a
 * second builds the rows of the matches at least as good, in match order. Undefined when the chain cannot answer.
 */
export function topChainTies(r: Runner, op: TopOp, held: Held): Row[] | undefined {
  const chain = op.ties ? chainKeys(r, op) : undefined;
  if (!chain) return undefined;
  const { keys, at, keep } = chain;
  if (keep === 0) return [];
  const K = keys.length;
  // heap[0] holds the worst keys kept; entries compared on their keys alone.
  const best = new Float64Array(keep * K);
  const heap = new Int32Array(keep);
  const key = new Float64Array(K);
  const after = (a: number, b: number) => {
    for (let i = 0; i < K; i++) {
      const x = a < 0 ? key[i]! : best[a * K + i]!;
      const y = best[b * K + i]!;
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  };
  const read = (slots: Int32Array, from = 0) => {
    for (let i = from; i < K; i++) key[i] = keys[i]!(slots[at[i]!]!);
  };
  let n = 0;
  const walk = chain.walk;
  while (walk.step()) {
    const first = keys[0]!(walk.slots[at[0]!]!);
    if (n === keep && first > best[heap[0]! * K]!) continue;
    key[0] = first;
    read(walk.slots, 1);
    if (n < keep) {
      best.set(key, n * K);
      heap[n] = n;
      siftUp(heap, n++, after);
      continue;
    }
    if (after(-1, heap[0]!) >= 0) continue;
    best.set(key, heap[0]! * K);
    siftDown(heap, n, after);
  }
  const again = chain.again();
  if (!again) return undefined;
  // Every key kept when fewer matches than `keep` were found.
  const worst = n < keep ? -1 : heap[0]!;
  const budget = r.ctx.budget;
  const rows: Row[] = [];
  while (again.step()) {
    if (worst >= 0) {
      read(again.slots);
      if (after(-1, worst) > 0) continue;
    }
    budget.tick();
    const row = chain.row(again.slots, 0);
    held.add(rowBytes(row));
    rows.push(row);
  }
  return rows;
}
