// Feature annotation: which gene each feature (a microarray probe set, a transcript) measures. It comes either
// as a separate CSV/TSV (options.feature_annotation) or as named text columns of the matrix itself
// (options.annotation_columns); both end as the same FeatureAnnotation.
import type { GeneIdKind } from '../druggability/table.js';
import { TargetDiscoveryInputError } from '../errors.js';
import { firstDuplicate } from './metadata.js';
import { cellAt, parseRows } from './text.js';

export const FEATURE_ANNOTATION = 'options.feature_annotation';
export const ANNOTATION_COLUMNS = 'options.annotation_columns';

/** Header names (lower case, letters and digits only) of each identifier kind: GEO, Bioconductor, biomaRt. */
const KIND_NAMES: Record<GeneIdKind, readonly string[]> = {
  symbol: ['symbol', 'genesymbol', 'gene', 'hgnc', 'hgncsymbol', 'hugo', 'externalgenename'],
  entrez: ['entrez', 'entrezid', 'entrezgene', 'entrezgeneid', 'geneid', 'locuslink', 'ncbigene', 'ncbigeneid'],
  ensembl: ['ensembl', 'ensemblid', 'ensemblgene', 'ensemblgeneid', 'ensg'],
  uniprot: ['uniprot', 'uniprotid', 'uniprotkb', 'uniprotacc', 'uniprotaccession', 'swissprot', 'uniprotswissprot'],
};
const FEATURE_ID_NAMES = ['id', 'idref', 'probe', 'probeid', 'probeset', 'probesetid', 'feature', 'featureid'];

/** Stable identifiers first: a symbol is the last resort (symbols are renamed and reused). */
export const KIND_ORDER: readonly GeneIdKind[] = ['entrez', 'ensembl', 'uniprot', 'symbol'];

/** One annotation column: its name as written and the identifier kind it holds. */
export interface AnnotationColumn {
  name: string;
  kind: GeneIdKind;
}

export interface FeatureAnnotation {
  /** Where it came from; names the option in messages. */
  field: typeof FEATURE_ANNOTATION | typeof ANNOTATION_COLUMNS;
  columns: AnnotationColumn[];
  /** feature id -> identifiers by kind (a cell may list several, e.g. "5595 /// 5596"). */
  byFeature: Map<string, Partial<Record<GeneIdKind, string[]>>>;
}

const normalise = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, '');

export function kindOfHeader(name: string): GeneIdKind | undefined {
  const n = normalise(name);
  return KIND_ORDER.find((k) => KIND_NAMES[k].includes(n));
}

/** The identifier kind most values of an unnamed column look like. */
export function kindOfValues(values: readonly string[]): GeneIdKind {
  const counts: Record<GeneIdKind, number> = { symbol: 0, entrez: 0, ensembl: 0, uniprot: 0 };
  for (const v of values) {
    const first = splitIds(v)[0];
    if (first === undefined) continue;
    if (/^\d+$/.test(first)) counts.entrez++;
    else if (/^ENSG\d+(\.\d+)?$/i.test(first)) counts.ensembl++;
    else if (/^([OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9]([A-Z][A-Z0-9]{2}[0-9]){1,2})(-\d+)?$/.test(first))
      counts.uniprot++;
    else counts.symbol++;
  }
  return KIND_ORDER.reduce((best, k) => (counts[k] > counts[best] ? k : best), 'symbol' as GeneIdKind);
}

/** "A /// B" (Affymetrix, GEO), "A|B", "A;B", "A,B": every id of a cell; NA tokens give none. */
export function splitIds(cell: string): string[] {
  return cell
    .split(/\s*(?:\/\/\/|[|;,])\s*/)
    .map((s) => s.trim())
    .filter((s) => s !== '' && s !== '---' && s !== 'NA' && s !== '-');
}

/** options.feature_annotation, decoded: a feature id column and at least one identifier column. */
export function parseFeatureAnnotation(text: string): FeatureAnnotation {
  const field = FEATURE_ANNOTATION;
  // GEO platform tables start with "#" comment lines describing the columns.
  const rows = parseRows(
    text
      .split(/\r?\n/)
      .filter((l) => !l.startsWith('#'))
      .join('\n'),
    field,
  );
  const [header = [], ...body] = rows;
  if (header.length < 2 || body.length === 0)
    throw new TargetDiscoveryInputError(
      'unparsable_csv',
      field,
      `${field} needs a header row, a feature id column, an identifier column and at least one row`,
    );
  let idCol = header.findIndex((h) => FEATURE_ID_NAMES.includes(normalise(h)));
  if (idCol === -1) idCol = 0;
  const columns: Array<AnnotationColumn & { at: number }> = [];
  header.forEach((h, at) => {
    const kind = at === idCol ? undefined : kindOfHeader(h);
    if (kind) columns.push({ name: h, kind, at });
  });
  if (columns.length === 0)
    throw new TargetDiscoveryInputError(
      'missing_column',
      field,
      `${field} has no identifier column: name one symbol, entrez_id, ensembl_gene_id or uniprot (columns: ${header.join(', ')})`,
    );
  const ids = body.map((r, i) => cellAt(r, idCol, field, i + 2));
  const dup = firstDuplicate(ids);
  if (dup !== undefined)
    throw new TargetDiscoveryInputError('duplicate_ids', field, `${field} lists feature "${dup}" more than once`);
  const byFeature = new Map<string, Partial<Record<GeneIdKind, string[]>>>();
  body.forEach((r, i) => {
    const entry: Partial<Record<GeneIdKind, string[]>> = {};
    for (const c of columns) {
      const vals = splitIds(cellAt(r, c.at, field, i + 2));
      if (vals.length) entry[c.kind] = [...(entry[c.kind] ?? []), ...vals];
    }
    byFeature.set(ids[i]!, entry);
  });
  return { field, columns: columns.map(({ name, kind }) => ({ name, kind })), byFeature };
}

/** options.annotation_columns: the matrix's named text columns (already split off by parseNumericTable). */
export function annotationFromColumns(
  rowIds: readonly string[],
  text: ReadonlyMap<string, string[]>,
): FeatureAnnotation {
  const columns: AnnotationColumn[] = [...text.entries()].map(([name, values]) => ({
    name,
    kind: kindOfHeader(name) ?? kindOfValues(values),
  }));
  const byFeature = new Map<string, Partial<Record<GeneIdKind, string[]>>>();
  rowIds.forEach((id, i) => {
    const entry: Partial<Record<GeneIdKind, string[]>> = {};
    for (const c of columns) {
      const vals = splitIds(text.get(c.name)?.[i] ?? '');
      if (vals.length) entry[c.kind] = [...(entry[c.kind] ?? []), ...vals];
    }
    byFeature.set(id, entry);
  });
  return { field: ANNOTATION_COLUMNS, columns, byFeature };
}
