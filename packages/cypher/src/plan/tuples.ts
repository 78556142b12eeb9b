// Result rows made straight from node columns, measured as they are made. Costs per row avoided:
// - the engine's pretenuring of a row literal's allocation site (see blankRows): each row is a copy of a scratch row;
// - no call per cell: each column's cells are written into the rows a column at a time, by a loop of its kind
//   (fillCells);
// - the engine's result loop would read every string cell again for its size (a cache miss per cell when the
//   slots are scattered, as an expansion's far ends are): a dictionary column's sizes are kept per code, and
//   the rows come with their total, so the engine counts them at once (MeasuredRows).
import { valueBytes } from '../budget.js';
import type { Column } from '../columns.js';
import type { Value } from '../values.js';
import { integerOf } from './columnar.js';
import type { AlongAdjacency } from './far-columns.js';
import { borrowInt32, giveBack } from './lent-arrays.js';

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

/**
 * What a result column reads: a column at slots (`slots[k]` for the k-th row, null where negative), or a far
 * end's column along an adjacency (far-columns.ts) at adjacency positions (`at[k]`, null where negative).
 */
export type ColumnRead =
  | { column: Column; slots: ArrayLike<number> }
  | { along: AlongAdjacency; at: ArrayLike<number> };

/**
 * Writes the column's n cells to column `col` of `rows` (a column at a time, each kind its own loop with no call per cell: a row
 * loop calling a closure per cell saw a different closure per query and column, and the optimising compiler,
 * deoptimised by each new one, left it running several times slower in some processes), adds their bytes to
 * `size.bytes`, and says whether a cell may need the caller's conversion.
 */
function fillCells(
  read: ColumnRead,
  n: number,
  size: { bytes: number },
  numbers: boolean,
  rows: Value[][],
  col: number,
): boolean {
  if ('along' in read) {
    size.bytes += alongCells(read.along, read.at, n, rows, col);
    return read.along.converts;
  }
  const { column: c, slots } = read;
  if (c.kind === 'dict') {
    const { sizes, converts } = measuredDictionary(c.dict);
    if (scattered(slots, n, c.codes.length)) size.bytes += inSlotOrder(c, slots, n, rows, col);
    // A column of distinct values (names, ids) is coded in slot order: then the slot is the code, and a far
    // end's value and size are two independent reads, not three chained ones.
    else if (identity(c.codes)) size.bytes += identityCells(c.dict, sizes, slots, n, rows, col);
    else size.bytes += dictCells(c, sizes, slots, n, rows, col);
    return converts;
  }
  // An INTEGER as the caller's number (an int column holds safe integers): counted at its size as an INTEGER.
  const int = c.kind === 'int' && !numbers;
  size.bytes += int
    ? integerCells(c, slots, n, rows, col)
    : numberCells(c, slots, n, rows, col, c.kind === 'int' ? 32 : 16);
  return int;
}

// Deliberate likeness: the cell loops below differ only in how a cell is read; one loop per kind, so none branches
// on the kind (or calls a reader) per cell.
function alongCells(along: AlongAdjacency, at: ArrayLike<number>, n: number, rows: Value[][], col: number): number {
  const { values, sizes } = along;
  let bytes = 0;
  for (let k = 0; k < n; k++) {
    const j = at[k]!;
    if (j < 0) {
      bytes += 8;
      rows[k]![col] = null;
    } else {
      bytes += sizes[j]!;
      rows[k]![col] = values[j]!;
    }
  }
  return bytes;
}

function identityCells(
  dict: readonly Value[],
  sizes: Int32Array,
  slots: ArrayLike<number>,
  n: number,
  rows: Value[][],
  col: number,
): number {
  let bytes = 0;
  for (let k = 0; k < n; k++) {
    const s = slots[k]!;
    if (s < 0) {
      bytes += 8;
      rows[k]![col] = null;
    } else {
      bytes += sizes[s]!;
      rows[k]![col] = dict[s]!;
    }
  }
  return bytes;
}

