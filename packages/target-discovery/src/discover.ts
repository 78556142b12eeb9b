// The engine's entry point: CSV text in, results document out (summary, ranked targets, plots, full table).
import { TargetDiscoveryInputError } from './errors.js';
import { geneIndex } from './druggability/table.js';
import {
  ANNOTATION_COLUMNS,
  annotationFromColumns,
  FEATURE_ANNOTATION,
  type FeatureAnnotation,
  parseFeatureAnnotation,
} from './parse/annotation.js';
import { parseNumericTable } from './parse/matrix.js';
import { annotateDataset, type CollapseRule, type FeatureGenes } from './pipeline/annotate.js';
import { parseMetadata } from './parse/metadata.js';
import { buildDataset } from './pipeline/dataset.js';
import { buildDesign } from './pipeline/design.js';
import { differentialExpression, type DeTable, type RunHooks } from './pipeline/differential-expression.js';
import { detectDataType, type DataType } from './pipeline/detect.js';
import { chooseMethod, type DeMethod, type ResolvedMethod } from './pipeline/method.js';
import { filterByExpr } from './stats/filter-by-expr.js';
import { assembleResult } from './results/document.js';
import type { DiscoveryResult } from './results/types.js';

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
  /**
   * CSV/TSV text (the job service decodes the base64): a feature id column, then any of symbol, entrez_id,
   * ensembl_gene_id, uniprot. Resolves probe or transcript ids to genes.
   */
  feature_annotation?: string;
  /** Columns of the expression matrix that hold gene identifiers rather than samples. */
  annotation_columns?: string[];
  /** Several features of one gene: keep the one with the largest mean expression (default) or test all. */
  collapse?: CollapseRule;
  /** 'auto' (default: by data type), 'limma', 'limma-trend', 'voom', 'deseq2' or 'edger-ql'. */
  method?: DeMethod;
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

export type { Druggability, Target, DiscoverySummary, DiscoveryResult } from './results/types.js';

export const DEFAULTS = {
  min_fold_change: 1.5,
  max_pvalue: 0.05,
  pvalue_type: 'adjusted' as const,
  include_druggability: true,
  max_targets: 1000,
};

export function normaliseOptions(o: DiscoveryOptions = {}) {
  const minFc = o.min_fold_change ?? DEFAULTS.min_fold_change;
  const maxP = o.max_pvalue ?? DEFAULTS.max_pvalue;
  if (!(Number.isFinite(minFc) && minFc >= 1))
    throw new TargetDiscoveryInputError(
      'bad_option',
      'options.min_fold_change',
      `min_fold_change must be a linear fold change >= 1 (got ${minFc})`,
    );
  if (!(Number.isFinite(maxP) && maxP > 0 && maxP <= 1))
    throw new TargetDiscoveryInputError(
      'bad_option',
      'options.max_pvalue',
      `max_pvalue must be in (0, 1] (got ${maxP})`,
    );
  const pt = o.pvalue_type ?? DEFAULTS.pvalue_type;
  if (pt !== 'adjusted' && pt !== 'raw')
    throw new TargetDiscoveryInputError('bad_option', 'options.pvalue_type', `pvalue_type must be "adjusted" or "raw"`);
  const collapse = o.collapse ?? 'max_mean';
  if (collapse !== 'max_mean' && collapse !== 'none')
    throw new TargetDiscoveryInputError('bad_option', 'options.collapse', `collapse must be "max_mean" or "none"`);
  const annotationColumns = o.annotation_columns ?? [];
  if (!Array.isArray(annotationColumns) || annotationColumns.some((c) => typeof c !== 'string' || c === ''))
    throw new TargetDiscoveryInputError(
      'bad_option',
      ANNOTATION_COLUMNS,
      'annotation_columns must be a list of column names of the expression matrix',
    );
  return {
    include_druggability: o.include_druggability ?? DEFAULTS.include_druggability,
    min_fold_change: minFc,
    max_pvalue: maxP,
    pvalue_type: pt,
    covariates: o.covariates ?? [],
    max_targets: o.max_targets ?? DEFAULTS.max_targets,
    data_type: o.data_type,
    feature_annotation: o.feature_annotation,
    annotation_columns: annotationColumns,
    collapse,
    method: o.method ?? 'auto',
  };
}

/** Parse and validate everything that can be checked before the statistics (cheap relative to the fit). */
export function prepareDiscovery(req: DiscoveryRequest) {
  const opts = normaliseOptions(req.options);
  const meta = parseMetadata(req.metadata);
  const raw = parseNumericTable(req.expression_matrix, 'expression_matrix', opts.annotation_columns);
  const ds = buildDataset(raw, meta, {
    conditionColumn: req.condition_column,
    caseValue: req.case_value,
    controlValue: req.control_value,
    covariates: opts.covariates,
  });
  const annotation = readAnnotation(opts, raw.rowIds, raw.text, ds);
  const design = buildDesign(ds, req.condition_column, req.case_value, req.control_value);
  if (ds.featureIds.length < 2)
    throw new TargetDiscoveryInputError(
      'too_few_features',
      'expression_matrix',
      `the expression matrix has ${ds.featureIds.length} feature(s); need at least 2`,
    );
  return { opts, raw, ds, design, annotation };
}

