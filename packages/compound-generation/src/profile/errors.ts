// The errors of scoring profiles. Both are EvidentErrors with stable codes: a profile the engine refuses is the
// caller's mistake (400, with every problem located by a JSON pointer into the scoring document), a user's
// external scorer that fails is a failure of the run, named by what went wrong.
import { summarizeProblems } from '@evident/contract';
import { CompoundGenerationError, type FieldProblem } from '../errors.js';

/**
 * A scoring profile that cannot be loaded: unknown component or transform, bad parameter, malformed SMILES or
 * SMARTS, weights all zero, unreadable TOML/JSON. Code `invalid_profile`, status 400; `problems` lists every
 * problem found, each with a JSON pointer into the document (`/scoring/component/2/Foo/endpoint/0/weight`).
 */
export class InvalidProfileError extends CompoundGenerationError {
  declare readonly problems: readonly FieldProblem[];

  constructor(
    problems: FieldProblem[],
    /** Where the profile came from (a file name), when the caller said. */
    readonly source?: string,
    options: { cause?: unknown } = {},
  ) {
    const where = source ? `scoring profile ${source}` : 'scoring profile';
    super('invalid_profile', `${where}: ${summarizeProblems(problems, 5)}`, { status: 400, problems, ...options });
  }
}

/** What went wrong with an external scorer process (ExternalScorerError.reason). */
export type ExternalScorerFailure =
  /** The executable could not be started (missing, not executable). */
  | 'spawn_failed'
  /** It exited with a non-zero status. */
  | 'exit_status'
  /** It was ended by a signal it was not sent by us. */
  | 'killed'
  /** It ran longer than the timeout and was killed. */
  | 'timeout'
  /** It wrote more to stdout than the cap allows and was killed. */
  | 'output_too_large'
  /** Its stdout is not JSON. */
  | 'invalid_json'
  /** The JSON lacks `payload` or a property, or holds values that are not numbers, strings or null. */
  | 'invalid_payload'
  /** A property's list does not hold one value per SMILES sent. */
  | 'wrong_count';

/**
 * An ExternalProcess scorer failed (code `external_scorer_failed`; `reason` says how). Nothing of the batch it
 * was scoring is used: the caller decides whether the run stops or skips the batch.
 */
export class ExternalScorerError extends CompoundGenerationError {
  constructor(
    readonly reason: ExternalScorerFailure,
    message: string,
    /** The command run (executable and arguments). */
    readonly command: readonly string[],
    /** The end of what it wrote to stderr (at most 4,000 characters). */
    readonly stderr = '',
    options: { cause?: unknown } = {},
  ) {
    const tail = stderr.trim() ? `; stderr: ${stderr.trim().slice(-500)}` : '';
    super('external_scorer_failed', `external scorer ${command[0] ?? ''}: ${message}${tail}`, options);
  }
}
