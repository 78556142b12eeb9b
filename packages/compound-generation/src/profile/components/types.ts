// What a scoring component is to the profile: a definition (name, role, parameters) that builds, from its
// endpoints' parameters, something that computes one raw value per endpoint per molecule.
import type { DockingPort } from '../../target/port.js';
import type { Mol, RDKit } from '../../rdkit.js';
import type { RawValue } from '../external/protocol.js';
import type { ProcessRunner } from '../external/run-process.js';
import type { MoleculeContext } from '../molecule.js';
import type { ParamReader, Problems } from '../params.js';

/**
 * score: aggregated by weight; penalty: its value multiplies the total (REINVENT's MatchingSubstructure);
 * filter: a molecule whose value is 0 scores 0 (REINVENT's CustomAlerts).
 */
export type ComponentRole = 'score' | 'penalty' | 'filter';

export interface ExternalProcessSettings {
  runner: ProcessRunner;
  timeoutMs: number;
  maxOutputBytes: number;
  /** Directory a relative executable is resolved against (REINVENT: os.path.abspath, i.e. the working directory). */
  cwd: string;
  /** Maps what a profile names to what runs (a service's registered scorers); may refuse with a message. */
  resolve?: (executable: string, args: string) => { executable: string; args: readonly string[] } | string;
}

export interface BuildContext {
  rd: RDKit;
  problems: Problems;
  /** Pointer to the component in the document. */
  path: string;
  docking?: DockingPort;
  /** false: ExternalProcess is not allowed where this profile is loaded. */
  externalProcess: ExternalProcessSettings | false;
  /** A compiled SMARTS query freed with the profile, or undefined (and a problem) when RDKit refuses it. */
  smarts(text: string, path: string): Mol | undefined;
  /** A parsed reference molecule (the caller deletes it), or undefined (and a problem) when RDKit refuses it. */
  molecule(smiles: string, path: string): Mol | undefined;
}

export interface ComponentCounters {
  /** ExternalProcess runs and SMILES sent. */
  external_runs: number;
  external_smiles: number;
  /** Docking calls (one per stereoisomer docked) and those that failed. */
  docking_calls: number;
  docking_failures: number;
}

export interface ComponentImpl {
  /** Raw values, [endpoint][molecule]; null is "no value" (see `missing`). */
  compute(
    mols: readonly MoleculeContext[],
    signal: AbortSignal | undefined,
    counters: ComponentCounters,
  ): RawValue[][] | Promise<RawValue[][]>;
  /** How a null raw value scores: NaN, left out of the mean (default, REINVENT's rule), or 0. */
  missing?: 'nan' | 'zero';
}

export interface ComponentDef {
  /** REINVENT 4's class name, or this package's for its own components. */
  name: string;
  aliases?: readonly string[];
  role: ComponentRole;
  /** False for components REINVENT 4 does not have (this package's extensions). */
  reinvent: boolean;
  /** Parameter names, for "unknown parameter" messages. */
  params: readonly string[];
  /** One reader per endpoint (component-level params merged in). */
  build(endpoints: readonly ParamReader[], ctx: BuildContext): ComponentImpl;
}
