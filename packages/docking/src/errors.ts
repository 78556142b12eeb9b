// The package's typed errors. Every one is an EvidentError, so a surface maps it by code, status and problems
// without knowing this package. DOCKING_ERRORS is the one table of its codes (the README's is checked against it,
// with every code thrown in src); an error takes its status from it.
import {
  defineCatalogue,
  EvidentError,
  INVALID_PARAMETERS,
  type Problem,
  statusOf,
  summarizeProblems,
} from '@evident/contract';

// Deliberate likeness: every package's catalogue has this shape (code → status and meaning, by defineCatalogue),
// which the duplicates tool pairs across packages; the rows are this package's own.
export const DOCKING_ERRORS = defineCatalogue({
  invalid_parameters: { status: 400, meaning: 'an input a function does not take, every problem by JSON pointer' },
  invalid_smiles: {
    status: 400,
    meaning: 'a SMILES that is unparsable, unsanitizable, of several fragments or too many heavy atoms',
  },
  docking_unavailable: {
    status: null,
    meaning: "Vina or Open Babel missing, unrunnable or too old: the operator's problem, not the caller's",
  },
  docking_failed: {
    status: null,
    meaning: "a tool exited non-zero, timed out or wrote nothing readable (the step, the ligand, the tool's stderr)",
  },
  aborted: { status: null, meaning: 'the AbortSignal fired; the child process is killed with SIGKILL' },
});

export type DockingCode = keyof typeof DOCKING_ERRORS;

/** The options of an error of `code`, with the table's status (none for null). */
function withStatus(code: DockingCode, options: { problems?: readonly Problem[]; cause?: unknown } = {}) {
  const status = statusOf(DOCKING_ERRORS, code);
  return { ...options, ...(status === undefined ? {} : { status }) };
}

/** Vina or Open Babel is missing or too old on this machine (an operator's problem, not the caller's: no status). */
export class DockingUnavailableError extends EvidentError {
  constructor(
    readonly tool: 'vina' | 'obabel',
    detail: string,
  ) {
    super(
      'docking_unavailable',
      `${tool === 'vina' ? 'AutoDock Vina (vina)' : 'Open Babel (obabel)'} ${detail}; install both with ` +
        '`apt-get install autodock-vina openbabel` or point EVIDENT_VINA / EVIDENT_OBABEL at the executables',
      withStatus('docking_unavailable'),
    );
  }
}

/**
 * A preparation, docking or scoring step failed at run time: the tool exited non-zero, timed out, or wrote
 * output this package cannot read. `ligand` names the ligand (caller's id or SMILES); `stderr` is the tail of
 * what the tool printed, kept for diagnosis.
 */
export class DockingFailedError extends EvidentError {
  constructor(
    message: string,
    readonly details: { ligand?: string; step: string; stderr?: string; cause?: unknown },
  ) {
    const who = details.ligand === undefined ? '' : ` (ligand ${JSON.stringify(shorten(details.ligand))})`;
    const tail = details.stderr?.trim() ? `: ${lastChars(details.stderr.trim(), 600)}` : '';
    super(
      'docking_failed',
      `${details.step}${who}: ${message}${tail}`,
      withStatus('docking_failed', { cause: details.cause }),
    );
  }
}

/** The work was cancelled through its AbortSignal; the child process was killed. */
export class DockingAbortedError extends EvidentError {
  constructor(step: string) {
    super('aborted', `${step} was aborted`, withStatus('aborted'));
  }
}

/** An input that is not what a function takes: status 400, every problem named by JSON pointer. */
export class DockingInputError extends EvidentError {
  constructor(problems: readonly Problem[]) {
    super(
      INVALID_PARAMETERS,
      summarizeProblems(problems, problems.length),
      withStatus(INVALID_PARAMETERS, { problems }),
    );
  }
}

/** A SMILES that RDKit cannot parse and sanitize (400, the same code the compound-generation engine uses). */
export class InvalidSmilesError extends EvidentError {
  constructor(
    readonly smiles: string,
    path = '/smiles',
    why = 'is not a valid SMILES (RDKit could not parse or sanitize it)',
  ) {
    super(
      'invalid_smiles',
      `invalid SMILES ${JSON.stringify(shorten(smiles))}: ${why}`,
      withStatus('invalid_smiles', { problems: [{ path, message: why }] }),
    );
  }
}

export function shorten(s: string, max = 120): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** The end of a tool's output, where its error usually is. */
export function lastChars(s: string, max: number): string {
  return s.length > max ? `…${s.slice(-max)}` : s;
}
