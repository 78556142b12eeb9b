// The count-model methods behind options.method beside voom: DESeq2 (DESeq() + results()) and edgeR's
// quasi-likelihood pipeline (filterByExpr, TMM, estimateDisp, glmQLFit, glmQLFTest), each returning the DE table.
import { deseq2 } from '../de/deseq2/index.js';
import { edgerQl } from '../de/edger/index.js';
import { subsetRows, type Matrix } from '../stats/matrix.js';
import type { DataType, DataTypeEvidence } from './detect.js';
import type { DeInput, DeTable } from './differential-expression.js';
import { rowsWithoutNaN } from './differential-expression.js';
import type { ResolvedMethod } from './method.js';

export interface MethodInfo {
  method: ResolvedMethod;
  method_reason: string;
  data_type: DataType;
  detection: DataTypeEvidence;
  features_input: number;
}

export interface CompleteCounts extends DeInput {
  removedMissing: number;
}

const MISSING_POLICY = 'count models need complete counts: features with any missing count are left out';

/** Count methods need complete rows: features with a missing count are left out (as for voom). */
export function completeCountRows(input: DeInput): CompleteCounts {
  const c = rowsWithoutNaN(input.values);
  if (c.count === input.values.nrow) return { ...input, removedMissing: 0 };
  return {
    ...input,
    values: subsetRows(input.values, c.mask),
    featureIds: input.featureIds.filter((_, i) => c.mask[i]),
    removedMissing: input.values.nrow - c.count,
  };
}

type Step = (stage: string, f: number) => void;

export function runDeseq2(input: CompleteCounts, info: MethodInfo, missingCells: number, step: Step): DeTable {
  const onlyCondition = input.design.p === 2;
  const r = deseq2(
    input.values,
    input.design,
    input.coefficient,
    { singleTwoLevelFactor: onlyCondition },
    {
      progress: (s, f) => step(s, 0.1 + 0.85 * f),
    },
  );
  const G = r.baseMean.length;
  const aveExpr = new Float64Array(G);
  for (let g = 0; g < G; g++) aveExpr[g] = Math.log2(r.baseMean[g]! + 0.5);
  return {
    featureIds: input.featureIds,
    logFC: r.log2FoldChange,
    aveExpr,
    t: r.stat,
    pValue: r.pvalue,
    adjPValue: r.padj,
    b: new Float64Array(G).fill(NaN),
    report: {
      name: 'deseq2',
      ...info,
      statistic: 'wald_z',
      description:
        "DESeq2 (Love, Huber & Anders 2014) as DESeq() + results() with defaults: median-of-ratios size factors, Cox-Reid gene-wise dispersions, parametric dispersion trend, MAP shrinkage, negative-binomial GLM Wald test (no beta prior), Cook's-distance outliers (replaced and refitted with 7+ replicates), independent filtering at alpha 0.1, Benjamini-Hochberg. average_expression is log2(baseMean + 0.5).",
      features_tested: countFinite(r.pvalue),
      features_removed: { low_expression: 0, missing_values: input.removedMissing, not_estimable: 0 },
      missing_values: { cells: missingCells, policy: MISSING_POLICY },
      df_prior: NaN,
      s2_prior: NaN,
      normalization: {
        method: 'median-of-ratios',
        samples: input.sampleIds.map((s, j) => ({
          sample_id: s,
          lib_size: colSum(input.values, j),
          norm_factor: r.sizeFactors[j]!,
        })),
      },
      deseq2: {
        dispersion_trend: {
          type: r.trend.type,
          note: r.trend.note,
          ...(r.trend.asymptDisp !== undefined ? { asymptotic_dispersion: r.trend.asymptDisp } : {}),
          ...(r.trend.extraPois !== undefined ? { extra_poisson: r.trend.extraPois } : {}),
          ...(r.trend.mean !== undefined ? { mean: r.trend.mean } : {}),
        },
        prior_variance_log_dispersion: r.trend.priorVar,
        cooks_outliers: r.cooksOutliers,
        genes_refitted_after_outlier_replacement: r.refitted,
        not_converged: r.notConverged,
        independent_filtering: { alpha: 0.1, base_mean_threshold: r.filterThreshold },
      },
    },
  };
}

export function runEdgerQl(input: CompleteCounts, info: MethodInfo, missingCells: number, step: Step): DeTable {
  const r = edgerQl(input.values, input.design, input.coefficient, input.groupSizes, {
    progress: (s, f) => step(s, 0.1 + 0.85 * f),
  });
  const ids = input.featureIds.filter((_, i) => r.keep[i]);
  const G = ids.length;
  return {
    featureIds: ids,
    logFC: r.logFC,
    aveExpr: r.logCPM,
    t: r.F,
    pValue: r.pValue,
    adjPValue: r.fdr,
    b: new Float64Array(G).fill(NaN),
    report: {
      name: 'edger-ql',
      ...info,
      statistic: 'ql_f',
      description:
        'edgeR quasi-likelihood (Lund et al. 2012; Chen, Lun & Smyth 2016) as edgeR 3.40: filterByExpr, TMM, estimateDisp (adjusted profile likelihood: common and trended dispersions), glmQLFit (classic: QL dispersions squeezed towards an abundance trend), glmQLFTest, Benjamini-Hochberg. average_expression is logCPM; the t column holds the QL F statistic.',
      features_tested: G,
      features_removed: {
        low_expression: input.values.nrow - G,
        missing_values: input.removedMissing,
        not_estimable: 0,
      },
      missing_values: { cells: missingCells, policy: MISSING_POLICY },
      df_prior: r.dfPrior,
      s2_prior: r.s2PriorMedian,
      normalization: {
        method: 'TMM',
        samples: input.sampleIds.map((s, j) => ({
          sample_id: s,
          lib_size: r.libSize[j]!,
          norm_factor: r.normFactors[j]!,
        })),
      },
      edger: { common_dispersion: r.commonDispersion, df_prior: r.dfPrior, trend_span: r.span },
    },
  };
}

function countFinite(x: Float64Array): number {
  let c = 0;
  for (const v of x) if (Number.isFinite(v)) c++;
  return c;
}

function colSum(m: Matrix, j: number): number {
  let s = 0;
  for (let i = 0; i < m.nrow; i++) s += m.data[i * m.ncol + j]!;
  return s;
}
