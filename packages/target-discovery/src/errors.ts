// Typed errors. Every one is an EvidentError: a surface (the job API) maps it to its wire body by code, status
// and problems alone, without knowing this package. TD_ERRORS is the one table of its codes (the README's is
// checked against it, with every code thrown in src); an error takes its status from it.
import { defineCatalogue, EvidentError, fieldToPointer, statusOf } from '@evident/contract';

const input = (meaning: string) => ({ status: 400, meaning });

// Deliberate likeness: every package's catalogue has this shape (code → status and meaning, by defineCatalogue),
// which the duplicates tool pairs across packages; the rows are this package's own.
/** The engine's codes: code → HTTP status and meaning. Codes are stable: clients and the job API switch on them. */
export const TD_ERRORS = defineCatalogue({
  bad_encoding: input('an input that is empty, not valid base64, or not UTF-8 text once decoded'),
  unparsable_csv: input('a table that cannot be read as CSV or TSV (ragged rows, no header, past its limits)'),
  missing_column: input('a column the request names (condition, covariate, id, annotation) that is absent'),
  bad_group_values: input('case and control values missing from the condition column, equal, or with no samples'),
  too_few_samples: input('too few samples per group, or a design with no residual degrees of freedom'),
  no_sample_overlap: input('no sample id of the matrix is in the metadata'),
  duplicate_ids: input('a feature or sample id that appears twice'),
  non_numeric: input('a matrix value that is not a number'),
  negative_counts: input('negative values in a matrix read as counts'),
  too_few_features: input('fewer than 2 features to fit or test (after filtering), or none usable'),
  bad_design: input(
    'a covariate that is the condition column, or covariates confounded with it or each other (not of full rank)',
  ),
  bad_option: input('an option out of range or not one of its values, named by its field'),
  no_feature_overlap: input('the feature annotation and the matrix share no feature ids'),
  bad_gene_sets: input('a gene-set file (GMT) for enrichment that cannot be read'),
});

export type TdErrorCode = keyof typeof TD_ERRORS;

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
    super(code, message, { status: statusOf(TD_ERRORS, code), problems: [{ path: fieldToPointer(field), message }] });
  }
}
