// The Leiden algorithm (Traag, Waltman and van Eck 2019, "From Louvain to Leiden: guaranteeing well-connected
// communities") for modularity with a resolution parameter on a weighted undirected graph: the options, their
// checks, and the restarts (run.ts is one run; restart-team.ts runs restarts on several threads). Deterministic
// for a given seed, whatever the number of threads.
import type { RunHooks } from '@evident/contract';
import { type CsrGraph, checkCsr } from '../csr.js';
import { GraphInputError } from '../errors.js';
import {
  defaultLeidenThreads,
  PARALLEL_MIN_NODES,
  runRestartsInParallel,
  runRestartsOffThread,
} from './restart-team.js';
import { leidenRun, type RunSettings } from './run.js';
import { LeidenScratch } from './scratch.js';
import { workGraphFromCsr } from './work-graph.js';

export interface LeidenOptions {
  /** γ in the modularity; higher gives more, smaller communities. Default 1. */
  resolution?: number;
  /** Seed of the PRNG (visit orders, refinement choices). Default 0. */
  seed?: number;
  /** Randomness of the refinement merges (θ in the paper). Default 0.01. */
  theta?: number;
  /**
   * Leiden iterations at most; each starts from the previous result. Default unbounded: until an iteration moves
   * no node, as leidenalg's n_iterations = −1 (every move raises modularity, so this ends). On sparse graphs with
   * weak structure the gains continue for a hundred iterations or more; a cap of 50 left the partition ~1% below
   * leidenalg's.
   */
  maxIterations?: number;
  /** A starting partition (labels per node); default every node alone. */
  initial?: Int32Array;
  /**
   * Independent runs (seeds `seed`, `seed + 1`, ...), keeping the partition of highest modularity. Default 3.
   * A converged run lands on one of many local optima, and where they differ a single run is a gamble: over 40
   * seeds on sbm_20000 (40 planted blocks of 500) one run in four merged or split blocks (NMI against the planted
   * blocks under leidenalg's 0.988, modularity up to 0.0024 below leidenalg's median), and the partitions that did
   * had the lower modularity, so the best of three had neither fault in any of 26 disjoint triples (over two
   * numberings of the nodes). Where the optima differ in ways modularity does not tell (lfr_5000_mu03: NMI
   * 0.934-0.951 between seeds whose modularity differs by at most 5·10⁻⁴) the best of three is no better than one
   * run and no worse: about one in five under leidenalg's seed-0 NMI of 0.9385 either way. Three runs cost three
   * times the CPU time (on worker threads when there are cores for them, see `threads`); `restarts: 1` is one run.
   */
  restarts?: number;
  /**
   * Threads running the restarts (the calling one and workers). Default: as many as there are restarts, up to
   * twice the machine's cores, on graphs of 32,768 nodes or more (below that a worker's start-up outweighs a run)
   * and machines of two cores or more; else 1.
   * The result is the same for any number.
   */
  threads?: number;
  /**
   * leidenAsync only: nice steps its worker threads take at their start, below the calling thread (Linux; see
   * @evident/worker-threads' lowerThreadPriority), so that a server's event loop gets a CPU first. Default 0.
   */
  nice?: number;
  /** Skip the input check (the caller built the CSR itself). */
  trusted?: boolean;
  hooks?: RunHooks;
}

export interface LeidenResult {
  /** Community of each node, 0..count-1, numbered by first appearance. */
  membership: Int32Array;
  count: number;
  /** Modularity of the partition at the given resolution. */
  modularity: number;
  iterations: number;
  /** Restarts that worker threads ran (0 on one thread; see `threads`). */
  workerRestarts: number;
}

/** The checked options of a call: what leiden() and leidenAsync() share. */
interface LeidenCall {
  settings: RunSettings;
  restarts: number;
  threads: number;
  nice: number;
  hooks: RunHooks | undefined;
}

/**
 * The options leiden() and leidenIncremental() share, with their defaults, checked (a GraphInputError names the
 * option).
 */
