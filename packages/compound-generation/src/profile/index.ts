// Scoring profiles in REINVENT 4's vocabulary, an oracle budget by PMO's rules, and PMO's AUC: the public face
// of this folder (re-exported by the package index).
export {
  parseScoringProfile,
  loadScoringProfile,
  type ProfileLoadOptions,
  type ExternalProcessOptions,
} from './load.js';
export type { ScoringProfile, MoleculeScore, EndpointScore, EndpointInfo, ScoreOptions } from './profile.js';
export type { ComponentRole, ComponentCounters } from './components/types.js';
export { COMPONENT_NAMES } from './components/registry.js';
export { TRANSFORM_NAMES } from './transforms.js';
export { AGGREGATIONS, type Aggregation } from './aggregate.js';
export { InvalidProfileError, ExternalScorerError, type ExternalScorerFailure } from './errors.js';
export type { ProcessRunner, ProcessRequest, ProcessResult } from './external/run-process.js';
export type { RawValue } from './external/protocol.js';
export {
  Oracle,
  canonicalSmiles,
  MAX_ORACLE_CALLS,
  type OracleBudget,
  type OracleCall,
  type OracleResult,
  type OracleStatus,
} from './oracle.js';
export { aucTopK, topKMean, type AucOptions } from './auc.js';
export type { ProfileFormat } from './document.js';
