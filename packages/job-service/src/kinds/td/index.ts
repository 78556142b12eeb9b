// Job kind 'td': target discovery (POST /v1/targets/discover) on @evident/target-discovery.
import {
  checkDiscovery,
  decodeBase64Text,
  discoverTargets,
  normaliseOptions,
  tableToCsv,
  type DataType,
  type ResolvedMethod,
  type DiscoveryRequest,
  type DiscoveryResult,
} from '@evident/target-discovery';
import type { JobKind } from '../job-kind.js';
import { summarizeDiscovery } from './summary.js';
import { TdRequest } from './schema.js';
import { estimateTdSeconds } from './cost.js';

export { TdRequest } from './schema.js';

/** What is stored with the job: the decoded CSV text and the resolved options (a retry needs nothing else). */
export interface TdInput {
  request: DiscoveryRequest;
  shape: { features: number; samples: number; data_type: DataType; method?: ResolvedMethod; testable_features: number };
}

// The engine's TargetDiscoveryInputError (status 400, problems by JSON pointer) is the job API's answer as it is.
export const tdKind: JobKind<TdRequest, TdInput, DiscoveryResult> = {
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
    return { request, shape };
  },
  estimateSeconds(input) {
    return estimateTdSeconds(input.shape);
  },
  async run(input, ctx) {
    return discoverTargets(input.request, {
      signal: ctx.signal,
      progress: (stage, fraction) => ctx.progress(stage, Math.round(fraction * 100)),
    });
  },
  summarize: summarizeDiscovery,
  toCsv(result) {
    return tableToCsv(result.table);
  },
  targetsOf(result) {
    return result.targets.map((t) => ({ ...t }));
  },
};
