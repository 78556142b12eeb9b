// The full per-feature table (what topTable(number = Inf) gives) and its CSV form.

export const TABLE_COLUMNS = [
  'feature_id',
  'gene_symbol',
  'log2_fold_change',
  'fold_change',
  'average_expression',
  't',
  'p_value',
  'adjusted_p_value',
  'b',
  'direction',
  'significant',
] as const;

export type TableRow = [
  string,
  string | null,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  'up' | 'down',
  boolean,
];

/** Columnar-compact table: the column names once, then one array per feature. */
export interface FeatureTable {
  columns: typeof TABLE_COLUMNS;
  rows: TableRow[];
}

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'NA';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function tableToCsv(table: FeatureTable): string {
  const out = [table.columns.join(',')];
  for (const r of table.rows) out.push(r.map(csvCell).join(','));
  return `${out.join('\n')}\n`;
}
