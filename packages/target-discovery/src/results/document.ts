// Assembles the results document from a differential-expression table: significance, gene resolution,
// druggability, priority ranking, plots and the full per-feature table.
import type { GeneRecord } from '../druggability/table.js';
import type { RawTable } from '../parse/matrix.js';
import { type FeatureGenes, resolutionWarning } from '../pipeline/annotate.js';
import type { Dataset } from '../pipeline/dataset.js';
import type { DesignInfo } from '../pipeline/design.js';
import type { DeTable } from '../pipeline/differential-expression.js';
import { maSvg, volcanoSvg, type PlotPoint } from '../plots/scatter.js';
import { priorityScore } from './priority.js';
import { TABLE_COLUMNS, type TableRow } from './table.js';
import type { DiscoveryResult, Druggability, Target } from './types.js';

export interface ResolvedOptions {
  include_druggability: boolean;
  min_fold_change: number;
  max_pvalue: number;
  pvalue_type: 'adjusted' | 'raw';
  max_targets: number;
}

export interface AssembleInput {
  req: { case_value: string; control_value: string };
  opts: ResolvedOptions;
  raw: RawTable;
  ds: Dataset;
  design: DesignInfo;
  de: DeTable;
  /** Features resolved to genes (and collapsed) by pipeline/annotate.ts. */
  features: FeatureGenes;
}

/** One feature's statistics, read from the columnar table. */
interface DeRow {
  featureId: string;
  logFC: number;
  aveExpr: number;
  t: number;
  pValue: number;
  adjPValue: number;
  b: number;
}

function deRow(de: DeTable, g: number): DeRow {
  const at = <T>(column: ArrayLike<T>, name: string): T => {
    const v = column[g];
    if (v === undefined) throw new RangeError(`DE table: ${name} has no row ${g} (${column.length} rows)`);
    return v;
  };
  return {
    featureId: at(de.featureIds, 'featureIds'),
    logFC: at(de.logFC, 'logFC'),
    aveExpr: at(de.aveExpr, 'aveExpr'),
    t: at(de.t, 't'),
    pValue: at(de.pValue, 'pValue'),
    adjPValue: at(de.adjPValue, 'adjPValue'),
    b: at(de.b, 'b'),
  };
}

/** A gene record's druggability, as a target lists it. */
function druggabilityOf(rec: GeneRecord): Druggability {
  return {
    family: rec.family,
    tier: rec.tier,
    tier_source: rec.tier_source,
    tier_evidence: rec.tier_evidence,
    drugs: rec.drugs,
    druggable: rec.tier <= 3,
    safety_liability: rec.safety_liability !== null,
    safety_concern: rec.safety_liability,
    uniprot: rec.uniprot,
    evidence: {
      go_mf: rec.evidence_go_mf,
      pfam: rec.evidence_pfam.length ? rec.evidence_pfam : rec.pfam_domains,
    },
  };
}

/** The target at `rank`: the feature's statistics, its gene and druggability, and the features it stands for. */
function targetOf(
  rank: number,
  f: DeRow,
  rec: GeneRecord | undefined,
  score: number,
  drug: Druggability | null,
  members: string[],
): Target {
  return {
    rank,
    feature_id: f.featureId,
    representative_feature: f.featureId,
    features: members,
    gene_symbol: rec?.symbol ?? null,
    gene_name: rec?.name ?? null,
    entrez_id: rec?.entrez_id ?? null,
    uniprot: rec?.uniprot ?? null,
    log2_fold_change: f.logFC,
    fold_change: 2 ** f.logFC,
    average_expression: f.aveExpr,
    t: f.t,
    p_value: f.pValue,
    adjusted_p_value: f.adjPValue,
    b: f.b,
    direction: f.logFC > 0 ? 'up' : 'down',
    priority_score: score,
    druggability: drug,
  };
}