function dictCells(
  c: Extract<Column, { kind: 'dict' }>,
  sizes: Int32Array,
  slots: ArrayLike<number>,
  n: number,
  rows: Value[][],
  col: number,
): number {
  const { codes, dict } = c;
  let bytes = 0;
  for (let k = 0; k < n; k++) {
    const s = slots[k]!;
    const code = s < 0 ? -1 : codes[s]!;
    if (code < 0) {
      bytes += 8;
      rows[k]![col] = null;
    } else {
      bytes += sizes[code]!;
      rows[k]![col] = dict[code]!;
    }
  }
  return bytes;
}

type NumberColumn = Extract<Column, { kind: 'int' | 'float' }>;

function integerCells(c: NumberColumn, slots: ArrayLike<number>, n: number, rows: Value[][], col: number): number {
  const { values, nulls } = c;
  let bytes = 0;
  for (let k = 0; k < n; k++) {
    const s = slots[k]!;
    if (s < 0 || (nulls && nulls[s] !== 0)) {
      bytes += 8;
      rows[k]![col] = null;
    } else {
      bytes += 32;
      rows[k]![col] = integerOf(values[s]!);
    }
  }
  return bytes;
}

function numberCells(
  c: NumberColumn,
  slots: ArrayLike<number>,
  n: number,
  rows: Value[][],
  col: number,
  size: number,
): number {
  const { values, nulls } = c;
  let bytes = 0;
  for (let k = 0; k < n; k++) {
    const s = slots[k]!;
    if (s < 0 || (nulls && nulls[s] !== 0)) {
      bytes += 8;
      rows[k]![col] = null;
    } else {
      bytes += size;
      rows[k]![col] = values[s]!;
    }
  }
  return bytes;
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
 * A dictionary column's cells at `slots`, read in slot order by blocks (the rows partitioned by their slot's
 * block of 2^shift slots, a counting sort on the block), so that its codes, values and sizes are read in passes
 * over memory, not at random: a cache miss per cell made most of the cost of projecting a far end's name. Blocks,
 * not slots: the counts then fit the fastest cache, and the slots of one block are a few lines of each array.
 */
function inSlotOrder(
  c: Extract<Column, { kind: 'dict' }>,
  slots: ArrayLike<number>,
  n: number,
  rows: Value[][],
  col: number,
): number {
  const { codes, dict } = c;
  const sizes = measuredDictionary(dict).sizes;
  let shift = 0;
  while (codes.length >>> shift > BLOCKS) shift++;
  // Slot -1 (no far end) goes in block 0, the others one block up.
  const starts = new Int32Array((codes.length >>> shift) + 3);
  for (let k = 0; k < n; k++) {
    const b = slots[k]! < 0 ? 0 : (slots[k]! >>> shift) + 1;
    starts[b + 1] = starts[b + 1]! + 1;
  }
  for (let i = 1; i < starts.length; i++) starts[i] = starts[i]! + starts[i - 1]!;
  // Borrowed (lent-arrays.ts): read only here.
  const order = borrowInt32(n);
  for (let k = 0; k < n; k++) {
    const b = slots[k]! < 0 ? 0 : (slots[k]! >>> shift) + 1;
    order[starts[b]!] = k;
    starts[b] = starts[b]! + 1;
  }
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const k = order[i]!;
    const s = slots[k]!;
    const code = s < 0 ? -1 : codes[s]!;
    if (code < 0) {
      bytes += 8;
      rows[k]![col] = null;
    } else {
      bytes += sizes[code]!;
      rows[k]![col] = dict[code]!;
    }
  }
  giveBack(order);
  return bytes;
}

/** Blocks of slots at most (inSlotOrder): their counts fit a first-level cache. */
const BLOCKS = 2048;

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

