// The rows of an OPTIONAL MATCH of one hop from a column scan (optional-columns.ts), made in one pass over the
// scanned nodes and their adjacency when every far end's column is kept along it (far-columns.ts). A node's own
// cells are read once, into its first row, and copied into the node's other rows; a far end's cells are read next
// to the adjacency. Each row is made once, with its cells: no slot pairs first, no blank row copied per row, and
// no pass per column over the rows already made (columnRows, tuples.ts). At a million claims, `MATCH (n:Drug)
// WHERE n.claim_count > 12 OPTIONAL MATCH (n)<--(o:Disease) RETURN n.name, n.claim_count, o.name` (35,657 rows)
// went from a median of 2.94 to 2.48 ms, alternated in one process (its base, the scan alone: 1.03 ms). The loop
// is a function of its own, called per block of nodes, and the setup has no callbacks: inlined before they had
// run, they left the optimised code deoptimising on every call (--trace-deopt).
// Rows are made by the Array constructor with a constant length, not as literals: a literal's allocation site
// learns that its rows outlive a young collection and then makes them in the old generation (tuples.ts,
// blankRows); measured with rows kept alive across collections, the constructor's stayed young and as fast.
import type { Column } from '../columns.js';
import type { Value } from '../values.js';
import { integerOf } from './columnar.js';
import type { AlongAdjacency } from './far-columns.js';
import { joinRows, MeasuredRows, measuredDictionary } from './tuples.js';

/** A result column read at the scanned node's slot. */
export interface NodeCell {
  col: number;
  column: Column;
}

/** A result column read along the adjacency, at the far end's position (null where the node has none). */
export interface FarCell {
  col: number;
  along: AlongAdjacency;
}

/**
 * The rows for the nodes `sel` (slots, in order) and their far ends `far[offsets[s]] … far[offsets[s + 1] - 1]`
 * (none for a slot at or past `offsets.length - 1`): a row per far end, or one with nulls for a node with none,
 * measured as columnRows measures them. `numbers`: an INTEGER cell is written as the number it is.
 */
export function optionalRows(
  sel: ArrayLike<number>,
  offsets: Int32Array,
  nodeCells: readonly NodeCell[],
  farCells: readonly FarCell[],
  width: number,
  numbers: boolean,
  tick: (work: number) => void,
): MeasuredRows {
  const n = rowCount(sel, 0, sel.length, offsets);
  // Per node column: its kind, and the arrays a cell is read from (a switch per cell, no call). Plain loops, no
  // callbacks: a callback inlined into the loop below before it had run (a query without node columns) left the
  // optimised code deoptimising on every later call (--trace-deopt).
  const h = nodeCells.length;
  const nodes: NodeColumns = {
    cols: new Int32Array(h),
    kinds: new Int32Array(h),
    codes: new Array(h),
    dicts: new Array(h),
    sizes: new Array(h),
    values: new Array(h),
    nulls: new Array(h),
    numberSizes: new Int32Array(h),
  };
  const convert: number[] = [];
  for (let i = 0; i < h; i++) {
    const { col, column: c } = nodeCells[i]!;
    nodes.cols[i] = col;
    if (c.kind === 'dict') {
      const m = measuredDictionary(c.dict);
      nodes.kinds[i] = DICT;
      nodes.codes[i] = c.codes;
      nodes.dicts[i] = c.dict;
      nodes.sizes[i] = m.sizes;
      nodes.values[i] = EMPTY;
      if (m.converts) convert.push(col);
    } else {
      nodes.kinds[i] = c.kind === 'int' && !numbers ? BIGINT : NUMBER;
      nodes.codes[i] = EMPTY;
      nodes.dicts[i] = NONE;
      nodes.sizes[i] = EMPTY;
      nodes.values[i] = c.values;
      nodes.nulls[i] = c.nulls;
      // An INTEGER counts 32 bytes whether or not it is written as a number (tuples.ts, fillCells).
      nodes.numberSizes[i] = c.kind === 'int' ? 32 : 16;
      if (nodes.kinds[i] === BIGINT) convert.push(col);
    }
  }
  const f = farCells.length;
  const fars: FarColumns = { cols: new Int32Array(f), values: new Array(f), sizes: new Array(f) };
  for (let i = 0; i < f; i++) {
    const { col, along } = farCells[i]!;
    fars.cols[i] = col;
    fars.values[i] = along.values;
    fars.sizes[i] = along.sizes;
    if (along.converts) convert.push(col);
  }
  let bytes = 32 * n;
  // A block of nodes at a time, so that the budget's deadline is still checked within a long scan; each block's
  // rows in an array of their own, joined at the end (joinRows says why).
  const chunks: Value[][][] = [];
  for (let i = 0; i < sel.length; i += 1024) {
    const stop = Math.min(sel.length, i + 1024);
    const rows: Value[][] = new Array(rowCount(sel, i, stop, offsets));
    const block = fillRows(sel, i, stop, offsets, nodes, fars, width, rows, 0);
    chunks.push(rows);
    bytes += block.bytes;
    tick(stop - i + block.k);
  }
  return new MeasuredRows(
    joinRows(chunks, n),
    bytes,
    convert.sort((a, b) => a - b),
  );
}

