// The package's errors: an input that is not what a function takes (status 400, the field named as a JSON
// pointer), so a caller's surface reports it like any other Evident validation error, and an SVD that failed its
// own check. GRAPH_ERRORS is the one table of their codes (the README's is checked against it, with every code
// thrown in src); an error takes its status from it.
import { defineCatalogue, EvidentError, type Problem, statusOf } from '@evident/contract';

export const GRAPH_ERRORS = defineCatalogue({
  invalid_parameters: { status: 400, meaning: 'an input a function does not take, the field as a JSON pointer' },
  svd_failed: {
    status: null,
    meaning: 'the SVD could not produce pairs that pass its own check on A, even after a rerun (ours: a 500)',
  },
});

export class GraphInputError extends EvidentError {
  constructor(path: string, message: string) {
    const problems: Problem[] = [{ path, message }];
    super('invalid_parameters', `${path}: ${message}`, {
      status: statusOf(GRAPH_ERRORS, 'invalid_parameters'),
      problems,
    });
  }
}

/**
 * The SVD could not produce pairs that pass its own check on A (orthonormal vectors, residuals as computed), even
 * after a rerun with full re-orthogonalisation: it refuses rather than return values that need not be singular
 * values. Our fault, not the caller's (no status: a surface answers 500).
 */
export class SvdFailedError extends EvidentError {
  /** Products with the matrix the failed attempt took. */
  readonly products: number;

  constructor(message: string, products = 0) {
    super('svd_failed', message);
    this.products = products;
  }
}
