// Expression matrix parsing: a header row, ids in the first column, numbers in every other cell except the
// named annotation columns (options.annotation_columns), which are kept as text.
// Orientation (features x samples or samples x features) is decided later against the metadata ids.
import { TargetDiscoveryInputError } from '../errors.js';
import { ANNOTATION_COLUMNS } from './annotation.js';
import { cellAt, detectDelimiter, isNaToken, parseRows, stripBom } from './text.js';

const FIELD = 'expression_matrix';

/** The table as written: rowIds from the first column, colIds from the header, values row-major. */
export interface RawTable {
  rowIds: string[];
  colIds: string[];
  values: Float64Array;
  missing: number;
  delimiter: string;
  /** The annotation columns asked for, by name: one text value per row. Empty when none were named. */
  text: Map<string, string[]>;
}

/**
 * Where each header column goes: slot[c] >= 0 is a value column, -1 - k the k-th text column. The names in
 * `textColumns` must be header columns other than the first (the row ids).
 */
function columnSlots(header: readonly string[], textColumns: readonly string[]) {
  for (const name of textColumns) {
    const at = header.indexOf(name);
    if (at === -1)
      throw new TargetDiscoveryInputError(
        'missing_column',
        ANNOTATION_COLUMNS,
        `the expression matrix has no column "${name}" (header: ${header.slice(0, 8).join(', ')}${header.length > 8 ? ', ...' : ''})`,
      );
    if (at === 0)
      throw new TargetDiscoveryInputError(
        'bad_option',
        ANNOTATION_COLUMNS,
        `"${name}" is the matrix's first column (the feature ids); annotation_columns names other columns`,
      );
  }
  const slot = new Int32Array(Math.max(0, header.length - 1));
  const colIds: string[] = [];
  const textNames: string[] = [];
  header.slice(1).forEach((h, c) => {
    if (textColumns.includes(h)) {
      slot[c] = -1 - textNames.length;
      textNames.push(h);
    } else {
      slot[c] = colIds.length;
      colIds.push(h);
    }
  });
  return { slot, colIds, textNames };
}

export function parseNumericTable(text: string, field = FIELD, textColumns: readonly string[] = []): RawTable {
  const clean = stripBom(text);
  const delimiter = detectDelimiter(clean);
  // Files without quotes take a fast path that never builds per-cell strings arrays for the whole file.
  return clean.includes('"')
    ? fromRows(parseRows(clean, field, delimiter), field, delimiter, textColumns)
    : fastParse(clean, field, delimiter, textColumns);
}

function fastParse(text: string, field: string, delimiter: string, textColumns: readonly string[]): RawTable {
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
  const { slot, colIds, textNames } = columnSlots(header, textColumns);
  const nh = header.length - 1; // fields after the id
  const nc = colIds.length;
  if (nc === 0)
    throw new TargetDiscoveryInputError(
      'unparsable_csv',
      field,
      `${field} has no sample column; expected ids then one column per sample (comma- or tab-separated)`,
    );
  const texts = textNames.map((): string[] => []);
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
      } else if (c < nh) {
        const at = slot[c]!;
        if (at < 0) texts[-1 - at]!.push(cell);
        else {
          const v = toNumber(cell, field, lineNo, rowId, colIds[at]!);
          if (Number.isNaN(v)) missing++;
          values[base + at] = v;
        }
      }
      c++;
      if (last) break;
      start = end + 1;
    }
    if (c !== nh) {
      throw new TargetDiscoveryInputError(
        'unparsable_csv',
        field,
        `${field} line ${lineNo} has ${c + 1} fields but the header has ${nh + 1}`,
      );
    }
  }
  const textByName = new Map(textNames.map((name, k) => [name, texts[k]!]));
  return { rowIds, colIds, values: values.slice(0, rowIds.length * nc), missing, delimiter, text: textByName };
}

function fromRows(rows: string[][], field: string, delimiter: string, textColumns: readonly string[]): RawTable {
  if (rows.length === 0) throw new TargetDiscoveryInputError('unparsable_csv', field, `${field} has no header row`);
  const [header = [], ...body] = rows; // rows.length >= 1: the default is never used
  const { slot, colIds, textNames } = columnSlots(header, textColumns);
  const nc = colIds.length;
  if (nc === 0)
    throw new TargetDiscoveryInputError(
      'unparsable_csv',
      field,
      `${field} has no sample column; expected ids then one column per sample`,
    );
  const values = new Float64Array(body.length * nc);
  const texts = textNames.map((): string[] => []);
  const rowIds: string[] = [];
  let missing = 0;
  for (const [r, row] of body.entries()) {
    const line = r + 2;
    const rowId = cellAt(row, 0, field, line);
    rowIds.push(rowId);
    for (let c = 0; c < slot.length; c++) {
      const cell = cellAt(row, c + 1, field, line);
      const at = slot[c]!;
      if (at < 0) {
        texts[-1 - at]!.push(cell);
        continue;
      }
      const v = toNumber(cell, field, line, rowId, colIds[at]!);
      if (Number.isNaN(v)) missing++;
      values[r * nc + at] = v;
    }
  }
  const text = new Map(textNames.map((name, k) => [name, texts[k]!]));
  return { rowIds, colIds, values, missing, delimiter, text };
}

function toNumber(cell: string, field: string, line: number, rowId: string, colId: string): number {
  if (isNaToken(cell)) return NaN;
  const v = Number(cell);
  if (!Number.isFinite(v) || cell.startsWith('0x') || cell.startsWith('0X')) {
    const shown = cell.length > 40 ? `${cell.slice(0, 40)}...` : cell;
    throw new TargetDiscoveryInputError(
      'non_numeric',
      field,
      `${field} has a non-numeric value "${shown}" at line ${line} (row "${rowId}", column "${colId}"); use NA or an empty cell for missing values, and name a gene-annotation column in options.annotation_columns`,
    );
  }
  return v;
}
