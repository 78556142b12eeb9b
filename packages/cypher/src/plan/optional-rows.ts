// The rows of an OPTIONAL MATCH of one hop from a column scan (optional-columns.ts), made in one pass over the
// scanned nodes and their adjacency when every far end's column is kept along it (far-columns.ts). A node's own
// cells are read once, into its first row, and copied into the node's other rows; a far end's cells are read next
// to the adjacency. Each row is made once, with its cells: no slot pairs first, no blank row copied per row, and
// no pass per column over the rows already made (columnRows, tuples.ts). At a million claims, `MATCH (n:Drug)
// WHERE n.claim_count > 12 OPTIONAL MATCH (n)<--(o:Disease) RETURN n.name, n.claim_count, o.name` (35,657 rows)
// went from a median of 2.87 to 2.58 ms, alternated in one process (its base, the scan alone: 1.03 ms).
// Rows are made by the Array constructor with a constant length, not as literals: a literal's allocation site
// learns that its rows outlive a young collection and then makes them in the old generation (tuples.ts,
// blankRows); measured with rows kept alive across collections, the constructor's stayed young and as fast.
import type { Column } from '../columns.js';
import type { Value } from '../values.js';
import { integerOf } from './columnar.js';
import type { AlongAdjacency } from './far-columns.js';
import { MeasuredRows, measuredDictionary } from './tuples.js';

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
  const last = offsets.length - 1;
  let n = 0;
  for (let i = 0; i < sel.length; i++) {
    const s = sel[i]!;
    const degree = s < last ? offsets[s + 1]! - offsets[s]! : 0;
    n += degree > 0 ? degree : 1;
  }
  const rows: Value[][] = new Array(n);
  // Per node column: its kind, and the arrays a cell is read from (a switch per cell, no call).
  const kinds = Int32Array.from(nodeCells, ({ column: c }) =>
    c.kind === 'dict' ? DICT : c.kind === 'int' && !numbers ? BIGINT : NUMBER,
  );
  const codes = nodeCells.map(({ column: c }) => (c.kind === 'dict' ? c.codes : EMPTY));
  const dicts = nodeCells.map(({ column: c }) => (c.kind === 'dict' ? c.dict : []));
  const sizes = nodeCells.map(({ column: c }) => (c.kind === 'dict' ? measuredDictionary(c.dict).sizes : EMPTY));
  const values = nodeCells.map(({ column: c }) => (c.kind === 'dict' ? EMPTY : c.values));
  const nullsOf = nodeCells.map(({ column: c }) => (c.kind === 'dict' ? undefined : c.nulls));
  // An INTEGER counts 32 bytes whether or not it is written as a number (tuples.ts, fillCells).
  const numberSizes = Int32Array.from(nodeCells, ({ column: c }) => (c.kind === 'int' ? 32 : 16));
  const nodeCols = Int32Array.from(nodeCells, (c) => c.col);
  const farCols = Int32Array.from(farCells, (c) => c.col);
  const farValues = farCells.map((c) => c.along.values);
  const farSizes = farCells.map((c) => c.along.sizes);
  const nodeCount = nodeCols.length;
  const farCount = farCols.length;
  let bytes = 32 * n;
  let k = 0;
  for (let i = 0; i < sel.length; ) {
    // A block of nodes at a time, so that the budget's deadline is still checked within a long scan.
    const stop = Math.min(sel.length, i + 1024);
    const nodes = stop - i;
    const before = k;
    for (; i < stop; i++) {
      const s = sel[i]!;
      const first = blank(width);
      let nodeBytes = 0;
      for (let h = 0; h < nodeCount; h++) {
        const col = nodeCols[h]!;
        switch (kinds[h]) {
          case DICT: {
            const code = codes[h]![s]!;
            first[col] = code < 0 ? null : dicts[h]![code]!;
            nodeBytes += code < 0 ? 8 : sizes[h]![code]!;
            break;
          }
          default: {
            const nulls = nullsOf[h];
            if (nulls !== undefined && nulls[s] !== 0) {
              first[col] = null;
              nodeBytes += 8;
            } else {
              const v = values[h]![s]!;
              first[col] = kinds[h] === BIGINT ? integerOf(v) : v;
              nodeBytes += numberSizes[h]!;
            }
          }
        }
      }
      const start = s < last ? offsets[s]! : 0;
      const end = s < last ? offsets[s + 1]! : 0;
      if (start === end) {
        for (let f = 0; f < farCount; f++) first[farCols[f]!] = null;
        bytes += nodeBytes + 8 * farCount;
        rows[k++] = first;
        continue;
      }
      for (let j = start; j < end; j++) {
        let row = first;
        if (j > start) {
          row = blank(width);
          for (let h = 0; h < nodeCount; h++) row[nodeCols[h]!] = first[nodeCols[h]!]!;
        }
        for (let f = 0; f < farCount; f++) {
          row[farCols[f]!] = farValues[f]![j]!;
          bytes += farSizes[f]![j]!;
        }
        bytes += nodeBytes;
        rows[k++] = row;
      }
    }
    tick(nodes + k - before);
  }
  const convert: number[] = [];
  nodeCells.forEach(({ col, column: c }, h) => {
    if (kinds[h] === BIGINT || (c.kind === 'dict' && measuredDictionary(c.dict).converts)) convert.push(col);
  });
  farCells.forEach((c) => {
    if (c.along.converts) convert.push(c.col);
  });
  return new MeasuredRows(
    rows,
    bytes,
    convert.sort((a, b) => a - b),
  );
}

const DICT = 0;
const BIGINT = 1;
const NUMBER = 2;
const EMPTY = new Int32Array(0);

/**
 * A row of `width` cells, all to be written: the Array constructor with a constant length is made inline by the
 * optimising compiler; with a variable one it is a call.
 */
function blank(width: number): Value[] {
  switch (width) {
    case 1:
      return new Array(1);
    case 2:
      return new Array(2);
    case 3:
      return new Array(3);
    case 4:
      return new Array(4);
    default:
      return new Array(width);
  }
}
