// The reasoning stage: one module per call, each a function over a ReadContext (README.md).
export { audit, type Audit, type AuditEvent, type ClaimTrail } from './audit.js';
export { blindspots, type Blindspots } from './blindspots.js';
export { consensus, type Consensus, type Assertion, type Contradiction } from './consensus.js';
export { drift, type Drift, type DriftOptions, type RelationshipChange } from './drift.js';
export { evolution, type Evolution, type TimelineEvent } from './evolution.js';
export { fragile, type FragileFact } from './fragile.js';
export { testHypothesis, type HypothesisTest } from './hypothesis.js';
export { impact, type Impact } from './impact.js';
export { predict, type Prediction, type InferencePath } from './predict.js';
export { sourceReliability, type SourceReliability } from './reliability.js';
export { stale, type StaleFact } from './stale.js';
export type { FactRef } from './common.js';
