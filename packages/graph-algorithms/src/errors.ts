// The package's one error: an input that is not what a function takes (status 400, the field named as a JSON
// pointer), so a caller's surface reports it like any other Evident validation error.
import { EvidentError, type Problem } from '@evident/contract';

export class GraphInputError extends EvidentError {
  constructor(path: string, message: string) {
    const problems: Problem[] = [{ path, message }];
    super('invalid_parameters', `${path}: ${message}`, { status: 400, problems });
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
