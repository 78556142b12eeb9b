// Job kind 'td': target discovery (POST /v1/targets/discover) on @evident/target-discovery.
import { InvalidParametersError } from '../../errors.js';
import {
  checkDiscovery,
  decodeBase64Text,
  ENRICHMENT_METHODS,
  enrich,
  fitContextOf,
  geneIndex,
  normaliseOptions,
  parseGmt,
  runDiscovery,
  tableToCsv,
  type EnrichmentOptions,
  type EnrichmentResult,
  type DataType,
  type ResolvedMethod,
  type DiscoveryRequest,
  type DiscoveryResult,
} from '@evident/target-discovery';
import type { JobKind } from '../job-kind.js';
import { enrichmentToCsv } from './enrichment-csv.js';
import { enrichmentDotPlotSvg } from './enrichment-plot.js';
import { summarizeDiscovery } from './summary.js';
import { TdRequest } from './schema.js';
import { estimateTdSeconds } from './cost.js';

export { TdRequest } from './schema.js';

/** What is stored with the job: the decoded CSV text and the resolved options (a retry needs nothing else). */
export interface TdInput {
  request: DiscoveryRequest;
  /** options.enrichment with the GMT decoded; absent when the request asks for none. */
  enrichment?: EnrichmentOptions;
  shape: { features: number; samples: number; data_type: DataType; method?: ResolvedMethod; testable_features: number };
}

/** The discovery document, with `enrichment` when the request asked for it (its warnings also in summary.warnings). */
export type TdResult = DiscoveryResult & { enrichment?: EnrichmentResult & { dot_plot_svg: string | null } };

/** options.enrichment checked (what the schema cannot say) and its GMT decoded and parsed, so a bad one is a 400. */
function prepareEnrichment(
  o: NonNullable<NonNullable<TdRequest['options']>['enrichment']>,
  method: string | undefined,
): EnrichmentOptions {
  // camera and fry refit limma's linear model; DESeq2 and edgeR-QL have none (R's camera and fry take a limma fit's
  // values and design): asked for by name on such a run they are refused now, not left out of the results
  const named = (o.methods ?? []).filter((m) => m === 'camera' || m === 'fry');
  if ((method === 'deseq2' || method === 'edger-ql') && named.length > 0)
    throw new InvalidParametersError([
      {
        path: '/options/enrichment/methods',
        message: `${named.join(' and ')} need a limma linear model (methods limma, limma-trend, voom); the ${method} method has none: ask for goana alone, or use method voom`,
      },
    ]);
  const min = o.min_size ?? 15;
  const max = o.max_size ?? 500;
  if (min > max)
    throw new InvalidParametersError([
      { path: '/options/enrichment/max_size', message: `max_size (${max}) must be at least min_size (${min})` },
    ]);
  if (o.collections !== undefined && o.collections.length === 0 && o.gene_sets === undefined)
    throw new InvalidParametersError([
      { path: '/options/enrichment/collections', message: 'no gene set to test: give collections, gene_sets or both' },
    ]);
  const out: EnrichmentOptions = { ...o, min_size: min, max_size: max };
  if (o.gene_sets !== undefined) {
    const field = 'options.enrichment.gene_sets';
    out.gene_sets = decodeBase64Text(o.gene_sets, field);
    parseGmt(out.gene_sets, geneIndex(), field); // refuses an empty or malformed GMT now, not in the job
  }
  return out;
}

// The engine's TargetDiscoveryInputError (status 400, problems by JSON pointer) is the job API's answer as it is.
export const tdKind: JobKind<TdRequest, TdInput, TdResult> = {
  id: 'td',
  route: '/v1/targets/discover',
  acceptedWithWebhookUrl: true,
  requestSchema: TdRequest,
  prepare(req) {
    const o = req.options ?? {};
    const request: DiscoveryRequest = {
      expression_matrix: decodeBase64Text(req.expression_matrix, 'expression_matrix'),
      metadata: decodeBase64Text(req.metadata, 'metadata'),
      condition_column: req.condition_column,
      case_value: req.case_value,
      control_value: req.control_value,
      options: {
        include_druggability: o.include_druggability,
        min_fold_change: o.min_fold_change,
        max_pvalue: o.max_pvalue,
        pvalue_type: o.pvalue_type,
        covariates: o.covariates,
        feature_annotation:
          o.feature_annotation === undefined
            ? undefined
            : decodeBase64Text(o.feature_annotation, 'options.feature_annotation'),
        annotation_columns: o.annotation_columns,
        collapse: o.collapse,
        method: o.method,
      },
    };
    const resolved = normaliseOptions(request.options);
    request.options = {
      include_druggability: resolved.include_druggability,
      min_fold_change: resolved.min_fold_change,
      max_pvalue: resolved.max_pvalue,
      pvalue_type: resolved.pvalue_type,
      covariates: resolved.covariates,
      feature_annotation: resolved.feature_annotation,
      annotation_columns: resolved.annotation_columns,
      collapse: resolved.collapse,
      method: resolved.method,
    };
    const shape = checkDiscovery(request);
    return o.enrichment === undefined
      ? { request, shape }
      : { request, shape, enrichment: prepareEnrichment(o.enrichment, resolved.method) };
  },
  estimateSeconds(input) {
    return estimateTdSeconds(
      input.shape,
      input.enrichment ? (input.enrichment.methods ?? ENRICHMENT_METHODS) : undefined,
    );
  },
  async run(input, ctx) {
    const share = input.enrichment ? 0.85 : 1; // the fit's share of the progress bar
    const run = runDiscovery(input.request, {
      signal: ctx.signal,
      progress: (stage, fraction) =>
        ctx.progress(
          stage === 'done' && input.enrichment ? 'gene-set enrichment' : stage,
          Math.round(fraction * share * 100),
        ),
    });
    if (!input.enrichment) return run.result;
    const enrichment = enrich(fitContextOf(run.de, run.features.geneOf), input.enrichment);
    ctx.progress('done', 100);
    const result: TdResult = {
      ...run.result,
      enrichment: { ...enrichment, dot_plot_svg: enrichmentDotPlotSvg(enrichment.rows) },
    };
    result.summary.warnings.push(...enrichment.warnings.map((w) => `enrichment: ${w}`));
    return result;
  },
  summarize: summarizeDiscovery,
  toCsv(result) {
    return tableToCsv(result.table);
  },
  toEnrichmentCsv(result) {
    return result.enrichment ? enrichmentToCsv(result.enrichment.rows) : null;
  },
  targetsOf(result) {
    return result.targets.map((t) => ({ ...t }));
  },
};
