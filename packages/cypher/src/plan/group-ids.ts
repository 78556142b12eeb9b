// Group ids of an aggregation over columns (columnar-expand.ts): each row's grouping keys combined into one
// number (each key's code + 1, 0 for null, times the product of the earlier keys' sizes + 1), then a dense id per
// distinct number in order of first appearance, through a table when the numbers are few enough, else a Map.
// Each row loop is a function of its own, monomorphic in what it reads (see distinct-slots.ts: a per-row closure
// per key, in one long function, was deoptimised on most calls, 190 times in one run of the benchmark's shapes).
import type { EvalContext } from '../eval.js';
import { tooMany } from './holding.js';
import { borrowFloat64, borrowInt32, giveBack, scopedFloat64 } from './lent-arrays.js';

/** A grouping key: a code per row, `codes[slots[r]]` (or `slots[r]` itself without codes), -1 for null. */
export interface GroupKey {
  slots: ArrayLike<number>;
  codes: ArrayLike<number> | undefined;
  stride: number;
}

/** Each group's combined key by group id: `keys[0 … length-1]`. */
export interface Firsts {
  keys: Float64Array;
  length: number;
}

/** Above this many possible groups, group ids go through a map instead of a table. */
const TABLE_GROUPS = 1 << 22;
/** Rows per block between the budget's checks. */
const BLOCK = 4096;

/**
 * Writes each of the n rows' group id to `gid`; returns each group's combined key, by id (lent within a
 * lendingScope: a group per node, pushed to a growing array, was fresh pages on every query). `space`: the combined
 * keys' range. `bounded`: more groups than the row budget stop it with an error.
 */
export function groupIds(
  keys: readonly GroupKey[],
  n: number,
  space: number,
  gid: Int32Array,
  ctx: EvalContext,
  bounded: boolean,
): Firsts {
  const firsts: Firsts = { keys: scopedFloat64(Math.max(n, 1)), length: 0 };
  // Lent (lent-arrays.ts): fresh arrays of this size are fresh pages on every query.
  const combined = borrowFloat64(n);
  const table = space <= TABLE_GROUPS ? borrowInt32(space) : undefined;
  try {
    combined.fill(0, 0, n);
    for (const k of keys) {
      if (k.codes) addCodes(combined, k.slots, k.codes, k.stride, n);
      else addSlots(combined, k.slots, k.stride, n);
    }
    table?.fill(-1, 0, space);
    const map = table ? undefined : new Map<number, number>();
    const limit = bounded ? ctx.budget.maxRows : Number.POSITIVE_INFINITY;
    for (let start = 0; start < n; start += BLOCK) {
      const stop = Math.min(n, start + BLOCK);
      ctx.budget.tick(Math.ceil((stop - start) / 64));
      const done = table
        ? byTable(combined, start, stop, table, gid, firsts, limit)
        : byMap(combined, start, stop, map!, gid, firsts, limit);
      if (done < stop) {
        throw tooMany(
          ctx.budget,
          `the aggregation stopped at group ${firsts.length + 1}, before reading all of its input`,
        );
      }
    }
  } finally {
    giveBack(combined);
    if (table) giveBack(table);
  }
  return firsts;
}

function addCodes(into: Float64Array, slots: ArrayLike<number>, codes: ArrayLike<number>, stride: number, n: number) {
  for (let r = 0; r < n; r++) {
    const s = slots[r]!;
    into[r] = into[r]! + ((s < 0 ? -1 : codes[s]!) + 1) * stride;
  }
}

function addSlots(into: Float64Array, slots: ArrayLike<number>, stride: number, n: number) {
  for (let r = 0; r < n; r++) into[r] = into[r]! + (slots[r]! + 1) * stride;
}

/** Rows start … stop-1 grouped through the table; returns where it stopped (before stop: past `limit` groups). */
function byTable(
  keys: Float64Array,
  start: number,
  stop: number,
  table: Int32Array,
  gid: Int32Array,
  firsts: Firsts,
  limit: number,
): number {
  for (let r = start; r < stop; r++) {
    // Under TABLE_GROUPS: an int32 index.
    const key = keys[r]! | 0;
    let d = table[key]!;
    if (d < 0) {
      d = firsts.length;
      if (d >= limit) return r;
      firsts.keys[d] = key;
      firsts.length = d + 1;
      table[key] = d;
    }
    gid[r] = d;
  }
  return stop;
}

function byMap(
  keys: Float64Array,
  start: number,
  stop: number,
  map: Map<number, number>,
  gid: Int32Array,
  firsts: Firsts,
  limit: number,
): number {
  for (let r = start; r < stop; r++) {
    const key = keys[r]!;
    let d = map.get(key);
    if (d === undefined) {
      d = firsts.length;
      if (d >= limit) return r;
      firsts.keys[d] = key;
      firsts.length = d + 1;
      map.set(key, d);
    }
    gid[r] = d;
  }
  return stop;
}
