// Result rows made straight from node columns, measured as they are made. Three costs per row are avoided:
// - `new Array(w)` with a width known only at run time is a call into the runtime per row; an array literal of
//   a fixed width is allocated inline by the optimising compiler, so the common widths get a literal each;
// - each column's cell reader stays at one call site (monomorphic) in the loop;
// - the engine's result loop would read every string cell again for its size (a cache miss per cell when the
//   slots are scattered, as an expansion's far ends are): a dictionary column's sizes are kept per code, and
//   the rows come with their total, so the engine counts them at once (MeasuredRows).
import { valueBytes } from '../budget.js';
import type { Column } from '../columns.js';
import type { Value } from '../values.js';
import { integerOf } from './columnar.js';

/**
 * Rows with what the engine's result loop would have counted: their estimated bytes (valueBytes per cell, 32
 * per row) and the columns whose cells may need the caller's conversion (an INTEGER, a list...).
 */
export class MeasuredRows implements Iterable<Value[]> {
  constructor(
    readonly rows: Value[][],
    readonly bytes: number,
    readonly convert: readonly number[],
  ) {}

  [Symbol.iterator](): Iterator<Value[]> {
    return this.rows[Symbol.iterator]();
  }
}

/** A column read at slots (`slots[k]`, null where negative), adding each cell's bytes to `size.bytes`. */
interface Cells {
  cell: (k: number) => Value;
  /** Whether a cell may be other than a string, float, boolean or null. */
  converts: boolean;
}

/** Column `c` read at `slots[k]` for the k-th row (a negative slot reads null). */
function cellsOf(c: Column, slots: ArrayLike<number>, n: number, size: { bytes: number }): Cells {
  if (c.kind === 'dict' && scattered(slots, n, c.codes.length)) {
    const values = inSlotOrder(c, slots, n, size);
    return { converts: measuredDictionary(c.dict).converts, cell: (k) => values[k]! };
  }
  if (c.kind === 'dict') {
    const { codes, dict } = c;
    const { sizes, converts } = measuredDictionary(dict);
    // A column of distinct values (names, ids) is coded in slot order: then the slot is the code, and a far
    // end's value and size are two independent reads, not three chained ones.
    if (identity(codes))
      return {
        converts,
        cell: (k) => {
          const s = slots[k]!;
          if (s < 0) {
            size.bytes += 8;
            return null;
          }
          size.bytes += sizes[s]!;
          return dict[s]!;
        },
      };
    return {
      converts,
      cell: (k) => {
        const s = slots[k]!;
        const code = s < 0 ? -1 : codes[s]!;
        if (code < 0) {
          size.bytes += 8;
          return null;
        }
        size.bytes += sizes[code]!;
        return dict[code]!;
      },
    };
  }
  const { values, nulls } = c;
  const int = c.kind === 'int';
  return {
    converts: int,
    cell: (k) => {
      const s = slots[k]!;
      if (s < 0 || (nulls && nulls[s] !== 0)) {
        size.bytes += 8;
        return null;
      }
      size.bytes += int ? 32 : 16;
      return int ? integerOf(values[s]!) : values[s]!;
    },
  };
}

/**
 * Whether reading `slots` in order would jump about a large column (an expansion's far ends): then the cells
 * are read in slot order (inSlotOrder). Only when they are many for the column's size: the sort walks it.
 */
function scattered(slots: ArrayLike<number>, n: number, size: number): boolean {
  if (n < 4096 || n * 8 < size) return false;
  for (let k = 1; k < n; k++) if (slots[k]! < slots[k - 1]!) return true;
  return false;
}

/**
 * A dictionary column's cells at `slots`, read in increasing slot order (a counting sort of the rows by slot),
 * so that its codes, values and sizes are read in passes over memory, not at random: a cache miss per cell
 * made most of the cost of projecting a far end's name.
 */
