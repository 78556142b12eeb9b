// @evident/graph-algorithms: general graph algorithms on CSR typed arrays. See README.md.
export { type CsrGraph, csrFromEdges, checkCsr, type GraphArrays, HEAP_ARRAYS } from './csr.js';
export { GRAPH_ERRORS, GraphInputError, SvdFailedError } from './errors.js';
export { SHARED_ARRAYS } from './threads.js';
export { Random } from './random.js';
export { leiden, leidenAsync, type LeidenOptions, type LeidenResult } from './leiden/leiden.js';
export {
  leidenIncremental,
  type LeidenIncrementalOptions,
  type LeidenIncrementalResult,
} from './leiden/incremental.js';
export { aggregateCsr } from './leiden/work-graph.js';
export { modularity, modularityContributions } from './leiden/quality.js';
export { randomizedSvd, type SvdOptions, type SvdResult } from './svd/randomized-svd.js';
