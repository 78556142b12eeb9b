// Ordered indexes over the entities' string columns (`id`, `name`) for the engine's range seeks
// (GraphReader.findNodesInRange) and equality on `name`. The columns are only appended to (entities.ts), so an
// index is the entity numbers of a prefix sorted by value; entities added since are checked one by one, and the
// index is rebuilt once the unsorted tail is more than a tenth of the column. A label's entities get an order
// of their own (orderedSubset), kept per snapshot by the caller.
import type { RangeBound } from '@evident/cypher';

interface Ordered {
  /** Entity numbers 0..sorted-1, by value (JavaScript string order, Cypher's order for strings). */
  order: Int32Array;
  sorted: number;
}

const indexes = new WeakMap<readonly string[], Ordered>();

function ordered(values: readonly string[]): Ordered {
  let o = indexes.get(values);
  if (!o || values.length - o.sorted > 0.1 * o.sorted + 1024) {
    const order = Int32Array.from({ length: values.length }, (_, i) => i);
    order.sort((a, b) => {
      const x = values[a]!;
      const y = values[b]!;
      return x < y ? -1 : x > y ? 1 : a - b;
    });
    o = { order, sorted: values.length };
    indexes.set(values, o);
  }
  return o;
}

const above = (v: string, b: RangeBound | undefined) =>
  b === undefined || (b.inclusive ? v >= (b.value as string) : v > (b.value as string));
const below = (v: string, b: RangeBound | undefined) =>
  b === undefined || (b.inclusive ? v <= (b.value as string) : v < (b.value as string));

/** The first position of `order[0..n)` whose value is not below `lower` (order sorted by value). */
function firstAbove(values: readonly string[], order: ArrayLike<number>, n: number, lower: RangeBound | undefined) {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (above(values[order[mid]!]!, lower)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** A bound that is not a string holds for no string (Cypher compares a string with a string only). */
const comparable = (lower: RangeBound | undefined, upper: RangeBound | undefined) =>
  (!lower || typeof lower.value === 'string') && (!upper || typeof upper.value === 'string');

/**
 * The entities whose value lies between `lower` and `upper`: a binary search over the sorted prefix, then the
 * tail.
 */
export function* entitiesInRange(
  values: readonly string[],
  lower: RangeBound | undefined,
  upper: RangeBound | undefined,
): Generator<number> {
  if (!comparable(lower, upper)) return;
  const { order, sorted } = ordered(values);
  for (let i = firstAbove(values, order, sorted, lower); i < sorted; i++) {
    const e = order[i]!;
    if (!below(values[e]!, upper)) break;
    yield e;
  }
  for (let e = sorted; e < values.length; e++) {
    const v = values[e]!;
    if (above(v, lower) && below(v, upper)) yield e;
  }
}

/**
 * The entities `member` marks, all of them in value order (ties by entity number): the column's index filtered
 * in one pass, its unsorted tail sorted and merged in. A range over it visits only those entities (a label's),
 * not every entity whose value lies in the range.
 */
export function orderedSubset(values: readonly string[], member: Uint8Array): Int32Array {
  const { order, sorted } = ordered(values);
  const head: number[] = [];
  for (let i = 0; i < sorted; i++) if (member[order[i]!] === 1) head.push(order[i]!);
  const tail: number[] = [];
  for (let e = sorted; e < values.length; e++) if (member[e] === 1) tail.push(e);
  const cmp = (a: number, b: number) => {
    const x = values[a]!;
    const y = values[b]!;
    return x < y ? -1 : x > y ? 1 : a - b;
  };
  tail.sort(cmp);
  const out = new Int32Array(head.length + tail.length);
  let i = 0;
  let j = 0;
  for (let k = 0; k < out.length; k++) {
    out[k] = j >= tail.length || (i < head.length && cmp(head[i]!, tail[j]!) < 0) ? head[i++]! : tail[j++]!;
  }
  return out;
}

/** The entities of `order` (in value order: orderedSubset) whose value lies between `lower` and `upper`. */
export function* inRange(
  values: readonly string[],
  order: Int32Array,
  lower: RangeBound | undefined,
  upper: RangeBound | undefined,
): Generator<number> {
  if (!comparable(lower, upper)) return;
  for (let i = firstAbove(values, order, order.length, lower); i < order.length; i++) {
    const e = order[i]!;
    if (!below(values[e]!, upper)) return;
    yield e;
  }
}

/** `order` (orderedSubset's) with the entities `added` merged in at their places, as a new array. */
export function mergedOrder(values: readonly string[], order: Int32Array, added: readonly number[]): Int32Array {
  const cmp = (a: number, b: number) => {
    const x = values[a]!;
    const y = values[b]!;
    return x < y ? -1 : x > y ? 1 : a - b;
  };
  const tail = [...added].sort(cmp);
  const out = new Int32Array(order.length + tail.length);
  let i = 0;
  let j = 0;
  for (let k = 0; k < out.length; k++) {
    out[k] = j >= tail.length || (i < order.length && cmp(order[i]!, tail[j]!) < 0) ? order[i++]! : tail[j++]!;
  }
  return out;
}

/** inRange's entities as a view of `order` (they are neighbours in it): no copy, no generator. */
export function rangeOf(
  values: readonly string[],
  order: Int32Array,
  lower: RangeBound | undefined,
  upper: RangeBound | undefined,
): Int32Array {
  if (!comparable(lower, upper)) return order.subarray(0, 0);
  const from = firstAbove(values, order, order.length, lower);
  let lo = from;
  let hi = order.length;
  // The first position past the range: values ascend, so `below` holds on a prefix of the rest.
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (below(values[order[mid]!]!, upper)) lo = mid + 1;
    else hi = mid;
  }
  return order.subarray(from, lo);
}
