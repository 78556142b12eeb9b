// The optimizer's public face (re-exported by the package index).
export { optimize, DEFAULT_STRATEGY } from './optimize.js';
export { GRAPH_GA_SETTINGS, type GraphGaSettings } from './graph-ga.js';
export { defaultPool } from './pool.js';
export { MOL_GA_SETTINGS, type MolGaSettings } from './mol-ga.js';
export {
  STRATEGIES,
  type StrategyName,
  type OptimizeOptions,
  type OptimizeResult,
  type OptimizeFigures,
  type OptimizeProgress,
  type OptimizeStopReason,
  type TopMolecule,
} from './types.js';
