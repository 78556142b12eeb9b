// Features to genes, and one feature per gene. A microarray measures many genes with several probe sets; the
// statistics then test one feature per gene, chosen by the rule limma's avereps / WGCNA's collapseRows users
// expect (collapseRows(method = "MaxMean"): the feature with the largest mean expression), so a gene is neither
// counted twice in the BH adjustment nor listed twice among the targets.
import type { GeneIdKind, GeneIndex, GeneRecord } from '../druggability/table.js';
import { type FeatureAnnotation, KIND_ORDER } from '../parse/annotation.js';
import { subsetRows } from '../stats/matrix.js';
import type { Dataset } from './dataset.js';

export type CollapseRule = 'max_mean' | 'none';

/** How each feature id was resolved: by the annotation, by the feature id itself, or not at all. */
export interface AnnotationReport {
  source: 'feature_annotation' | 'annotation_columns' | 'feature_ids';
  /** The annotation's identifier columns and the kind each was read as. */
  columns: Array<{ name: string; kind: GeneIdKind }>;
  /** Features resolved through each identifier kind ('feature_id': the id itself names the gene). */
  resolved_by: Partial<Record<GeneIdKind | 'feature_id', number>>;
  /** Features whose identifiers name more than one gene (left unresolved, as most probe filters do). */
  ambiguous: number;
  genes: number;
  collapse: {
    rule: CollapseRule;
    description: string;
    /** Genes measured by more than one feature. */
    genes_with_several_features: number;
    /** Features left out of the test because another feature represents their gene. */
    features_collapsed: number;
  };
}

export interface FeatureGenes {
  /** feature id -> its gene (only resolved features). */
  geneOf: Map<string, GeneRecord>;
  /** representative feature id -> every feature of its gene, in input order (itself included). */
  members: Map<string, string[]>;
  features_total: number;
  features_resolved: number;
  report: AnnotationReport;
}

const RULE_TEXT: Record<CollapseRule, string> = {
  max_mean:
    'one feature per gene: the one with the largest mean expression over the analysed samples (WGCNA collapseRows "MaxMean"); ties go to the first in input order',
  none: 'every feature tested; features of one gene are not collapsed',
};

/** Resolves every feature to at most one gene: annotation identifiers (stable kinds first), else the id itself. */
export function resolveFeatures(
  featureIds: readonly string[],
  genes: GeneIndex,
  annotation: FeatureAnnotation | undefined,
): { geneOf: Map<string, GeneRecord>; resolvedBy: AnnotationReport['resolved_by']; ambiguous: number } {
  const geneOf = new Map<string, GeneRecord>();
  const resolvedBy: AnnotationReport['resolved_by'] = {};
  let ambiguous = 0;
  for (const id of featureIds) {
    const entry = annotation?.byFeature.get(id);
    let rec: GeneRecord | undefined;
    let how: GeneIdKind | 'feature_id' | undefined;
    let clash = false;
    if (entry) {
      for (const kind of KIND_ORDER) {
        const hits = new Set<GeneRecord>();
        for (const v of entry[kind] ?? []) {
          const r = genes.resolveAs(kind, v);
          if (r) hits.add(r);
        }
        if (hits.size === 1) {
          rec = [...hits][0];
          how = kind;
          break;
        }
        if (hits.size > 1) {
          clash = true;
          break;
        }
      }
    }
    if (!rec && !clash) {
      rec = genes.resolve(id);
      if (rec) how = 'feature_id';
    }
    if (clash) ambiguous++;
    if (rec && how) {
      geneOf.set(id, rec);
      resolvedBy[how] = (resolvedBy[how] ?? 0) + 1;
    }
  }
  return { geneOf, resolvedBy, ambiguous };
}

/**
 * Resolves the dataset's features and, under `max_mean`, keeps one feature per gene. Returns the dataset to
 * test (the same object when nothing was collapsed) and the feature-to-gene map the results use.
 */
