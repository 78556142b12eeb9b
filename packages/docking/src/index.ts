// @evident/docking: AutoDock Vina and Open Babel as subprocesses. See README.md.
export {
  DOCKING_ERRORS,
  DockingAbortedError,
  DockingFailedError,
  DockingInputError,
  DockingUnavailableError,
  InvalidSmilesError,
} from './errors.js';
export { type Box, DOCKING_LIMITS } from './limits.js';
export { bestPoseUnboundAffinities, type VinaEnergies } from './pose/affinity.js';
export { elementOfType, type PoseAtom, parseVinaOutput, poseAtoms, splitModels, type VinaPose } from './pose/pdbqt.js';
export { poseToSdf } from './pose/sdf.js';
export { type PreparedLigand, type PrepareLigandOptions, prepareLigand } from './prepare/ligand.js';
export { type PreparedReceptor, type PrepareReceptorOptions, prepareReceptor } from './prepare/receptor.js';
export { stereoKept, type StereoVerdict } from './prepare/stereo.js';
export { loadRDKit } from './prepare/rdkit.js';
export { removeStaleTempDirs, type SweepReport } from './process/temp.js';
export {
  DockingSession,
  type DockingSessionOptions,
  defaultConcurrency,
  type LigandCallOptions,
  type SmilesDocking,
} from './session/session.js';
export { type SmilesDockingPort, type SmilesPose, smilesDockingPort } from './session/port.js';
export { type DockingTools, findDockingTools, MIN_VERSIONS, type ToolInfo } from './tools/find.js';
export { type DockOptions, type DockResult, dock, type ScoreOnlyOptions, scoreOnly } from './vina/dock.js';
export { SEARCH_DEFAULTS, type VinaSearchOptions } from './vina/options.js';
export { parseScoreOnly, type ScoreOnlyResult } from './vina/parse.js';
