// What the count-based methods (DESeq2, edgeR QL) check and report the same way before they fit.
import type { RunHooks } from '@evident/contract';
import { TargetDiscoveryInputError } from '../errors.js';

/** A progress step: stops when the run is aborted, else reports `stage` at fraction `f`. */
export type Step = (stage: string, f: number) => void;

export function stepper(hooks: RunHooks): Step {
  return (stage, f) => {
    hooks.signal?.throwIfAborted();
    hooks.progress?.(stage, f);
  };
}

/** A design with as many coefficients as samples leaves no residual degrees of freedom to estimate dispersions. */
export function checkResidualDf(samples: number, coefficients: number, method: string): void {
  if (samples <= coefficients)
    throw new TargetDiscoveryInputError(
      'too_few_samples',
      'metadata',
      `the design has as many coefficients (${coefficients}) as samples (${samples}): no residual degrees of freedom, so ${method} cannot estimate dispersions`,
    );
}