export function annotateDataset(
  ds: Dataset,
  genes: GeneIndex,
  annotation: FeatureAnnotation | undefined,
  rule: CollapseRule,
): { ds: Dataset; features: FeatureGenes } {
  const { geneOf, resolvedBy, ambiguous } = resolveFeatures(ds.featureIds, genes, annotation);
  const byGene = new Map<GeneRecord, number[]>();
  ds.featureIds.forEach((id, g) => {
    const rec = geneOf.get(id);
    if (!rec) return;
    const list = byGene.get(rec);
    if (list) list.push(g);
    else byGene.set(rec, [g]);
  });
  const members = new Map<string, string[]>();
  const keep = new Uint8Array(ds.featureIds.length).fill(1);
  let several = 0;
  let collapsed = 0;
  for (const rows of byGene.values()) {
    const ids = rows.map((g) => ds.featureIds[g]!);
    if (rows.length === 1 || rule === 'none') {
      for (const id of ids) members.set(id, rule === 'none' ? [id] : ids);
      if (rows.length > 1) several++;
      continue;
    }
    several++;
    let best = rows[0]!;
    let bestMean = rowMean(ds, best);
    for (const g of rows.slice(1)) {
      const m = rowMean(ds, g);
      // NaN (a feature with no observed value) never wins.
      if (m > bestMean || (Number.isNaN(bestMean) && !Number.isNaN(m))) {
        best = g;
        bestMean = m;
      }
    }
    for (const g of rows) if (g !== best) keep[g] = 0;
    collapsed += rows.length - 1;
    members.set(ds.featureIds[best]!, ids);
  }
  const out =
    collapsed === 0
      ? ds
      : {
          ...ds,
          featureIds: ds.featureIds.filter((_, g) => keep[g]),
          values: subsetRows(ds.values, keep),
        };
  return {
    ds: out,
    features: {
      geneOf,
      members,
      features_total: ds.featureIds.length,
      features_resolved: geneOf.size,
      report: {
        source: annotation
          ? annotation.field === 'options.feature_annotation'
            ? 'feature_annotation'
            : 'annotation_columns'
          : 'feature_ids',
        columns: annotation?.columns ?? [],
        resolved_by: resolvedBy,
        ambiguous,
        genes: byGene.size,
        collapse: {
          rule,
          description: RULE_TEXT[rule],
          genes_with_several_features: several,
          features_collapsed: collapsed,
        },
      },
    },
  };
}

/** Mean of the observed values of row g (NA skipped), on the scale supplied. */
function rowMean(ds: Dataset, g: number): number {
  const { ncol, data } = ds.values;
  let s = 0;
  let n = 0;
  for (let j = 0; j < ncol; j++) {
    const v = data[g * ncol + j]!;
    if (!Number.isNaN(v)) {
      s += v;
      n++;
    }
  }
  return n ? s / n : NaN;
}

/** The summary's warning when fewer than half the features name a gene, with the option that fixes it. */
export function resolutionWarning(f: FeatureGenes): string | undefined {
  if (f.features_total === 0 || f.features_resolved * 2 >= f.features_total) return undefined;
  const pct = ((100 * f.features_resolved) / f.features_total).toFixed(1);
  const head = `only ${f.features_resolved} of ${f.features_total} features (${pct}%) resolved to a human gene, so gene symbols, UniProt accessions and druggability are missing for the rest`;
  switch (f.report.source) {
    case 'feature_ids':
      return `${head}; the feature ids look like probe or transcript ids: supply options.feature_annotation (base64 CSV/TSV: feature id, then symbol, entrez_id, ensembl_gene_id or uniprot) or name the matrix's gene-id columns in options.annotation_columns`;
    case 'feature_annotation':
      return `${head}; check that options.feature_annotation's first column holds the matrix's feature ids and that its identifier columns are named symbol, entrez_id, ensembl_gene_id or uniprot`;
    case 'annotation_columns':
      return `${head}; check that options.annotation_columns names the columns holding gene symbols, Entrez, Ensembl or UniProt ids (or supply options.feature_annotation)`;
  }
}