export function checkIterationOptions(options: {
  resolution?: number;
  seed?: number;
  theta?: number;
  maxIterations?: number;
}): { resolution: number; seed: number; theta: number; maxIterations: number } {
  const { resolution = 1, seed = 0, theta = 0.01, maxIterations = Number.POSITIVE_INFINITY } = options;
  if (!(Number.isFinite(resolution) && resolution >= 0)) throw new GraphInputError('/resolution', 'must be ≥ 0');
  if (!(Number.isFinite(theta) && theta > 0)) throw new GraphInputError('/theta', 'must be > 0');
  if (!Number.isInteger(seed)) throw new GraphInputError('/seed', 'must be an integer');
  if (!((Number.isInteger(maxIterations) || maxIterations === Number.POSITIVE_INFINITY) && maxIterations >= 1)) {
    throw new GraphInputError('/maxIterations', 'must be an integer ≥ 1 or Infinity');
  }
  return { resolution, seed, theta, maxIterations };
}

function checkOptions(graph: CsrGraph, options: LeidenOptions): LeidenCall {
  const { initial, hooks } = options;
  const { resolution, seed, theta, maxIterations } = checkIterationOptions(options);
  if (!options.trusted) checkCsr(graph);
  const restarts = options.restarts ?? 3;
  if (!(Number.isInteger(restarts) && restarts >= 1)) throw new GraphInputError('/restarts', 'must be an integer ≥ 1');
  if (initial && initial.length !== graph.n) {
    throw new GraphInputError('/initial', `must have one label per node (${graph.n})`);
  }
  for (let v = 0; v < (initial?.length ?? 0); v++) {
    const c = initial![v]!;
    if (!(c >= 0 && c < graph.n)) throw new GraphInputError(`/initial/${v}`, `must be a label in 0..${graph.n - 1}`);
  }
  const threads = options.threads ?? defaultLeidenThreads(graph.n, restarts);
  if (!(Number.isInteger(threads) && threads >= 1 && threads <= 64)) {
    throw new GraphInputError('/threads', 'must be an integer in 1..64');
  }
  const nice = options.nice ?? 0;
  if (!(Number.isInteger(nice) && nice >= 0 && nice <= 19))
    throw new GraphInputError('/nice', 'must be an integer in 0..19');
  return { settings: { resolution, seed, theta, maxIterations, initial }, restarts, threads, nice, hooks };
}

export function leiden(graph: CsrGraph, options: LeidenOptions = {}): LeidenResult {
  return leidenChecked(graph, checkOptions(graph, options));
}

/** leiden() once its options are checked: the runs on this thread, or shared with workers while it waits. */
function leidenChecked(graph: CsrGraph, { settings, restarts, threads, hooks }: LeidenCall): LeidenResult {
  const progress = (f: number) => hooks?.progress?.('leiden', f);
  let runs: LeidenResult[];
  if (threads > 1 && restarts > 1) {
    runs = runRestartsInParallel(graph, settings, restarts, Math.min(threads, restarts), hooks?.signal, progress);
  } else {
    const base = workGraphFromCsr(graph);
    const scratch = new LeidenScratch();
    runs = [];
    for (let r = 0; r < restarts; r++) {
      const run = leidenRun(
        graph,
        base,
        scratch,
        { ...settings, seed: settings.seed + r },
        () => hooks?.signal?.throwIfAborted(),
        (f) => progress((r + f) / restarts),
      );
      runs.push(run);
    }
  }
  return bestRun(runs, hooks);
}

/**
 * leiden() with the calling thread's event loop left free, so that a server keeps answering while a large graph
 * is partitioned: the restarts run on worker threads only (`threads` of them; by default as for leiden(), and at
 * least one), and the promise settles with the same result as leiden() gives for the same options. On graphs
 * under 32,768 nodes, unless `threads` is given, the call runs here at once: a worker's start-up would outweigh it.
 */
export async function leidenAsync(graph: CsrGraph, options: LeidenOptions = {}): Promise<LeidenResult> {
  const call = checkOptions(graph, options);
  if (options.threads === undefined && graph.n < PARALLEL_MIN_NODES) return leidenChecked(graph, call);
  const { settings, restarts, threads, nice, hooks } = call;
  const progress = (f: number) => hooks?.progress?.('leiden', f);
  const runs = await runRestartsOffThread(
    graph,
    settings,
    restarts,
    Math.min(threads, restarts),
    hooks?.signal,
    progress,
    nice,
  );
  return bestRun(runs, hooks);
}

/** The first of the best, as one thread taking the runs in order would keep. */
function bestRun(runs: LeidenResult[], hooks: RunHooks | undefined): LeidenResult {
  let best = runs[0]!;
  for (const run of runs) if (run.modularity > best.modularity) best = run;
  hooks?.progress?.('leiden', 1);
  let workerRestarts = 0;
  for (const run of runs) workerRestarts += run.workerRestarts;
  return { ...best, workerRestarts };
}