function inSlotOrder(
  c: Extract<Column, { kind: 'dict' }>,
  slots: ArrayLike<number>,
  n: number,
  size: { bytes: number },
): Value[] {
  const { codes, dict } = c;
  const sizes = measuredDictionary(dict).sizes;
  // Slot -1 (no far end) sorts first, as slot 0 of a space shifted by one.
  const starts = new Int32Array(codes.length + 2);
  for (let k = 0; k < n; k++) starts[slots[k]! + 2] = starts[slots[k]! + 2]! + 1;
  for (let i = 2; i < starts.length; i++) starts[i] = starts[i]! + starts[i - 1]!;
  const order = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const at = slots[k]! + 1;
    order[starts[at]!] = k;
    starts[at] = starts[at]! + 1;
  }
  const values: Value[] = new Array(n);
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const k = order[i]!;
    const s = slots[k]!;
    const code = s < 0 ? -1 : codes[s]!;
    if (code < 0) {
      bytes += 8;
      values[k] = null;
    } else {
      bytes += sizes[code]!;
      values[k] = dict[code]!;
    }
  }
  size.bytes += bytes;
  return values;
}

// Whether a dictionary column's codes are 0, 1, 2 …: found once per codes array.
const identities = new WeakMap<ArrayLike<number>, boolean>();

function identity(codes: ArrayLike<number>): boolean {
  let known = identities.get(codes);
  if (known === undefined) {
    known = true;
    for (let i = 0; i < codes.length; i++) {
      if (codes[i] !== i) {
        known = false;
        break;
      }
    }
    identities.set(codes, known);
  }
  return known;
}

// Per dictionary, its values' sizes by code: a dictionary is made once per column and kept with it.
const dictionaries = new WeakMap<readonly Value[], { sizes: Int32Array; converts: boolean }>();

function measuredDictionary(dict: readonly Value[]): { sizes: Int32Array; converts: boolean } {
  let m = dictionaries.get(dict);
  if (!m) {
    const sizes = new Int32Array(dict.length);
    let converts = false;
    for (let i = 0; i < dict.length; i++) {
      const v = dict[i]!;
      sizes[i] = valueBytes(v);
      if (v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') converts = true;
    }
    m = { sizes, converts };
    dictionaries.set(dict, m);
  }
  return m;
}

/** Row k is `[columns[0] at slots[0][k], columns[1] at slots[1][k], …]`, for k in 0 … n-1, measured. */
export function columnRows(columns: readonly Column[], slots: readonly ArrayLike<number>[], n: number): MeasuredRows {
  const size = { bytes: 32 * n };
  const cells = columns.map((c, j) => cellsOf(c, slots[j]!, n, size));
  const rows = tupleRows(
    cells.map((c) => c.cell),
    n,
  );
  const convert = cells.flatMap((c, j) => (c.converts ? [j] : []));
  return new MeasuredRows(rows, size.bytes, convert);
}

/** Row k of the result is `[cells[0](k), cells[1](k), …]`, for k in 0 … n-1. */
function tupleRows(cells: readonly ((k: number) => Value)[], n: number): Value[][] {
  const out: Value[][] = new Array(n);
  const [a, b, c, d] = cells;
  switch (cells.length) {
    case 1:
      for (let k = 0; k < n; k++) out[k] = [a!(k)];
      return out;
    case 2:
      for (let k = 0; k < n; k++) out[k] = [a!(k), b!(k)];
      return out;
    case 3:
      for (let k = 0; k < n; k++) out[k] = [a!(k), b!(k), c!(k)];
      return out;
    case 4:
      for (let k = 0; k < n; k++) out[k] = [a!(k), b!(k), c!(k), d!(k)];
      return out;
  }
  const w = cells.length;
  for (let k = 0; k < n; k++) {
    const row: Value[] = new Array(w);
    for (let j = 0; j < w; j++) row[j] = cells[j]!(k);
    out[k] = row;
  }
  return out;
}

/** Pairs of slots, appended in order: two growable Int32Arrays (no boxed element per pair). */
export class SlotPairs {
  from = new Int32Array(1024);
  to = new Int32Array(1024);
  length = 0;

  push(s: number, t: number): void {
    if (this.length === this.from.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.from = grow(this.from);
      this.to = grow(this.to);
    }
    this.from[this.length] = s;
    this.to[this.length++] = t;
  }
}
