// GET /v1/results/{id}?format=enrichment.csv: one line per method and gene set, the columns of results.enrichment.rows
// (the method-specific ones empty where a method has none; leading genes joined by ';').
import type { EnrichmentRow } from '@evident/target-discovery';

// Deliberate copy: td-enrichment.test.ts spells the first columns out to pin the wire format independently.
export const ENRICHMENT_CSV_COLUMNS = [
  'method',
  'collection',
  'set_id',
  'set_name',
  'size',
  'direction',
  'p_value',
  'fdr',
  'up',
  'down',
  'p_up',
  'p_down',
  'p_value_mixed',
  'fdr_mixed',
  'correlation',
  'leading_genes',
] as const;

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'NA';
  const s = Array.isArray(v) ? v.join(';') : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Rows in the document's order (method, then collection, then set), which the engine keeps stable. */
export function enrichmentToCsv(rows: readonly EnrichmentRow[]): string {
  const out = [ENRICHMENT_CSV_COLUMNS.join(',')];
  for (const r of rows) out.push(ENRICHMENT_CSV_COLUMNS.map((c) => cell(r[c as keyof EnrichmentRow])).join(','));
  return `${out.join('\n')}\n`;
}
