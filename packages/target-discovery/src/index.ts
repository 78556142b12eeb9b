// @evident/target-discovery: differential expression (limma, voom, DESeq2, edgeR-QL, TMM, BH), druggability and ranked targets.
export * from './errors.js';
export * from './discover.js';
export { decodeBase64Text, detectDelimiter, parseRows } from './parse/text.js';
export { parseNumericTable, type RawTable } from './parse/matrix.js';
export { parseMetadata, type Metadata } from './parse/metadata.js';
export { parseFeatureAnnotation, type FeatureAnnotation } from './parse/annotation.js';
export {
  annotateDataset,
  resolveFeatures,
  type AnnotationReport,
  type CollapseRule,
  type FeatureGenes,
} from './pipeline/annotate.js';
export { buildDataset, type Dataset, type ExcludedSample } from './pipeline/dataset.js';
export { buildDesign } from './pipeline/design.js';
export { detectDataType, type DataType } from './pipeline/detect.js';
export { chooseMethod, DE_METHODS, type DeMethod, type ResolvedMethod, type MethodChoice } from './pipeline/method.js';
export { deseq2, type Deseq2Result, type Deseq2Options } from './de/deseq2/index.js';
export { sizeFactorsMedianOfRatios } from './de/deseq2/size-factors.js';
export { edgerQl, type EdgerQlOptions, type EdgerQlResult } from './de/edger/index.js';
export {
  differentialExpression,
  type DeTable,
  type PipelineReport,
  type RunHooks,
} from './pipeline/differential-expression.js';
export { lmFit, type Design, type LinearFit } from './stats/lmfit.js';
export { eBayes, fitFDist, squeezeVar, tmixture, type ModeratedStats } from './stats/ebayes.js';
export { voom } from './stats/voom.js';
export { calcNormFactorsTMM } from './stats/tmm.js';
export { filterByExpr } from './stats/filter-by-expr.js';
export { lowess, approxFun } from './stats/lowess.js';
export { adjustBH } from './stats/bh.js';
export { trigammaInverse } from './stats/special.js';
export { matrix, subsetRows, columnSums, type Matrix } from './stats/matrix.js';
export {
  geneIndex,
  buildIndex,
  type GeneRecord,
  type GeneIndex,
  type GeneIdKind,
  type TargetFamily,
  type TierSource,
} from './druggability/table.js';
export { priorityScore, TIER_WEIGHT, SAFETY_PENALTY } from './results/priority.js';
export { tableToCsv, TABLE_COLUMNS, type FeatureTable, type TableRow } from './results/table.js';
export { volcanoSvg, maSvg, type PlotPoint } from './plots/scatter.js';
export { syntheticStudy, syntheticCounts, negBinomial, rng, type SyntheticStudy } from './examples/synthetic.js';
export {
  enrich,
  fitContextOf,
  parseGmt,
  goGeneSets,
  ENRICHMENT_METHODS,
  ENRICHMENT_DEFAULTS,
  GO_COLLECTIONS,
  GMT_COLLECTION,
  type EnrichmentMethod,
  type EnrichmentOptions,
  type EnrichmentRow,
  type EnrichmentResult,
  type FitContext,
  type GeneSet,
  type GoCollection,
} from './enrichment/index.js';
export type { FitData } from './pipeline/differential-expression.js';
