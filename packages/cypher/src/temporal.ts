// Temporal values and durations (the code is in ./temporal/): what the rest of the engine imports.
export { temporalComponent, durationComponent } from './temporal/accessors.js';
export { addDuration, addDurations, makeDuration, scaleDuration } from './temporal/duration.js';
export { TEMPORAL_FUNCTIONS } from './temporal/functions.js';
export { parseDuration, parseTemporal } from './temporal/parse.js';
export { DurationValue, type TemporalKind, TemporalValue } from './temporal/values.js';
