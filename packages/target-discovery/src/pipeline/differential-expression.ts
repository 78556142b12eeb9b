// Runs the pipeline that matches the data type and returns one row of statistics per tested feature.
import { TargetDiscoveryInputError } from '../errors.js';
import { adjustBH } from '../stats/bh.js';
import { eBayes, type ModeratedStats } from '../stats/ebayes.js';
import { filterByExpr } from '../stats/filter-by-expr.js';
import { lmFit, type Design, type LinearFit } from '../stats/lmfit.js';
import { columnSums, subsetRows, type Matrix } from '../stats/matrix.js';
import { calcNormFactorsTMM } from '../stats/tmm.js';
import { median } from '../stats/summary.js';
import { voom } from '../stats/voom.js';
import { detectDataType, type DataType, type DataTypeEvidence } from './detect.js';
import { chooseMethod, type DeMethod, type ResolvedMethod } from './method.js';
import { runDeseq2, runEdgerQl, completeCountRows } from './count-methods.js';
import { type Step, stepper } from '../de/run-checks.js';
import type { RunHooks } from '@evident/contract';

export type PipelineName = 'limma' | 'limma-voom' | 'limma-trend' | 'deseq2' | 'edger-ql';

export interface PipelineReport {
  name: PipelineName;
  /** The method that ran (options.method, or what auto chose). */
  method: ResolvedMethod;
  /** Why: the request, or for auto the data-type evidence behind the choice. */
  method_reason: string;
  /** What the table's `t` column holds: limma's moderated t, DESeq2's Wald z or edgeR's quasi-likelihood F. */
  statistic: 't' | 'wald_z' | 'ql_f';
  data_type: DataType;
  description: string;
  detection: DataTypeEvidence;
  features_input: number;
  features_tested: number;
  /** Features removed before testing and why. */
  features_removed: { low_expression: number; missing_values: number; not_estimable: number };
  missing_values: { cells: number; policy: string };
  df_prior: number;
  /** Prior variance (the median across features when limma-trend fitted a trend). */
  s2_prior: number;
  normalization?: {
    method: 'TMM' | 'median-of-ratios';
    samples: Array<{ sample_id: string; lib_size: number; norm_factor: number }>;
  };
  /** DESeq2's dispersion trend, outlier handling and independent-filtering threshold. */
  deseq2?: {
    dispersion_trend: {
      type: string;
      note: string;
      asymptotic_dispersion?: number;
      extra_poisson?: number;
      mean?: number;
    };
    prior_variance_log_dispersion: number;
    cooks_outliers: number;
    genes_refitted_after_outlier_replacement: number;
    not_converged: number;
    independent_filtering: { alpha: number; base_mean_threshold: number };
  };
  /** edgeR's common dispersion, QL prior df and the trend's span. */
  edger?: { common_dispersion: number; df_prior: number; trend_span: number };
}

/** The linear model's inputs for the limma pipelines (enrichment's camera and fry refit each row from them). */
export interface FitData {
  /** The tested rows' values as fitted (log-scale; voom's log2-CPM; limma-trend's log2(x + 1)), rows x samples. */
  values: Matrix;
  /** voom's precision weights, rows x samples. */
  weights?: Matrix;
  design: Design;
  /** The tested coefficient's column. */
  coefficient: number;
}

export interface DeTable {
  featureIds: string[];
  logFC: Float64Array;
  aveExpr: Float64Array;
  t: Float64Array;
  pValue: Float64Array;
  adjPValue: Float64Array;
  b: Float64Array;
  report: PipelineReport;
  /** Absent for DESeq2 and edgeR-QL. */
  fitData?: FitData;
}

// The one hooks shape of every Evident engine: progress as a fraction 0..1, and a signal to stop the run.
export type { RunHooks } from '@evident/contract';

export interface DeInput {
  featureIds: string[];
  sampleIds: string[];
  values: Matrix;
  design: Design;
  coefficient: number;
  /** Sizes of the compared groups (filterByExpr's minimum group size). */
  groupSizes: number[];
  /** Force a pipeline instead of detecting it. */
  dataType?: DataType;
  /** options.method: 'auto' (by data type) or a named method. */
  method?: DeMethod;
}

