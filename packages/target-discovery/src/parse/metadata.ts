// Sample metadata: one row per sample, a sample id column and the condition (plus optional covariates).
import { TargetDiscoveryInputError } from '../errors.js';
import { cellAt, parseRows } from './text.js';

const FIELD = 'metadata';
const ID_NAMES = ['sample', 'sample_id', 'sampleid', 'sample_name', 'id'];

export interface Metadata {
  idColumn: string;
  columns: string[];
  sampleIds: string[];
  /** column name -> values aligned with sampleIds */
  values: Map<string, string[]>;
}

export function parseMetadata(text: string): Metadata {
  const rows = parseRows(text, FIELD);
  if (rows.length < 2)
    throw new TargetDiscoveryInputError(
      'unparsable_csv',
      FIELD,
      `${FIELD} needs a header row and at least one sample row`,
    );
  const [header = [], ...body] = rows; // rows.length >= 2: the default is never used
  if (header.length < 2)
    throw new TargetDiscoveryInputError(
      'unparsable_csv',
      FIELD,
      `${FIELD} needs a sample id column and a condition column (comma- or tab-separated)`,
    );
  const seen = new Set<string>();
  for (const h of header) {
    if (h !== '' && seen.has(h))
      throw new TargetDiscoveryInputError('duplicate_ids', FIELD, `${FIELD} has the column "${h}" twice`);
    seen.add(h);
  }
  let idIdx = header.findIndex((h) => ID_NAMES.includes(h.toLowerCase()));
  if (idIdx === -1) idIdx = 0;
  const column = (c: number) => body.map((r, i) => cellAt(r, c, FIELD, i + 2));
  const sampleIds = column(idIdx);
  const dup = firstDuplicate(sampleIds);
  if (dup !== undefined)
    throw new TargetDiscoveryInputError('duplicate_ids', FIELD, `${FIELD} lists sample "${dup}" more than once`);
  if (sampleIds.some((s) => s === ''))
    throw new TargetDiscoveryInputError('unparsable_csv', FIELD, `${FIELD} has a row with an empty sample id`);
  const values = new Map<string, string[]>();
  header.forEach((h, c) => {
    values.set(h, column(c));
  });
  return { idColumn: cellAt(header, idIdx, FIELD, 1), columns: header, sampleIds, values };
}

/**
 * The value in `column` for the sample at position `row` of `sampleIds`. A column without a value for that
 * sample is an input error naming `field` (the option that chose the column).
 */
export function metadataValue(meta: Metadata, column: string, row: number, field: string): string {
  const v = meta.values.get(column)?.[row];
  if (v === undefined) {
    throw new TargetDiscoveryInputError(
      'missing_column',
      field,
      `metadata has no value in column "${column}" for sample ${meta.sampleIds[row] ?? `#${row + 1}`}`,
    );
  }
  return v;
}

export function firstDuplicate(ids: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}