export function measuredDictionary(dict: readonly Value[]): { sizes: Int32Array; converts: boolean } {
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

/**
 * Row k is `[the k-th cell of reads[0], of reads[1], …]`, for k in 0 … n-1, measured. `numbers`: an integer
 * column's cells are written as the numbers they are (EvalContext.integersAsNumbers).
 */
export function columnRows(reads: readonly ColumnRead[], n: number, numbers = false): MeasuredRows {
  const size = { bytes: 32 * n };
  // The rows first, then each column written into them: no array of a column's cells in between (one write and
  // one read fewer per cell, and nothing to clear after).
  const rows = blankRows(reads.length, n);
  const convert: number[] = [];
  reads.forEach((r, j) => {
    if (fillCells(r, n, size, numbers, rows, j)) convert.push(j);
  });
  return new MeasuredRows(rows, size.bytes, convert);
}

/**
 * Puts rows in result order in place: row k becomes the row at `order[k]` (a permutation, used up: each entry is
 * set to -1 once its row is placed). Each cycle of the permutation is followed once, so only pointers move.
 */
export function permuteRows(rows: Value[][], order: Int32Array): void {
  for (let i = 0; i < order.length; i++) {
    if (order[i]! < 0) continue;
    const first = rows[i]!;
    let j = i;
    for (;;) {
      const from = order[j]!;
      order[j] = -1;
      if (from === i) {
        rows[j] = first;
        break;
      }
      rows[j] = rows[from]!;
      j = from;
    }
  }
}

/**
 * n rows of `w` nulls. Each row is a copy (slice) of one scratch row, not an array literal: a literal's allocation
 * site learns that its arrays outlive a young-generation collection (they are the result) and the engine then
 * allocates them in the old generation, where tens of thousands of rows per query made full collections several
 * times as frequent and queries 4-5x slower, for as long as the decision held (seen in some processes of the
 * Cypher benchmark; none with pretenuring off). The rows are made in chunks and joined at the end (joinRows).
 */
function blankRows(w: number, n: number): Value[][] {
  const row: Value[] = new Array(w).fill(null);
  const chunks: Value[][][] = [];
  for (let from = 0; from < n; from += ROW_CHUNK) {
    const m = Math.min(ROW_CHUNK, n - from);
    const chunk: Value[][] = new Array(m);
    for (let k = 0; k < m; k++) chunk[k] = row.slice();
    chunks.push(chunk);
  }
  return joinRows(chunks, n);
}

/** Rows a chunk holds while a result is made (joinRows): an array of them stays in the young generation. */
export const ROW_CHUNK = 4096;

/**
 * The chunks' rows (n in all) in one array, made last. An array of more than about 16,000 elements is a large
 * object (its own pages, fresh each time), and one made first and filled while its rows are made is live at the
 * young collections the rows set off: it moves to the old generation and holds its rows there, which every
 * later collection then copies. Made last, nothing is allocated while it fills. Measured on plain arrays: 35,657
 * rows of three cells took 0.91-1.21 ms made this way and 1.44-1.87 ms into one array made first; 18,740 rows of
 * two, 0.36-0.56 against 0.48-0.59 ms.
 */
export function joinRows(chunks: readonly Value[][][], n: number): Value[][] {
  if (chunks.length === 1 && chunks[0]!.length === n) return chunks[0]!;
  const out: Value[][] = new Array(n);
  let at = 0;
  for (const chunk of chunks) {
    for (let k = 0; k < chunk.length && at < n; k++) out[at++] = chunk[k]!;
  }
  return out;
}

/**
 * Pairs of slots, appended in order, with the adjacency position each came from (-1: none, or no adjacency):
 * growable Int32Arrays, no boxed element per pair.
 */
export class SlotPairs {
  from = new Int32Array(1024);
  to = new Int32Array(1024);
  at = new Int32Array(1024);
  length = 0;

  /**
   * One set of arrays reused by every query on this thread, emptied: for pairs made and read within one
   * synchronous call. Arrays made per query were garbage the collector was set off by (external memory).
   */
  static scratch(): SlotPairs {
    shared.length = 0;
    return shared;
  }

  /** Room for `n` pairs in all (the arrays at least doubled when they grow). */
  reserve(n: number): void {
    if (n <= this.from.length) return;
    const size = Math.max(n, this.from.length * 2);
    const grow = (a: Int32Array) => {
      const b = new Int32Array(size);
      b.set(a.subarray(0, this.length));
      return b;
    };
    this.from = grow(this.from);
    this.to = grow(this.to);
    this.at = grow(this.at);
  }

  push(s: number, t: number, j: number): void {
    if (this.length === this.from.length) this.reserve(this.length + 1);
    this.from[this.length] = s;
    this.to[this.length] = t;
    this.at[this.length++] = j;
  }
}

const shared = new SlotPairs();
