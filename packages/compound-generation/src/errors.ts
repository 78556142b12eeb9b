// Typed errors. Every one is an EvidentError: a surface (the job API) maps it to its wire body by code, status
// and problems alone, without knowing this package.
import { EvidentError, INVALID_PARAMETERS, summarizeProblems, type EvidentErrorOptions } from '@evident/contract';

/** A problem with one field of a request, located by JSON pointer (e.g. "/constraints/mw_range"). */
export interface FieldProblem {
  path: string;
  message: string;
}

/** Base class: every engine error carries a stable machine-readable code. */
export class CompoundGenerationError extends EvidentError {
  constructor(code: string, message: string, options?: EvidentErrorOptions) {
    super(code, message, options);
  }
}

/** The SMILES could not be parsed or sanitized by RDKit (a caller's mistake: 400). */
export class InvalidSmilesError extends CompoundGenerationError {
  constructor(readonly smiles: string) {
    const shown = smiles.length > 120 ? `${smiles.slice(0, 120)}…` : smiles;
    super('invalid_smiles', `invalid SMILES: ${JSON.stringify(shown)}`, { status: 400 });
  }
}

/**
 * A generation request the engine refuses (formats, ranges, SMILES): the request does not match what the engine
 * accepts, so it carries the one code for that, `invalid_parameters`, and problems naming the fields.
 */
export class InvalidRequestError extends CompoundGenerationError {
  declare readonly problems: readonly FieldProblem[];

  constructor(problems: FieldProblem[]) {
    super(INVALID_PARAMETERS, summarizeProblems(problems, problems.length), { status: 400, problems });
  }
}

/** The run was aborted through its AbortSignal (not a caller's mistake, so no status). */
export class GenerationAbortedError extends CompoundGenerationError {
  constructor() {
    super('aborted', 'compound generation was aborted');
  }
}
