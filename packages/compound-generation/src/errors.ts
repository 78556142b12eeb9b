/** A problem with one field of a request, located by JSON pointer (e.g. "/constraints/mw_range"). */
export interface FieldProblem {
  path: string;
  message: string;
}

/** Base class: every engine error carries a stable machine-readable code. */
export class CompoundGenerationError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The SMILES could not be parsed or sanitized by RDKit. */
export class InvalidSmilesError extends CompoundGenerationError {
  constructor(readonly smiles: string) {
    super('invalid_smiles', `invalid SMILES: ${JSON.stringify(smiles.length > 120 ? smiles.slice(0, 120) + '…' : smiles)}`);
  }
}

/** A generation request the engine refuses; problems name the fields. */
export class InvalidRequestError extends CompoundGenerationError {
  constructor(readonly problems: FieldProblem[]) {
    super('invalid_request', problems.map((p) => `${p.path}: ${p.message}`).join('; '));
  }
}

/** The run was aborted through its AbortSignal. */
export class GenerationAbortedError extends CompoundGenerationError {
  constructor() {
    super('aborted', 'compound generation was aborted');
  }
}
