// Typed errors. Every one is an EvidentError: a surface (the job API) maps it to its wire body by code, status
// and problems alone, without knowing this package.
import {
  EvidentError,
  INVALID_PARAMETERS,
  statusOf,
  summarizeProblems,
  type EvidentErrorOptions,
} from '@evident/contract';
import { COMPOUND_GENERATION_ERRORS, type CompoundGenerationCode } from './error-codes.js';

/** A problem with one field of a request, located by JSON pointer (e.g. "/constraints/mw_range"). */
export interface FieldProblem {
  path: string;
  message: string;
}

/**
 * Base class: every engine error carries a stable machine-readable code of COMPOUND_GENERATION_ERRORS, and its
 * status is the table's (a status in `options` is replaced by it).
 */
export class CompoundGenerationError extends EvidentError {
  constructor(code: CompoundGenerationCode, message: string, options: EvidentErrorOptions = {}) {
    const { status: _given, ...rest } = options;
    const status = statusOf(COMPOUND_GENERATION_ERRORS, code);
    super(code, message, { ...rest, ...(status === undefined ? {} : { status }) });
  }
}

/** The SMILES could not be parsed or sanitized by RDKit (a caller's mistake: 400). */
export class InvalidSmilesError extends CompoundGenerationError {
  constructor(readonly smiles: string) {
    const shown = smiles.length > 120 ? `${smiles.slice(0, 120)}…` : smiles;
    super('invalid_smiles', `invalid SMILES: ${JSON.stringify(shown)}`);
  }
}

/**
 * A generation request the engine refuses (formats, ranges, SMILES): the request does not match what the engine
 * accepts, so it carries the one code for that, `invalid_parameters`, and problems naming the fields.
 */
export class InvalidRequestError extends CompoundGenerationError {
  declare readonly problems: readonly FieldProblem[];

  /** `cause`: e.g. the WebAssembly trap a SMILES provoked (the RDKit instance is then unusable). */
  constructor(problems: FieldProblem[], options: { cause?: unknown } = {}) {
    super(INVALID_PARAMETERS, summarizeProblems(problems, problems.length), { problems, ...options });
  }
}

/** The run was aborted through its AbortSignal (not a caller's mistake, so no status). */
export class GenerationAbortedError extends CompoundGenerationError {
  constructor() {
    super('aborted', 'compound generation was aborted');
  }
}

// The lib settings have no WebAssembly types; the constructor is Node's own.
const WasmRuntimeError = (globalThis as unknown as { WebAssembly: { RuntimeError: abstract new () => Error } })
  .WebAssembly.RuntimeError;

/**
 * A trap of a WebAssembly module (RDKit's): out-of-bounds access, unreachable, stack exhaustion. After one, the
 * module's memory is suspect, so the instance must not be used again.
 */
export function isWasmTrap(e: unknown): boolean {
  return e instanceof WasmRuntimeError;
}
