// Typed errors. Services map `field` (a dotted/pointer-ish hint) and `code` to their own error shapes.

/** Codes are stable: clients and the job adapter switch on them. */
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
  | 'bad_option';

/** Bad input: names the input (`field`: expression_matrix, metadata, condition_column, ...) and the problem. */
export class TargetDiscoveryInputError extends Error {
  constructor(
    readonly code: TdErrorCode,
    /** Which input is wrong: 'expression_matrix', 'metadata', 'condition_column', 'case_value', 'control_value', 'options.covariates', ... */
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'TargetDiscoveryInputError';
  }
}
