// The engine's entry point: CSV text in, results document out (summary, ranked targets, plots, full table).
import { TargetDiscoveryInputError } from './errors.js';
import { geneIndex, type GeneRecord, type TargetFamily } from './druggability/table.js';
import { parseNumericTable } from './parse/matrix.js';
import { parseMetadata } from './parse/metadata.js';
import { buildDataset, type ExcludedSample } from './pipeline/dataset.js';
import { buildDesign } from './pipeline/design.js';
import { differentialExpression, type PipelineReport, type RunHooks } from './pipeline/differential-expression.js';
import { detectDataType, type DataType } from './pipeline/detect.js';
import { filterByExpr } from './stats/filter-by-expr.js';
import { maSvg, volcanoSvg, type PlotPoint } from './plots/scatter.js';
import { priorityScore } from './results/priority.js';
import { TABLE_COLUMNS, type FeatureTable, type TableRow } from './results/table.js';

export interface DiscoveryOptions {
  include_druggability?: boolean;
  /** Linear fold change; a gene needs |log2 FC| >= log2(min_fold_change). Default 1.5. */
  min_fold_change?: number;
  /** Default 0.05, applied to pvalue_type. */
  max_pvalue?: number;
  pvalue_type?: 'adjusted' | 'raw';
  covariates?: string[];
  /** Most targets listed in the document (all significant genes stay in the table). Default 1000. */
  max_targets?: number;
  /** Force the pipeline instead of detecting the data type. */
  data_type?: DataType;
}

export interface DiscoveryRequest {
  /** CSV/TSV text (already decoded). */
  expression_matrix: string;
  metadata: string;
  condition_column: string;
  case_value: string;
  control_value: string;
  options?: DiscoveryOptions;
}

export const DEFAULTS = { min_fold_change: 1.5, max_pvalue: 0.05, pvalue_type: 'adjusted' as const, include_druggability: true, max_targets: 1000 };

export interface Druggability {
  family: TargetFamily;
  tier: 1 | 2 | 3 | 4;
  druggable: boolean;
  uniprot: string | null;
  evidence: { go_mf: string[]; pfam: string[] };
}

export interface Target {
  rank: number;
  feature_id: string;
  gene_symbol: string | null;
  gene_name: string | null;
  entrez_id: string | null;
  uniprot: string | null;
  log2_fold_change: number;
  fold_change: number;
  average_expression: number;
  t: number;
  p_value: number;
  adjusted_p_value: number;
  b: number;
  direction: 'up' | 'down';
  priority_score: number;
  druggability: Druggability | null;
}

export interface DiscoverySummary {
  features_tested: number;
  significant: number;
  up: number;
  down: number;
  pipeline: PipelineReport;
  design: { formula: string; columns: string[]; tested_coefficient: string };
  thresholds: { min_fold_change: number; min_abs_log2_fold_change: number; max_pvalue: number; pvalue_type: 'adjusted' | 'raw' };
  samples: { case: { value: string; ids: string[] }; control: { value: string; ids: string[] }; excluded: ExcludedSample[] };
  /** Significant genes in a druggable family (tiers 1-3); null when druggability was not requested. */
  druggable_significant: number | null;
  input: { orientation: 'features_in_rows' | 'samples_in_rows'; features: number; samples_in_matrix: number; missing_values: number };
  targets_listed: number;
}

export interface DiscoveryResult {
  summary: DiscoverySummary;
  targets: Target[];
  plots: { volcano_svg: string; ma_svg: string };
  /** Every tested feature (the CSV download). */
  table: FeatureTable;
}

export function normaliseOptions(o: DiscoveryOptions = {}) {
  const minFc = o.min_fold_change ?? DEFAULTS.min_fold_change;
  const maxP = o.max_pvalue ?? DEFAULTS.max_pvalue;
  if (!(Number.isFinite(minFc) && minFc >= 1)) throw new TargetDiscoveryInputError('bad_option', 'options.min_fold_change', `min_fold_change must be a linear fold change >= 1 (got ${minFc})`);
  if (!(Number.isFinite(maxP) && maxP > 0 && maxP <= 1)) throw new TargetDiscoveryInputError('bad_option', 'options.max_pvalue', `max_pvalue must be in (0, 1] (got ${maxP})`);
  const pt = o.pvalue_type ?? DEFAULTS.pvalue_type;
  if (pt !== 'adjusted' && pt !== 'raw') throw new TargetDiscoveryInputError('bad_option', 'options.pvalue_type', `pvalue_type must be "adjusted" or "raw"`);
  return {
    include_druggability: o.include_druggability ?? DEFAULTS.include_druggability,
    min_fold_change: minFc,
    max_pvalue: maxP,
    pvalue_type: pt,
    covariates: o.covariates ?? [],
    max_targets: o.max_targets ?? DEFAULTS.max_targets,
    data_type: o.data_type,
  };
}

