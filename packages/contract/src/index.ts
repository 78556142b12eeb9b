// @evident/contract: what every Evident package speaks. See README.md.
export {
  EvidentError,
  InvalidParametersError,
  INVALID_PARAMETERS,
  summarizeProblems,
  pointer,
  fieldToPointer,
  type Problem,
  type EvidentErrorOptions,
} from './errors.js';
export {
  toWireError,
  serializeError,
  deserializeError,
  INTERNAL_ERROR,
  type ErrorBody,
  type WireError,
  type SerializedError,
} from './wire.js';
export { monotonicProgress, type RunHooks } from './run-hooks.js';
export {
  defineCatalogue,
  mergeCatalogues,
  statusOf,
  errorMaker,
  type Catalogue,
  type CodeEntry,
} from './catalogue.js';