export function assembleResult({ req, opts, raw, ds, design, de, features }: AssembleInput): DiscoveryResult {
  const minLfc = Math.log2(opts.min_fold_change);
  // Symbols are resolved even without druggability, so the table and plots can show gene names.
  const G = de.featureIds.length;
  const rows: TableRow[] = new Array(G);
  const significant: Array<{ f: DeRow; rec: GeneRecord | undefined }> = [];
  let up = 0;
  let down = 0;
  let maxSigRawP = -1;
  for (let g = 0; g < G; g++) {
    const f = deRow(de, g);
    const rec = features.geneOf.get(f.featureId);
    const lfc = f.logFC;
    const pUsed = opts.pvalue_type === 'adjusted' ? f.adjPValue : f.pValue;
    const sig = pUsed <= opts.max_pvalue && Math.abs(lfc) >= minLfc;
    const dir = lfc > 0 ? 'up' : 'down';
    if (pUsed <= opts.max_pvalue) maxSigRawP = Math.max(maxSigRawP, f.pValue);
    if (sig) {
      significant.push({ f, rec });
      if (dir === 'up') up++;
      else down++;
    }
    rows[g] = [f.featureId, rec?.symbol ?? null, lfc, 2 ** lfc, f.aveExpr, f.t, f.pValue, f.adjPValue, f.b, dir, sig];
  }
  const withDrug = opts.include_druggability;
  const scored = significant.map(({ f, rec }) => {
    const pUsed = opts.pvalue_type === 'adjusted' ? f.adjPValue : f.pValue;
    return { f, rec, score: priorityScore(pUsed, f.logFC, rec?.tier, withDrug, rec?.safety_liability != null) };
  });
  scored.sort((a, b) => b.score - a.score || a.f.pValue - b.f.pValue);
  let druggableSig = 0;
  const targets: Target[] = [];
  scored.forEach(({ f, rec, score }, i) => {
    const drug = withDrug && rec ? druggabilityOf(rec) : null;
    if (drug?.druggable) druggableSig++;
    if (i >= opts.max_targets) return;
    targets.push(targetOf(i + 1, f, rec, score, drug, features.members.get(f.featureId) ?? [f.featureId]));
  });
  const points: PlotPoint[] = rows.map((r) => ({
    label: r[1] ?? r[0],
    log2FoldChange: r[2],
    pValue: r[6],
    averageExpression: r[4],
    status: r[10] ? r[9] : 'ns',
  }));
  const highlight = targets.slice(0, 12).map((t) => t.gene_symbol ?? t.feature_id);
  const caseIds = ds.sampleIds.filter((_, j) => ds.isCase[j]);
  const controlIds = ds.sampleIds.filter((_, j) => !ds.isCase[j]);
  const title = `${req.case_value} vs ${req.control_value}`;
  const sizes = `${caseIds.length} vs ${controlIds.length} samples, ${G.toLocaleString('en-US')} features`;
  const pLabel = opts.pvalue_type === 'adjusted' ? 'BH-adjusted ' : '';
  const rule = `${pLabel}p <= ${opts.max_pvalue}, fold change >= ${opts.min_fold_change}`;
  const subtitle = `${de.report.name}, ${sizes}; ${significant.length.toLocaleString('en-US')} significant (${rule})`;
  const plotOpts = {
    title,
    subtitle,
    minAbsLog2FoldChange: minLfc,
    pValueLine: opts.pvalue_type === 'raw' ? opts.max_pvalue : maxSigRawP > 0 ? maxSigRawP : undefined,
    pValueLineLabel: opts.pvalue_type === 'raw' ? `p = ${opts.max_pvalue}` : `FDR = ${opts.max_pvalue}`,
    highlight,
    highlightNote: `Labels: the top ${Math.min(12, highlight.length)} targets by priority score`,
    expressionLabel:
      de.report.name === 'limma-voom'
        ? 'average log2 CPM'
        : de.report.name === 'limma-trend'
          ? 'average log2(x + 1)'
          : 'average log2 expression',
  };
  const tested = design.design.columns[design.coefficient];
  if (tested === undefined) throw new RangeError(`design: no column ${design.coefficient} to test`);
  return {
    summary: {
      features_tested: G,
      significant: significant.length,
      up,
      down,
      pipeline: de.report,
      design: { formula: design.formula, columns: [...design.design.columns], tested_coefficient: tested },
      thresholds: {
        min_fold_change: opts.min_fold_change,
        min_abs_log2_fold_change: minLfc,
        max_pvalue: opts.max_pvalue,
        pvalue_type: opts.pvalue_type,
      },
      samples: {
        case: { value: req.case_value, ids: caseIds },
        control: { value: req.control_value, ids: controlIds },
        excluded: ds.excluded,
      },
      druggable_significant: withDrug ? druggableSig : null,
      input: {
        orientation: ds.orientation,
        features: ds.featureIds.length,
        samples_in_matrix: ds.orientation === 'features_in_rows' ? raw.colIds.length : raw.rowIds.length,
        missing_values: ds.missingValues,
      },
      targets_listed: targets.length,
      features_total: features.features_total,
      features_resolved: features.features_resolved,
      annotation: features.report,
      warnings: [resolutionWarning(features)].filter((w): w is string => w !== undefined),
    },
    targets,
    plots: { volcano_svg: volcanoSvg(points, plotOpts), ma_svg: maSvg(points, plotOpts) },
    table: { columns: TABLE_COLUMNS, rows },
  };
}
