// Decoding of the transported CSV and delimiter detection.
import { parse as csvParse } from 'csv-parse/sync';
import { TargetDiscoveryInputError } from '../errors.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Strict base64 (standard or URL-safe alphabet, whitespace ignored) to UTF-8 text. */
export function decodeBase64Text(b64: string, field: string): string {
  const compact = b64.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (compact.length === 0) throw new TargetDiscoveryInputError('bad_encoding', field, `${field} is empty`);
  const padded = compact.length % 4 === 0 ? compact : compact + '='.repeat(4 - (compact.length % 4));
  if (!BASE64.test(padded) || padded.length % 4 !== 0 || compact.length % 4 === 1) {
    throw new TargetDiscoveryInputError('bad_encoding', field, `${field} is not valid base64`);
  }
  const buf = Buffer.from(padded, 'base64');
  const text = new TextDecoder('utf-8', { fatal: false }).decode(buf);
  if (text.includes('\u0000') || text.includes('\ufffd')) {
    throw new TargetDiscoveryInputError(
      'bad_encoding',
      field,
      `${field} does not decode to UTF-8 text (is it compressed or binary?)`,
    );
  }
  return text;
}

export type Delimiter = ',' | '\t' | ';';

/** Picks the delimiter that splits the header line into the most fields (quotes respected). */
export function detectDelimiter(text: string): Delimiter {
  const end = text.indexOf('\n');
  const line = end === -1 ? text : text.slice(0, end);
  const counts: Record<Delimiter, number> = { ',': 0, '\t': 0, ';': 0 };
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === ',' || ch === '\t' || ch === ';')) counts[ch]++;
  }
  if (counts['\t'] > 0 && counts['\t'] >= counts[',']) return '\t';
  if (counts[','] === 0 && counts[';'] > 0) return ';';
  return ',';
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Full CSV/TSV parse into string rows (quotes, embedded delimiters, CRLF). */
export function parseRows(text: string, field: string, delimiter = detectDelimiter(text)): string[][] {
  try {
    const rows = csvParse(stripBom(text), {
      delimiter,
      skip_empty_lines: true,
      trim: true,
      relax_quotes: false,
      relax_column_count: false,
    }) as string[][];
    return rows;
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new TargetDiscoveryInputError(
      'unparsable_csv',
      field,
      `${field} could not be parsed as ${delimiter === '\t' ? 'TSV' : 'CSV'}: ${msg}`,
    );
  }
}

/**
 * The cell in column `c` of a parsed row (`rowNo` 1-based, the header being row 1). A row too short to have
 * that column is an input error naming `field`.
 */
export function cellAt(row: readonly string[], c: number, field: string, rowNo: number): string {
  const cell = row[c];
  if (cell === undefined) {
    throw new TargetDiscoveryInputError(
      'unparsable_csv',
      field,
      `${field} row ${rowNo} has ${row.length} field(s); column ${c + 1} is missing`,
    );
  }
  return cell;
}

const NA_TOKENS = new Set(['', 'NA', 'NaN', 'nan', 'N/A', 'n/a', 'na', 'null', 'NULL', '#N/A']);
export function isNaToken(s: string): boolean {
  return NA_TOKENS.has(s);
}