export function differentialExpression(input: DeInput, hooks: RunHooks = {}): DeTable {
  const step = stepper(hooks);
  step('detecting data type', 0.05);
  const choice = chooseMethod(input.method, () => detectDataType(input.values), input.dataType, input.values);
  const detection = choice.detection;
  const dataType = choice.dataType;
  const methodInfo = {
    method: choice.method,
    method_reason: choice.reason,
    data_type: dataType,
    detection,
    features_input: input.values.nrow,
  };
  if (choice.method === 'deseq2' || choice.method === 'edger-ql') {
    const run = choice.method === 'deseq2' ? runDeseq2 : runEdgerQl;
    return run(completeCountRows(input), methodInfo, countNaN(input.values.data), step);
  }
  const G = input.values.nrow;
  const missingCells = countNaN(input.values.data);
  const removed = { low_expression: 0, missing_values: 0, not_estimable: 0 };
  const fitted =
    choice.method === 'voom'
      ? runVoom(input, removed, step)
      : runLimma(input, choice.method === 'limma-trend', removed, step);
  const { name, policy, description, ids, fit, fitData, stats, normalization } = fitted;
  step('multiple-testing correction', 0.95);
  const adj = adjustBH(stats.pValue);
  return {
    featureIds: ids,
    logFC: stats.logFC,
    aveExpr: fit.amean,
    t: stats.t,
    pValue: stats.pValue,
    adjPValue: adj,
    b: stats.b,
    report: {
      name,
      method: choice.method,
      method_reason: choice.reason,
      statistic: 't',
      data_type: dataType,
      description,
      detection,
      features_input: G,
      features_tested: ids.length,
      features_removed: removed,
      missing_values: { cells: missingCells, policy },
      df_prior: stats.dfPrior,
      s2_prior: median(stats.s2Prior),
      ...(normalization ? { normalization } : {}),
    },
    fitData,
  };
}

/** What one of the limma pipelines fitted, and how it describes itself in the report. */
interface LimmaRun {
  name: PipelineName;
  policy: string;
  description: string;
  ids: string[];
  fit: LinearFit;
  fitData: FitData;
  stats: ModeratedStats;
  normalization?: PipelineReport['normalization'];
}

type Removed = { low_expression: number; missing_values: number; not_estimable: number };

/** limma-voom: complete counts, filterByExpr, TMM, voom weights, weighted linear models, eBayes. */
function runVoom(input: DeInput, removed: Removed, step: Step): LimmaRun {
  const policy = 'voom needs complete counts: features with any missing count are left out';
  let ids = input.featureIds;
  let counts = input.values;
  const G = counts.nrow;
  const complete = rowsWithoutNaN(counts);
  removed.missing_values = G - complete.count;
  if (complete.count < G) {
    counts = subsetRows(counts, complete.mask);
    ids = ids.filter((_, i) => complete.mask[i]);
  }
  step('filtering low counts (filterByExpr)', 0.1);
  const keep = filterByExpr(counts, input.groupSizes);
  let kept = 0;
  for (const k of keep) kept += k;
  removed.low_expression = counts.nrow - kept;
  if (kept < 2)
    throw new TargetDiscoveryInputError(
      'too_few_features',
      'expression_matrix',
      `only ${kept} feature(s) pass filterByExpr (at least 10 counts per million-equivalent in enough samples); need at least 2`,
    );
  counts = subsetRows(counts, keep);
  ids = ids.filter((_, i) => keep[i]);
  step('TMM normalisation', 0.2);
  const lib = columnSums(counts);
  const tmm = calcNormFactorsTMM(counts, lib);
  const eff = lib.map((l, j) => l * tmm.normFactors[j]!);
  const normalization: PipelineReport['normalization'] = {
    method: 'TMM',
    samples: input.sampleIds.map((s, j) => ({ sample_id: s, lib_size: lib[j]!, norm_factor: tmm.normFactors[j]! })),
  };
  step('voom precision weights', 0.35);
  const v = voom(counts, input.design, eff);
  step('weighted linear models', 0.6);
  const fit = lmFit(v.E, input.design, v.weights);
  const fitData: FitData = { values: v.E, weights: v.weights, design: input.design, coefficient: input.coefficient };
  step('empirical Bayes moderation', 0.85);
  const stats = eBayes(fit, input.coefficient);
  const description =
    'edgeR filterByExpr (min.count 10, min.total.count 15), TMM normalisation, voom log2-CPM with lowess mean-variance precision weights, weighted limma linear models, empirical Bayes moderated t (Smyth 2004), Benjamini-Hochberg';
  return { name: 'limma-voom', policy, description, ids, fit, fitData, stats, normalization };
}

