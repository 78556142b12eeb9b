// What a package's catalogue test runs (import from '@evident/contract/check'): every code its sources throw is
// in its catalogue (a scan of the text), and its README's error table and the catalogue say the same (every
// code documented with its status; nothing documented that the catalogue lacks). Node only: it reads files.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Catalogue } from './catalogue.js';

export interface ScanOptions {
  /**
   * Functions and classes whose first argument, when a string literal, is an error code (`new KbError('x', …)`,
   * `apiError('x', …)`). `super('x', …)` and `code: 'x'` are always read.
   */
  callees?: readonly string[];
  /** `code: '…'` literals that are not error codes (a registry's violation kinds, say). */
  ignore?: readonly string[];
}

/** Every code the `.ts` files under `dir` throw, with where (`file:line`). */
export function scanThrownCodes(dir: string, options: ScanOptions = {}): Map<string, string[]> {
  const ignore = new Set(options.ignore ?? []);
  const callees = options.callees ?? [];
  const patterns = [
    /\bcode:\s*'([a-z][a-z0-9_]*)'/g,
    /\bsuper\(\s*'([a-z][a-z0-9_]*)'/g,
    ...(callees.length ? [new RegExp(`\\b(?:${callees.join('|')})\\(\\s*'([a-z][a-z0-9_]*)'`, 'g')] : []),
  ];
  const found = new Map<string, string[]>();
  for (const file of tsFiles(dir)) {
    const text = readFileSync(file, 'utf8');
    for (const re of patterns) {
      for (const m of text.matchAll(re)) {
        const code = m[1]!;
        if (ignore.has(code)) continue;
        const line = text.slice(0, m.index).split('\n').length;
        const at = `${relative(dir, file)}:${line}`;
        found.set(code, [...(found.get(code) ?? []), at]);
      }
    }
  }
  return found;
}

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Codes thrown under `dir` that `catalogue` lacks, as `code (file:line)`. */
export function uncataloguedCodes(dir: string, catalogue: Catalogue, options: ScanOptions = {}): string[] {
  return [...scanThrownCodes(dir, options)]
    .filter(([code]) => !(code in catalogue))
    .map(([code, at]) => `${code} (${at.join(', ')})`);
}

/** One row of a README error table: the codes in its code column and the statuses in its status column. */
export interface DocumentedRow {
  codes: string[];
  /** `400`, `5xx`, `job`: each token of the status cell. */
  statuses: string[];
}

/**
 * The rows of the error table under `heading` (a markdown heading's text) in `markdown`: the first table after
 * it whose header has a `code` column. Without a status column every row's statuses are empty.
 */
export function readmeErrorTable(markdown: string, heading: string): DocumentedRow[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => /^#+\s/.test(l) && l.replace(/^#+\s+/, '').trim() === heading);
  if (start < 0) throw new Error(`no heading '${heading}'`);
  let i = start + 1;
  while (i < lines.length && !(lines[i]!.startsWith('|') && /\bcode\b/i.test(lines[i]!))) {
    if (/^#+\s/.test(lines[i]!)) throw new Error(`no error table under '${heading}'`);
    i++;
  }
  const cells = (l: string) =>
    l
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((c) => c.trim());
  const header = cells(lines[i]!).map((c) => c.replace(/`/g, '').toLowerCase());
  const codeCol = header.indexOf('code');
  const statusCol = header.indexOf('status');
  const rows: DocumentedRow[] = [];
  for (i += 2; i < lines.length && lines[i]!.startsWith('|'); i++) {
    const row = cells(lines[i]!);
    const codeCell = row[codeCol] ?? '';
    // A cell that points at another table (`the library's codes (table above: …)`) names no code of its own.
    if (/table above/.test(codeCell)) continue;
    const codes = [...codeCell.matchAll(/`([a-z][a-z0-9_]*)`/g)].map((m) => m[1]!);
    const statuses = statusCol < 0 ? [] : (row[statusCol] ?? '').split(/[\s,]+/).filter(Boolean);
    rows.push({ codes, statuses });
  }
  return rows;
}

const statusMatches = (status: number | null, token: string, nullToken: string) =>
  status === null ? token === nullToken : token === String(status) || token === `${String(status)[0]}xx`;

export interface TableCheckOptions {
  /** What the status column says for a null status (`job` in the job API's table); default `-`. */
  nullStatus?: string;
  /** Codes of other catalogues the table may list too (a surface's table lists its libraries' codes). */
  others?: Catalogue;
  /** Catalogue codes the table leaves out on purpose (documented elsewhere), each with why. */
  undocumented?: Readonly<Record<string, string>>;
}

/**
 * Where a README table and a catalogue disagree, one line each: a catalogue code missing from the table, a code
 * listed under another status, a listed code no catalogue has. Empty when they agree.
 */
export function tableDisagreements(
  rows: readonly DocumentedRow[],
  catalogue: Catalogue,
  options: TableCheckOptions = {},
): string[] {
  const nullToken = options.nullStatus ?? '-';
  const out: string[] = [];
  const listed = new Set(rows.flatMap((r) => r.codes));
  for (const code of Object.keys(catalogue)) {
    if (!listed.has(code) && !options.undocumented?.[code]) out.push(`${code}: in the catalogue, not in the table`);
  }
  for (const row of rows) {
    for (const code of row.codes) {
      const entry = catalogue[code] ?? options.others?.[code];
      if (!entry) {
        out.push(`${code}: in the table, in no catalogue`);
        continue;
      }
      if (row.statuses.length && !row.statuses.some((t) => statusMatches(entry.status, t, nullToken)))
        out.push(`${code}: the table says ${row.statuses.join(', ')}, the catalogue ${entry.status ?? nullToken}`);
    }
  }
  return out;
}