/** The feature annotation the request gives, checked against the dataset's feature ids; undefined when none. */
function readAnnotation(
  opts: ReturnType<typeof normaliseOptions>,
  rowIds: readonly string[],
  text: ReadonlyMap<string, string[]>,
  ds: ReturnType<typeof buildDataset>,
): FeatureAnnotation | undefined {
  if (opts.feature_annotation !== undefined && opts.annotation_columns.length > 0)
    throw new TargetDiscoveryInputError(
      'bad_option',
      ANNOTATION_COLUMNS,
      'give options.feature_annotation or options.annotation_columns, not both',
    );
  if (opts.annotation_columns.length > 0) {
    if (ds.orientation !== 'features_in_rows')
      throw new TargetDiscoveryInputError(
        'bad_option',
        ANNOTATION_COLUMNS,
        'annotation_columns needs features in rows (the matrix has samples in rows)',
      );
    return annotationFromColumns(rowIds, text);
  }
  if (opts.feature_annotation === undefined) return undefined;
  const ann = parseFeatureAnnotation(opts.feature_annotation);
  if (!ds.featureIds.some((id) => ann.byFeature.has(id))) {
    const sample = [...ann.byFeature.keys()].slice(0, 3).join(', ');
    throw new TargetDiscoveryInputError(
      'no_feature_overlap',
      FEATURE_ANNOTATION,
      `no feature id of ${FEATURE_ANNOTATION} (${sample}, ...) is a feature of the expression matrix (${ds.featureIds.slice(0, 3).join(', ')}, ...); its first column (or one named id/probe_id/feature_id) must hold the matrix's feature ids`,
    );
  }
  return ann;
}

export interface DiscoveryCheck {
  features: number;
  samples: number;
  data_type: DataType;
  /** The method that will run. */
  method: ResolvedMethod;
  /** Features that would be tested (after filterByExpr for counts). */
  testable_features: number;
}

/**
 * Everything that can be refused before the job runs: parsing, sample matching, design, data type, and
 * (for counts) that at least two features pass filterByExpr. Linear in the input size.
 */
export function checkDiscovery(req: DiscoveryRequest): DiscoveryCheck {
  const { opts, ds } = prepareDiscovery(req);
  const choice = chooseMethod(opts.method, () => detectDataType(ds.values), opts.data_type, ds.values);
  const dataType = choice.dataType;
  let testable = ds.featureIds.length;
  if (choice.method === 'voom' || choice.method === 'edger-ql') {
    const nCase = ds.isCase.reduce((a, b) => a + b, 0);
    const keep = filterByExpr(ds.values, [nCase, ds.sampleIds.length - nCase]);
    testable = keep.reduce((a, b) => a + b, 0);
    if (testable < 2)
      throw new TargetDiscoveryInputError(
        'too_few_features',
        'expression_matrix',
        `only ${testable} feature(s) pass filterByExpr (at least 10 counts per million-equivalent in enough samples); need at least 2`,
      );
  }
  return {
    features: ds.featureIds.length,
    samples: ds.sampleIds.length,
    data_type: dataType,
    method: choice.method,
    testable_features: testable,
  };
}

export function discoverTargets(req: DiscoveryRequest, hooks: RunHooks = {}): DiscoveryResult {
  return runDiscovery(req, hooks).result;
}

/**
 * discoverTargets with what it computed on the way: the DE table (with the fit's inputs for the limma pipelines)
 * and the feature-to-gene map, from which `fitContextOf(run.de, run.features.geneOf)` builds enrichment's context.
 */
export function runDiscovery(
  req: DiscoveryRequest,
  hooks: RunHooks = {},
): { result: DiscoveryResult; de: DeTable; features: FeatureGenes } {
  hooks.progress?.('parsing input', 0);
  const prepared = prepareDiscovery(req);
  const { opts, raw, design } = prepared;
  hooks.progress?.('annotating features', 0.03);
  const { ds, features } = annotateDataset(prepared.ds, geneIndex(), prepared.annotation, opts.collapse);
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
      method: opts.method,
    },
    {
      signal: hooks.signal,
      progress: (s, f) => hooks.progress?.(s, 0.05 + 0.8 * f),
    },
  );
  hooks.progress?.('ranking targets', 0.88);
  const result = assembleResult({ req, opts, raw, ds, design, de, features });
  hooks.progress?.('done', 1);
  return { result, de, features };
}