/** limma (log-scale values) or limma-trend (log2(x + 1) and an intensity-dependent prior): linear models, eBayes. */
function runLimma(input: DeInput, trend: boolean, removed: Removed, step: Step): LimmaRun {
  const policy =
    "missing values are left out of each feature's fit (as limma does); features without an estimable effect are left out";
  let y = input.values;
  if (trend) {
    const d = new Float64Array(y.data.length);
    for (let i = 0; i < d.length; i++) d[i] = Math.log2(y.data[i]! + 1);
    y = { nrow: y.nrow, ncol: y.ncol, data: d };
  }
  step('linear models', 0.3);
  let ids = input.featureIds;
  let fit = lmFit(y, input.design);
  const ok = new Uint8Array(fit.nGenes);
  let nOk = 0;
  for (let g = 0; g < fit.nGenes; g++) {
    const c = fit.coefficients[g * fit.p + input.coefficient];
    const estimable = Number.isFinite(c) && fit.dfResidual[g]! > 0 && Number.isFinite(fit.sigma[g]) ? 1 : 0;
    ok[g] = estimable;
    nOk += estimable;
  }
  removed.not_estimable = fit.nGenes - nOk;
  if (nOk < 2)
    throw new TargetDiscoveryInputError(
      'too_few_features',
      'expression_matrix',
      `only ${nOk} feature(s) have enough non-missing values in both groups to be tested; need at least 2`,
    );
  if (nOk < fit.nGenes) {
    fit = subsetFit(fit, ok);
    ids = ids.filter((_, i) => ok[i]);
    y = subsetRows(y, ok);
  }
  const fitData: FitData = { values: y, design: input.design, coefficient: input.coefficient };
  step('empirical Bayes moderation', 0.8);
  const stats = eBayes(fit, input.coefficient, { trend });
  const description = trend
    ? 'log2(x + 1) of unlogged expression (TPM/FPKM-like), limma linear models, empirical Bayes with an intensity-dependent prior variance (limma-trend), Benjamini-Hochberg'
    : 'limma linear models on log-scale expression, empirical Bayes moderated t (Smyth 2004), B-statistic, Benjamini-Hochberg';
  return { name: trend ? 'limma-trend' : 'limma', policy, description, ids, fit, fitData, stats };
}

export function countNaN(d: Float64Array): number {
  let c = 0;
  for (let i = 0; i < d.length; i++) if (Number.isNaN(d[i])) c++;
  return c;
}

export function rowsWithoutNaN(m: Matrix): { mask: Uint8Array; count: number } {
  const mask = new Uint8Array(m.nrow);
  let count = 0;
  for (let i = 0; i < m.nrow; i++) {
    let ok = 1;
    for (let j = 0; j < m.ncol; j++)
      if (Number.isNaN(m.data[i * m.ncol + j])) {
        ok = 0;
        break;
      }
    mask[i] = ok;
    count += ok;
  }
  return { mask, count };
}

function subsetFit(fit: LinearFit, ok: Uint8Array): LinearFit {
  const idx: number[] = [];
  ok.forEach((v, i) => {
    if (v) idx.push(i);
  });
  const p = fit.p;
  const pick = (a: Float64Array, w: number) => {
    const out = new Float64Array(idx.length * w);
    idx.forEach((g, r) => {
      out.set(a.subarray(g * w, g * w + w), r * w);
    });
    return out;
  };
  return {
    nGenes: idx.length,
    p,
    coefficients: pick(fit.coefficients, p),
    stdevUnscaled: pick(fit.stdevUnscaled, p),
    sigma: pick(fit.sigma, 1),
    dfResidual: pick(fit.dfResidual, 1),
    amean: pick(fit.amean, 1),
  };
}
