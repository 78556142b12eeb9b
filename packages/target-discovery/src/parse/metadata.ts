// Sample metadata: one row per sample, a sample id column and the condition (plus optional covariates).
import { TargetDiscoveryInputError } from '../errors.js';
import { parseRows } from './text.js';

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
  if (rows.length < 2) throw new TargetDiscoveryInputError('unparsable_csv', FIELD, `${FIELD} needs a header row and at least one sample row`);
  const header = rows[0];
  if (header.length < 2) throw new TargetDiscoveryInputError('unparsable_csv', FIELD, `${FIELD} needs a sample id column and a condition column (comma- or tab-separated)`);
  const seen = new Set<string>();
  for (const h of header) {
    if (h !== '' && seen.has(h)) throw new TargetDiscoveryInputError('duplicate_ids', FIELD, `${FIELD} has the column "${h}" twice`);
    seen.add(h);
  }
  let idIdx = header.findIndex((h) => ID_NAMES.includes(h.toLowerCase()));
  if (idIdx === -1) idIdx = 0;
  const sampleIds = rows.slice(1).map((r) => r[idIdx]);
  const dup = firstDuplicate(sampleIds);
  if (dup !== undefined) throw new TargetDiscoveryInputError('duplicate_ids', FIELD, `${FIELD} lists sample "${dup}" more than once`);
  if (sampleIds.some((s) => s === '')) throw new TargetDiscoveryInputError('unparsable_csv', FIELD, `${FIELD} has a row with an empty sample id`);
  const values = new Map<string, string[]>();
  header.forEach((h, c) => values.set(h, rows.slice(1).map((r) => r[c])));
  return { idColumn: header[idIdx], columns: header, sampleIds, values };
}

export function firstDuplicate(ids: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}
