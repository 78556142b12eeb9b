// Ordered indexes over the entities' string columns (`id`, `name`) for the engine's range seeks
// (GraphReader.findNodesInRange) and equality on `name`. The columns are only appended to (entities.ts), so an
// index is the entity numbers of a prefix sorted by value; entities added since are checked one by one, and the
// index is rebuilt once the unsorted tail is more than a tenth of the column.
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

/**
 * The entities whose value lies between `lower` and `upper`: a binary search over the sorted prefix, then the
 * tail. A bound that is not a string holds for no string (Cypher compares a string with a string only).
 */
export function* entitiesInRange(
  values: readonly string[],
  lower: RangeBound | undefined,
  upper: RangeBound | undefined,
): Generator<number> {
  if ((lower && typeof lower.value !== 'string') || (upper && typeof upper.value !== 'string')) return;
  const { order, sorted } = ordered(values);
  // The first slot whose value is not below `lower`.
  let lo = 0;
  let hi = sorted;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (above(values[order[mid]!]!, lower)) hi = mid;
    else lo = mid + 1;
  }
  for (let i = lo; i < sorted; i++) {
    const e = order[i]!;
    if (!below(values[e]!, upper)) break;
    yield e;
  }
  for (let e = sorted; e < values.length; e++) {
    const v = values[e]!;
    if (above(v, lower) && below(v, upper)) yield e;
  }
}
