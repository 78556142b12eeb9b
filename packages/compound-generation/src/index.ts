// @evident/compound-generation: novel molecules for a protein target under property constraints (RDKit WASM).
export { describeMolecule, analyseSmiles, type MoleculeProperties } from './chem/describe.js';
export {
  CompoundGenerationError,
  InvalidSmilesError,
  InvalidRequestError,
  GenerationAbortedError,
  isWasmTrap,
  type FieldProblem,
} from './errors.js';
export { COMPOUND_GENERATION_ERRORS, type CompoundGenerationCode } from './error-codes.js';
export { loadRDKit } from './rdkit.js';
export { SMILES_LIMITS, smilesBoundsProblem } from './smiles-bounds.js';
export {
  validateRequest,
  defaultMaxEvaluations,
  defaultDockingBudget,
  DEFAULT_DOCKING_EXHAUSTIVENESS,
  DEFAULT_CONSTRAINTS,
  DEFAULT_NUM_MOLECULES,
  DEFAULT_SEED,
  DEFAULT_SIMILARITY_CAP,
  DEFAULT_POPULATION,
  BOUNDS,
  UNIPROT_ACCESSION,
  RESIDUE_LABEL,
  type GenerationRequest,
  type GenerationInput,
  type GenerationOptions,
  type Constraints,
} from './request.js';
export { generateCompounds, generateFromInput, type GenerationHooks } from './generate.js';
export { analyseTarget, pocketResiduesPdb, type StructureOrigin, type TargetSite } from './target/site.js';
export { STRUCTURE_LIMITS, PDB_ID, CHAIN_ID, canonicalPdbId, type TargetRequest } from './target/request-target.js';
export type { DockingPort, DockedPose, DockingDescription, TargetSummary } from './target/port.js';
export { dockingTerm, MAX_ISOMERS, type DockingStats } from './generation/docking-rounds.js';
export {
  resultToCsv,
  CSV_COLUMNS,
  type GenerationResult,
  type GeneratedMolecule,
  type Guidance,
  type GenerationSummary,
} from './results.js';
export type { StopReason, RunHooks } from './generation/ga.js';
export { finalDockingReserve, DOCK_EVERY, EXPECTED_ROUNDS } from './generation/ga.js';

export { randomEnumerationBaseline } from './generation/baseline.js';
export { depictSvg, svgGrid, type GridCell } from './depict.js';
export { siteComplementarity, residueFit, type PharmacophoreFeatures } from './scoring/site.js';
export {
  WEIGHTS,
  WEIGHTS_WITH_REFERENCES,
  WEIGHTS_DOCKING,
  WEIGHTS_DOCKING_WITH_REFERENCES,
  REFERENCE_SIMILARITY_TARGET,
} from './scoring/evaluate.js';
export {
  medchemAlerts,
  medchemHits,
  blockingAlerts,
  isMichaelAcceptorAlert,
  MICHAEL_ACCEPTOR_UNWANTED,
  type MedchemAlert,
  type MedchemGroup,
} from './chem/medchem.js';
export {
  enumerateStereoisomers,
  unspecifiedStereo,
  STEREOISOMERS_MAX,
  type StereoCounts,
  type StereoisomerEnumeration,
} from './chem/stereo.js';
export {
  parseScoringProfile,
  loadScoringProfile,
  COMPONENT_NAMES,
  TRANSFORM_NAMES,
  AGGREGATIONS,
  InvalidProfileError,
  ExternalScorerError,
  Oracle,
  canonicalSmiles,
  MAX_ORACLE_CALLS,
  aucTopK,
  topKMean,
  type ProfileLoadOptions,
  type ExternalProcessOptions,
  type ScoringProfile,
  type MoleculeScore,
  type EndpointScore,
  type EndpointInfo,
  type ScoreOptions,
  type ComponentRole,
  type ComponentCounters,
  type Aggregation,
  type ExternalScorerFailure,
  type ProcessRunner,
  type ProcessRequest,
  type ProcessResult,
  type RawValue,
  type OracleBudget,
  type OracleCall,
  type OracleResult,
  type OracleStatus,
  type AucOptions,
  type ProfileFormat,
} from './profile/index.js';
// The optimizer's public face is whatever optimize/index.ts exports (one list, kept there).
export * from './optimize/index.js';
export { callLogCsv } from './profile/call-log.js';
export { curvesSvg, topCurves, type CurvePoint } from './cli/curves.js';
export { runProcess } from './profile/external/run-process.js';
