// Assembles the results document from a differential-expression table: significance, gene resolution,
// druggability, priority ranking, plots and the full per-feature table.
import { geneIndex, type GeneRecord } from '../druggability/table.js';
import type { RawTable } from '../parse/matrix.js';
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
}

export function assembleResult({ req, opts, raw, ds, design, de }: AssembleInput): DiscoveryResult {
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
    highlightNote: `Labels: the top ${Math.min(12, highlight.length)} targets by priority score`,
    expressionLabel: de.report.name === 'limma-voom' ? 'average log2 CPM' : de.report.name === 'limma-trend' ? 'average log2(x + 1)' : 'average log2 expression',
  };
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
