// What optimize() takes and gives. Wire/file data is snake_case; the callbacks are camelCase.
import type { OracleBudget, OracleCall } from '../profile/oracle.js';
import type { EndpointInfo, ScoringProfile } from '../profile/profile.js';

/**
 * The optimizers: `default` is the one the PMO benchmark shows best (see the package README); `surrogate_ga`
 * is Mol GA's tuning with a surrogate choosing what to score, `mol_ga` the same GA without the surrogate,
 * `graph_ga` Jensen's graph GA with PMO's settings, `random_screen` PMO's screening of the pool.
 */
export const STRATEGIES = ['default', 'surrogate_ga', 'mol_ga', 'graph_ga', 'random_screen'] as const;
export type StrategyName = (typeof STRATEGIES)[number];

export interface OptimizeProgress {
  calls_used: number;
  max_oracle_calls: number;
  /** Best score so far (0 before the first call). */
  best: number;
  /** Mean of the 10 best scores so far (of all of them while fewer than 10). */
  top10_mean: number;
}

export interface OptimizeOptions {
  /** A loaded profile (parseScoringProfile / loadScoringProfile); optimize() does not dispose it. */
  profile: ScoringProfile;
  /** Distinct molecules that may be scored, counted as PMO counts them (repeats are free). */
  budget: OracleBudget;
  /** Integer 0..2^32-1: equal seeds (and inputs) give equal runs. */
  seed: number;
  strategy?: StrategyName;
  /**
   * Molecules (SMILES) to start from: the GA's first population is drawn from them and the random screen
   * screens them. Default: the package's random 20,000-molecule subset of ZINC-250k, PMO's starting pool
   * (data/zinc250k-subset.smi.gz, see DATA_SOURCES.md).
   */
  initial_pool?: readonly string[];
  /**
   * Hard constraints: called with RDKit's canonical SMILES of each new candidate before it is scored; a
   * molecule it refuses is never scored and costs no call.
   */
  filter?: (smiles: string) => boolean;
  /** Aborting rejects the run with GenerationAbortedError (code `aborted`) at the next batch boundary. */
  signal?: AbortSignal;
  /** Called after every batch that used oracle calls. */
  onProgress?: (progress: OptimizeProgress) => void;
  /** Molecules listed in `top` (default 100). */
  top_n?: number;
}

export type OptimizeStopReason =
  /** Every oracle call was used. */
  | 'budget_exhausted'
  /**
   * The search stopped making progress (graph_ga: population unchanged for 5 generations, as Graph GA; the
   * other GAs: 50 generations in a row without one new molecule to score).
   */
  | 'no_progress'
  /** random_screen: every molecule of the pool was screened. */
  | 'pool_exhausted';

export interface TopMolecule {
  smiles: string;
  score: number;
  /** The oracle call that scored it. */
  call: number;
}

/** A run's figures: what the CLI's summary.json and the API's scoring result report as they are. */
export interface OptimizeFigures {
  strategy: Exclude<StrategyName, 'default'>;
  seed: number;
  max_oracle_calls: number;
  calls_used: number;
  stop_reason: OptimizeStopReason;
  /**
   * PMO's AUC of the top-k mean curve (read every 100 calls, held flat to the budget when the run stopped
   * early, divided by the budget): auc_top10 is PMO's headline figure.
   */
  auc_top1: number;
  auc_top10: number;
  auc_top100: number;
  /** Means of the k best scores at the end. */
  top1: number;
  top10_mean: number;
  top100_mean: number;
}

export interface OptimizeResult extends OptimizeFigures {
  /** The profile's endpoints, in the order each call's `components` lists them. */
  endpoints: EndpointInfo[];
  /** Every oracle call in order: call index, canonical SMILES, total score, each endpoint's raw and value. */
  calls: OracleCall[];
  /** The best molecules, best first (ties: earlier call first). */
  top: TopMolecule[];
  /** Wall time of the run, ms. */
  elapsed_ms: number;
}