/** Parse and validate everything that can be checked before the statistics (cheap relative to the fit). */
export function prepareDiscovery(req: DiscoveryRequest) {
  const opts = normaliseOptions(req.options);
  const meta = parseMetadata(req.metadata);
  const raw = parseNumericTable(req.expression_matrix);
  const ds = buildDataset(raw, meta, {
    conditionColumn: req.condition_column,
    caseValue: req.case_value,
    controlValue: req.control_value,
    covariates: opts.covariates,
  });
  const design = buildDesign(ds, req.condition_column, req.case_value, req.control_value);
  if (ds.featureIds.length < 2) throw new TargetDiscoveryInputError('too_few_features', 'expression_matrix', `the expression matrix has ${ds.featureIds.length} feature(s); need at least 2`);
  return { opts, raw, ds, design };
}

export interface DiscoveryCheck {
  features: number;
  samples: number;
  data_type: DataType;
  /** Features that would be tested (after filterByExpr for counts). */
  testable_features: number;
}

/**
 * Everything that can be refused before the job runs: parsing, sample matching, design, data type, and
 * (for counts) that at least two features pass filterByExpr. Linear in the input size.
 */
export function checkDiscovery(req: DiscoveryRequest): DiscoveryCheck {
  const { opts, ds } = prepareDiscovery(req);
  const detected = detectDataType(ds.values);
  const dataType = opts.data_type ?? detected.data_type;
  let testable = ds.featureIds.length;
  if (dataType === 'counts') {
    const nCase = ds.isCase.reduce((a, b) => a + b, 0);
    const keep = filterByExpr(ds.values, [nCase, ds.sampleIds.length - nCase]);
    testable = keep.reduce((a, b) => a + b, 0);
    if (testable < 2) throw new TargetDiscoveryInputError('too_few_features', 'expression_matrix', `only ${testable} feature(s) pass filterByExpr (at least 10 counts per million-equivalent in enough samples); need at least 2`);
  }
  return { features: ds.featureIds.length, samples: ds.sampleIds.length, data_type: dataType, testable_features: testable };
}

