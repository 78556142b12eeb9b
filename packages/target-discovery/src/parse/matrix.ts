// Expression matrix parsing: a header row, ids in the first column, numbers in every other cell.
// Orientation (features x samples or samples x features) is decided later against the metadata ids.
import { TargetDiscoveryInputError } from '../errors.js';
import { cellAt, detectDelimiter, isNaToken, parseRows, stripBom } from './text.js';

const FIELD = 'expression_matrix';

/** The table as written: rowIds from the first column, colIds from the header, values row-major. */
export interface RawTable {
  rowIds: string[];
  colIds: string[];
  values: Float64Array;
  missing: number;
  delimiter: string;
}

export function parseNumericTable(text: string, field = FIELD): RawTable {
  const clean = stripBom(text);
  const delimiter = detectDelimiter(clean);
  // Files without quotes take a fast path that never builds per-cell strings arrays for the whole file.
  return clean.includes('"')
    ? fromRows(parseRows(clean, field, delimiter), field, delimiter)
    : fastParse(clean, field, delimiter);
}

function fastParse(text: string, field: string, delimiter: string): RawTable {
  let pos = 0;
  const len = text.length;
  const nextLine = (): string | undefined => {
    while (pos < len) {
      let end = text.indexOf('\n', pos);
      if (end === -1) end = len;
      let line = text.slice(pos, end);
      pos = end + 1;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line.trim() !== '') return line;
    }
    return undefined;
  };
  const headerLine = nextLine();
  if (headerLine === undefined)
    throw new TargetDiscoveryInputError('unparsable_csv', field, `${field} has no header row`);
  const header = headerLine.split(delimiter).map((s) => s.trim());
  const colIds = header.slice(1);
  const nc = colIds.length;
  if (nc === 0)
    throw new TargetDiscoveryInputError(
      'unparsable_csv',
      field,
      `${field} has a single column; expected ids then one column per sample (comma- or tab-separated)`,
    );
  // Estimate rows from newlines to size the buffer once.
  let cap = 16;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) cap++;
  let values = new Float64Array(cap * nc);
  const rowIds: string[] = [];
  let missing = 0;
  let lineNo = 1;
  for (let line = nextLine(); line !== undefined; line = nextLine()) {
    lineNo++;
    const r = rowIds.length;
    if ((r + 1) * nc > values.length) {
      const bigger = new Float64Array(values.length * 2);
      bigger.set(values);
      values = bigger;
    }
    let start = 0;
    let c = -1;
    let rowId = '';
    const base = r * nc;
    for (;;) {
      let end = line.indexOf(delimiter, start);
      const last = end === -1;
      if (last) end = line.length;
      const cell = line.slice(start, end).trim();
      if (c === -1) {
        rowId = cell;
        rowIds.push(cell);
      } else if (c < nc) {
        const v = toNumber(cell, field, lineNo, rowId, colIds[c]!);
        if (Number.isNaN(v)) missing++;
        values[base + c] = v;
      }
      c++;
      if (last) break;
      start = end + 1;
    }
    if (c !== nc) {
      throw new TargetDiscoveryInputError(
        'unparsable_csv',
        field,
        `${field} line ${lineNo} has ${c + 1} fields but the header has ${nc + 1}`,
      );
    }
  }
  return { rowIds, colIds, values: values.slice(0, rowIds.length * nc), missing, delimiter };
}

function fromRows(rows: string[][], field: string, delimiter: string): RawTable {
  if (rows.length === 0) throw new TargetDiscoveryInputError('unparsable_csv', field, `${field} has no header row`);
  const [header = [], ...body] = rows; // rows.length >= 1: the default is never used
  const colIds = header.slice(1);
  const nc = colIds.length;
  if (nc === 0)
    throw new TargetDiscoveryInputError(
      'unparsable_csv',
      field,
      `${field} has a single column; expected ids then one column per sample`,
    );
  const values = new Float64Array(body.length * nc);
  const rowIds: string[] = [];
  let missing = 0;
  for (const [r, row] of body.entries()) {
    const line = r + 2;
    const rowId = cellAt(row, 0, field, line);
    rowIds.push(rowId);
    for (const [c, colId] of colIds.entries()) {
      const v = toNumber(cellAt(row, c + 1, field, line), field, line, rowId, colId);
      if (Number.isNaN(v)) missing++;
      values[r * nc + c] = v;
    }
  }
  return { rowIds, colIds, values, missing, delimiter };
}

function toNumber(cell: string, field: string, line: number, rowId: string, colId: string): number {
  if (isNaToken(cell)) return NaN;
  const v = Number(cell);
  if (!Number.isFinite(v) || cell.startsWith('0x') || cell.startsWith('0X')) {
    const shown = cell.length > 40 ? `${cell.slice(0, 40)}...` : cell;
    throw new TargetDiscoveryInputError(
      'non_numeric',
      field,
      `${field} has a non-numeric value "${shown}" at line ${line} (row "${rowId}", column "${colId}"); use NA or an empty cell for missing values`,
    );
  }
  return v;
}
