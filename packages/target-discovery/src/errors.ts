// Typed errors. Every one is an EvidentError: a surface (the job API) maps it to its wire body by code, status
// and problems alone, without knowing this package.
import { EvidentError, fieldToPointer } from '@evident/contract';

/** Codes are stable: clients and the job API switch on them. */
export type TdErrorCode =
  | 'bad_encoding'
  | 'unparsable_csv'
  | 'missing_column'
  | 'bad_group_values'
  | 'too_few_samples'
  | 'no_sample_overlap'
  | 'duplicate_ids'
  | 'non_numeric'
  | 'negative_counts'
  | 'too_few_features'
  | 'bad_design'
  | 'bad_option'
  | 'no_feature_overlap'
  | 'bad_gene_sets';

/**
 * Bad input (status 400): names the input (`field`: expression_matrix, metadata, condition_column, ...) and the
 * problem; `problems` locates it by JSON pointer into the request (`options.covariates` → `/options/covariates`).
 */
export class TargetDiscoveryInputError extends EvidentError {
  declare readonly code: TdErrorCode;

  constructor(
    code: TdErrorCode,
    /** Which input is wrong: 'expression_matrix', 'metadata', 'condition_column', 'case_value', 'control_value', 'options.covariates', ... */
    readonly field: string,
    message: string,
  ) {
    super(code, message, { status: 400, problems: [{ path: fieldToPointer(field), message }] });
  }
}