/** How many rows the nodes sel[from] … sel[to - 1] make: a row per far end, one for a node with none. */
function rowCount(sel: ArrayLike<number>, from: number, to: number, offsets: Int32Array): number {
  const last = offsets.length - 1;
  let n = 0;
  for (let i = from; i < to; i++) {
    const s = sel[i]!;
    const degree = s < last ? offsets[s + 1]! - offsets[s]! : 0;
    n += degree > 0 ? degree : 1;
  }
  return n;
}

interface NodeColumns {
  cols: Int32Array;
  kinds: Int32Array;
  codes: ArrayLike<number>[];
  dicts: (readonly Value[])[];
  sizes: Int32Array[];
  values: ArrayLike<number>[];
  nulls: (ArrayLike<number> | undefined)[];
  numberSizes: Int32Array;
}

interface FarColumns {
  cols: Int32Array;
  values: Value[][];
  sizes: Int32Array[];
}

/** The rows of the nodes sel[i] … sel[stop - 1], from row k on: the row after them and their bytes. */
function fillRows(
  sel: ArrayLike<number>,
  i: number,
  stop: number,
  offsets: Int32Array,
  nodes: NodeColumns,
  fars: FarColumns,
  width: number,
  rows: Value[][],
  k: number,
): { k: number; bytes: number } {
  const last = offsets.length - 1;
  const nodeCount = nodes.cols.length;
  const farCount = fars.cols.length;
  let bytes = 0;
  for (; i < stop; i++) {
    const s = sel[i]!;
    const first = blank(width);
    let nodeBytes = 0;
    for (let h = 0; h < nodeCount; h++) {
      const col = nodes.cols[h]!;
      if (nodes.kinds[h] === DICT) {
        const code = nodes.codes[h]![s]!;
        first[col] = code < 0 ? null : nodes.dicts[h]![code]!;
        nodeBytes += code < 0 ? 8 : nodes.sizes[h]![code]!;
        continue;
      }
      const nulls = nodes.nulls[h];
      if (nulls !== undefined && nulls[s] !== 0) {
        nodeBytes += 8;
        continue;
      }
      const v = nodes.values[h]![s]!;
      first[col] = nodes.kinds[h] === BIGINT ? integerOf(v) : v;
      nodeBytes += nodes.numberSizes[h]!;
    }
    const start = s < last ? offsets[s]! : 0;
    const end = s < last ? offsets[s + 1]! : 0;
    if (start === end) {
      // The far cells stay null.
      bytes += nodeBytes + 8 * farCount;
      rows[k++] = first;
      continue;
    }
    for (let j = start; j < end; j++) {
      let row = first;
      if (j > start) {
        row = blank(width);
        for (let h = 0; h < nodeCount; h++) row[nodes.cols[h]!] = first[nodes.cols[h]!]!;
      }
      for (let g = 0; g < farCount; g++) {
        row[fars.cols[g]!] = fars.values[g]![j]!;
        bytes += fars.sizes[g]![j]!;
      }
      bytes += nodeBytes;
      rows[k++] = row;
    }
  }
  return { k, bytes };
}

const DICT = 0;
const BIGINT = 1;
const NUMBER = 2;
const EMPTY = new Int32Array(0);
const NONE: readonly Value[] = [];

/**
 * A row of `width` nulls, to be written over. The Array constructor with a constant length is made inline by the
 * optimising compiler (with a variable one it is a call); the nulls give every row the one elements kind a row
 * ends with, so no store of a cell changes a row's map: rows made empty took a string, a number or a null first
 * as the columns came, and the code over them was deoptimised again and again ("wrong map", --trace-deopt).
 */
function blank(width: number): Value[] {
  switch (width) {
    case 1:
      return nulled(new Array(1));
    case 2:
      return nulled(new Array(2));
    case 3:
      return nulled(new Array(3));
    case 4:
      return nulled(new Array(4));
    default:
      return new Array(width).fill(null);
  }
}

function nulled(row: Value[]): Value[] {
  for (let i = 0; i < row.length; i++) row[i] = null;
  return row;
}