export function discoverTargets(req: DiscoveryRequest, hooks: RunHooks = {}): DiscoveryResult {
  hooks.progress?.('parsing input', 0);
  const { opts, raw, ds, design } = prepareDiscovery(req);
  const nCase = ds.isCase.reduce((a, b) => a + b, 0);
  const de = differentialExpression(
    {
      featureIds: ds.featureIds,
      sampleIds: ds.sampleIds,
      values: ds.values,
      design: design.design,
      coefficient: design.coefficient,
      groupSizes: [nCase, ds.sampleIds.length - nCase],
      dataType: opts.data_type,
    },
    {
      signal: hooks.signal,
      progress: (s, f) => hooks.progress?.(s, 0.05 + 0.8 * f),
    },
  );
  hooks.progress?.('ranking targets', 0.88);
  const minLfc = Math.log2(opts.min_fold_change);
  // Symbols are resolved even without druggability, so the table and plots can show gene names.
  const genes = geneIndex();
  const G = de.featureIds.length;
  const rows: TableRow[] = new Array(G);
  const sigIdx: number[] = [];
  const records: Array<GeneRecord | undefined> = new Array(G);
  let up = 0;
  let down = 0;
  let maxSigRawP = -1;
  for (let g = 0; g < G; g++) {
    const rec = genes?.resolve(de.featureIds[g]);
    records[g] = rec;
    const lfc = de.logFC[g];
    const pUsed = opts.pvalue_type === 'adjusted' ? de.adjPValue[g] : de.pValue[g];
    const sig = pUsed <= opts.max_pvalue && Math.abs(lfc) >= minLfc;
    const dir = lfc > 0 ? 'up' : 'down';
    if (pUsed <= opts.max_pvalue) maxSigRawP = Math.max(maxSigRawP, de.pValue[g]);
    if (sig) {
      sigIdx.push(g);
      if (dir === 'up') up++;
      else down++;
    }
    rows[g] = [de.featureIds[g], rec?.symbol ?? null, lfc, 2 ** lfc, de.aveExpr[g], de.t[g], de.pValue[g], de.adjPValue[g], de.b[g], dir, sig];
  }
  const withDrug = opts.include_druggability;
  const scored = sigIdx.map((g) => {
    const rec = records[g];
    const pUsed = opts.pvalue_type === 'adjusted' ? de.adjPValue[g] : de.pValue[g];
    return { g, score: priorityScore(pUsed, de.logFC[g], rec?.tier, withDrug) };
  });
  scored.sort((a, b) => b.score - a.score || de.pValue[a.g] - de.pValue[b.g]);
  let druggableSig = 0;
  const targets: Target[] = [];
  scored.forEach(({ g, score }, i) => {
    const rec = records[g];
    const drug: Druggability | null =
      withDrug && rec
        ? { family: rec.family, tier: rec.tier, druggable: rec.tier <= 3, uniprot: rec.uniprot, evidence: { go_mf: rec.evidence_go_mf, pfam: rec.evidence_pfam.length ? rec.evidence_pfam : rec.pfam_domains } }
        : null;
    if (drug?.druggable) druggableSig++;
    if (i >= opts.max_targets) return;
    targets.push({
      rank: i + 1,
      feature_id: de.featureIds[g],
      gene_symbol: rec?.symbol ?? null,
      gene_name: rec?.name ?? null,
      entrez_id: rec?.entrez_id ?? null,
      uniprot: rec?.uniprot ?? null,
      log2_fold_change: de.logFC[g],
      fold_change: 2 ** de.logFC[g],
      average_expression: de.aveExpr[g],
      t: de.t[g],
      p_value: de.pValue[g],
      adjusted_p_value: de.adjPValue[g],
      b: de.b[g],
      direction: de.logFC[g] > 0 ? 'up' : 'down',
      priority_score: score,
      druggability: drug,
    });
  });
  hooks.progress?.('drawing plots', 0.93);
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
  const subtitle = `${de.report.name}, ${caseIds.length} vs ${controlIds.length} samples, ${G.toLocaleString('en-US')} features; ${sigIdx.length.toLocaleString('en-US')} significant (${opts.pvalue_type === 'adjusted' ? 'BH-adjusted ' : ''}p <= ${opts.max_pvalue}, fold change >= ${opts.min_fold_change})`;
  const plotOpts = {
    title,
    subtitle,
    minAbsLog2FoldChange: minLfc,
    pValueLine: opts.pvalue_type === 'raw' ? opts.max_pvalue : maxSigRawP > 0 ? maxSigRawP : undefined,
    pValueLineLabel: opts.pvalue_type === 'raw' ? `p = ${opts.max_pvalue}` : `FDR = ${opts.max_pvalue}`,
    highlight,
    expressionLabel: de.report.name === 'limma-voom' ? 'average log2 CPM' : de.report.name === 'limma-trend' ? 'average log2(x + 1)' : 'average log2 expression',
  };
  hooks.progress?.('done', 1);
  return {
    summary: {
      features_tested: G,
      significant: sigIdx.length,
      up,
      down,
      pipeline: de.report,
      design: { formula: design.formula, columns: [...design.design.columns], tested_coefficient: design.design.columns[design.coefficient] },
      thresholds: { min_fold_change: opts.min_fold_change, min_abs_log2_fold_change: minLfc, max_pvalue: opts.max_pvalue, pvalue_type: opts.pvalue_type },
      samples: { case: { value: req.case_value, ids: caseIds }, control: { value: req.control_value, ids: controlIds }, excluded: ds.excluded },
      druggable_significant: withDrug ? druggableSig : null,
      input: { orientation: ds.orientation, features: ds.featureIds.length, samples_in_matrix: ds.orientation === 'features_in_rows' ? raw.colIds.length : raw.rowIds.length, missing_values: ds.missingValues },
      targets_listed: targets.length,
    },
    targets,
    plots: { volcano_svg: volcanoSvg(points, plotOpts), ma_svg: maSvg(points, plotOpts) },
    table: { columns: TABLE_COLUMNS, rows },
  };
}
