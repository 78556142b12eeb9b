// Truncated SVD of a sparse symmetric matrix. First Halko, Martinsson and Tropp (2011): a Gaussian test block of
// k + p columns, optional power iterations with re-orthonormalisation after every product (their Algorithm 4.4).
// Then, so that the values are exact to a tolerance even where the spectrum is clustered and power iteration would
// crawl, a polish by thick-restart Lanczos (lanczos.ts) started from that block. The polish does the work: from
// one start vector it needs as many products after power iterations as without, so by default there are none and
// the block is one product, A·Ω (summed, a start vector weighted towards the large values). For symmetric A the
// singular values are the |eigenvalues| and the singular vectors are eigenvectors, so the Rayleigh–Ritz step
// gives everything. It stops when, for each of the k Ritz pairs, the error bound min(‖r‖, ‖r‖²/gap) on its value
// (r = A·u − θ·u; |θ − λ| ≤ ‖r‖ for symmetric A, and ‖r‖²/gap by Kato–Temple with the gap bounded below from the
// other Ritz values less their residuals) is at most tol·|θ|. (A block Krylov polish came first; its Rayleigh–Ritz over bases of hundreds of columns
// and block re-orthogonalisation made it 28 times slower than scipy's svds on a 2,000-node graph.)
// The answer is checked on A before it is returned (check-pairs.ts); one that fails is replaced by the dense
// decomposition on small matrices, else by a rerun with two Gram–Schmidt passes at every step, else refused.
// Memory: the test block and a Lanczos basis of about 2(k + p) vectors of n numbers; an n × n matrix only for the
// dense decomposition (at most 512 rows as a fallback, 2,048 when asked for).
import type { RunHooks } from '@evident/contract';
import { type CsrGraph, checkCsr } from '../csr.js';
import { GraphInputError, SvdFailedError } from '../errors.js';
import { Random } from '../random.js';
import { checkPairs, type PairCheck } from './check-pairs.js';
import { orthonormalBasis, spmm } from './dense.js';
import { DENSE_FALLBACK_MAX_N, DENSE_MAX_N, denseEigenpairs } from './dense-svd.js';
import { type LanczosResult, thickRestartLanczos } from './lanczos.js';
import { defaultThreads, RowTeam } from './row-team.js';

export interface SvdOptions {
  /** Extra columns beyond k in the test block (p in the paper). Default max(10, ⌈k/4⌉), capped at n − k. */
  oversampling?: number;
  /**
   * Power iterations of the randomized range finder (each one product with A and one with Aᵀ = A). Default 0:
   * the polish starts from one vector, the block's sum, and power iterations before it bought no fewer Lanczos
   * products (100,000 entities, k = 64: 1,520 after 2 iterations, 1,440 after none, the block's 400 aside).
   */
  powerIterations?: number;
  /** Lanczos basis size (columns kept before a restart); default max(2(k + p), k + p + 16), capped at n. */
  basisSize?: number;
  /** Single-vector products with A at most (a block product of width b counts b). Default 100,000. */
  maxProducts?: number;
  /** Relative error bound on each value at which it counts as converged (see above). Default 1e-7. */
  tolerance?: number;
  /**
   * Threads sharing the polish's products and dense steps (the caller's and workers over shared memory; the
   * result does not depend on it). Default: up to 4 of the machine's cores from 32,768 rows, else 1.
   */
  threads?: number;
  seed?: number;
  /**
   * 'auto' (the default): the Lanczos polish, its answer checked on A (check-pairs.ts); an answer that fails
   * the check is replaced by the dense decomposition up to 512 rows, and above by a rerun with two Gram–Schmidt
   * passes at every step, and a rerun that fails too is refused (SvdFailedError). 'lanczos': the polish and its
   * check only (a failure throws). 'dense': the dense decomposition (up to 2,048 rows).
   */
  solver?: 'auto' | 'lanczos' | 'dense';
  trusted?: boolean;
  hooks?: RunHooks;
}

export interface SvdResult {
  k: number;
  /** σ_1 ≥ … ≥ σ_k. */
  values: Float64Array;
  /** The eigenvalue behind each σ (σ = |λ|); its sign says whether the right vector is u or −u. */
  eigenvalues: Float64Array;
  /** Left singular vectors, n × k row-major (node i's row is vectors[i·k .. i·k + k)). */
  vectors: Float64Array;
  /** Single-vector products with A performed (a block product of width b counts b). */
  products: number;
  /** Largest relative error bound among the k values at the end. */
  residual: number;
  converged: boolean;
  /** Fraction of the polish's row blocks that worker threads ran (0 on one thread; see `threads`). */
  workerShare: number;
  /** Deflated runs that found missing copies of repeated values (0 when none was missing). */
  deflationRounds: number;
  /** Which method gave the answer ('dense' for a fallback or when asked for). */
  solver: 'lanczos' | 'dense';
  /** max |UᵀU − I| of the returned vectors, measured. */
  orthogonality: number;
  /** Gram–Schmidt passes per Lanczos step (1 to 3; what re-orthogonalisation cost). */
  passesPerStep: number;
}

/** Deflated runs at most; each finds one more direction of every repeated value among the k largest. */
const MAX_DEFLATION_ROUNDS = 16;

interface Block {
  v: Float64Array;
  width: number;
}

export function randomizedSvd(a: CsrGraph, k: number, options: SvdOptions = {}): SvdResult {
  const n = a.n;
  if (!(Number.isInteger(k) && k >= 1 && k <= n)) throw new GraphInputError('/k', `must be an integer in 1..${n}`);
  const { powerIterations = 0, maxProducts = 100_000, tolerance = 1e-7, seed = 0, hooks } = options;
  const p = Math.min(options.oversampling ?? Math.max(10, Math.ceil(k / 4)), n - k);
  if (!(Number.isInteger(p) && p >= 0)) throw new GraphInputError('/oversampling', 'must be an integer ≥ 0');
  if (!(Number.isInteger(powerIterations) && powerIterations >= 0)) {
    throw new GraphInputError('/powerIterations', 'must be an integer ≥ 0');
  }
  if (!(Number.isInteger(maxProducts) && maxProducts >= 1)) {
    throw new GraphInputError('/maxProducts', 'must be an integer ≥ 1');
  }
  if (!(tolerance > 0)) throw new GraphInputError('/tolerance', 'must be > 0');
  const threads = options.threads ?? defaultThreads(n);
  if (!(Number.isInteger(threads) && threads >= 1 && threads <= 64)) {
    throw new GraphInputError('/threads', 'must be an integer in 1..64');
  }
  const solver = options.solver ?? 'auto';
  if (solver !== 'auto' && solver !== 'lanczos' && solver !== 'dense') {
    throw new GraphInputError('/solver', "must be 'auto', 'lanczos' or 'dense'");
  }
  if (solver === 'dense' && n > DENSE_MAX_N) {
    throw new GraphInputError('/solver', `'dense' takes at most ${DENSE_MAX_N} rows (this matrix has ${n})`);
  }
  const l = k + p;
  const m = Math.min(n, options.basisSize ?? Math.max(2 * l, l + 16));
  if (!(Number.isInteger(m) && (m > l || m === n))) {
    throw new GraphInputError('/basisSize', `must be an integer > k + p = ${l}`);
  }
  if (!options.trusted) checkCsr(a);
  const progress = (f: number) => hooks?.progress?.('svd', Math.min(1, f));
  if (solver === 'dense') return dense(a, k, 0, progress);
  const run = { k, p, m, powerIterations, maxProducts, tolerance, threads, hooks, progress };
  try {
    return lanczosSvd(a, run, seed, false);
  } catch (error) {
    if (!(error instanceof SvdFailedError) || solver === 'lanczos') throw error;
    if (n <= DENSE_FALLBACK_MAX_N) return dense(a, k, error.products, progress);
    // A rerun that does not depend on the orthogonality model: two passes at every step, another start.
    const rerun = lanczosSvd(a, run, (seed + 0x9e3779b9) >>> 0, true);
    return { ...rerun, products: rerun.products + error.products };
  }
}

interface Run {
  k: number;
  p: number;
  m: number;
  powerIterations: number;
  maxProducts: number;
  tolerance: number;
  threads: number;
  hooks: RunHooks | undefined;
  progress: (fraction: number) => void;
}

function dense(a: CsrGraph, k: number, products: number, progress: (f: number) => void): SvdResult {
  const n = a.n;
  const d = denseEigenpairs(a, k);
  const check = checkPairs(a, d.theta, d.vectors, d.residuals);
  const vectors = new Float64Array(n * k);
  for (let i = 0; i < n; i++) for (let c = 0; c < k; c++) vectors[i * k + c] = d.vectors[c * n + i]!;
  let residual = 0;
  for (let c = 0; c < k; c++) {
    residual = Math.max(residual, d.residuals[c]! / Math.max(Math.abs(d.theta[c]!), 1e-12 * check.normBound));
  }
  progress(1);
  return {
    k,
    values: d.theta.map(Math.abs),
    eigenvalues: d.theta,
    vectors,
    products,
    residual,
    converged: true,
    workerShare: 0,
    deflationRounds: 0,
    solver: 'dense',
    orthogonality: check.orthogonality,
    passesPerStep: 0,
  };
}

function lanczosSvd(a: CsrGraph, run: Run, seed: number, strict: boolean): SvdResult {
  const n = a.n;
  const { k, p, m, powerIterations, maxProducts, tolerance, threads, hooks, progress } = run;
  const l = k + p;
  const rng = new Random(seed);

  const { q, products: rangeProducts } = rangeFinder(a, l, powerIterations, rng, hooks?.signal);
  let products = rangeProducts;

  // Polish: thick-restart Lanczos from the range finder's block summed into one vector, weighted towards the
  // dominant subspace; a basis of about 2(k + p) columns, k + p Ritz vectors kept at each restart.
  const start = new Float64Array(n);
  for (let c = 0; c < q.width; c++) for (let i = 0; i < n; i++) start[i]! += q.v[c * n + i]!;
  // One team of threads and shared buffers for the polish and the checks below (the check's basis follows the
  // k vectors it is deflated by), so that workers start and the matrix is shared once per call.
  const want = Math.min(Math.max(p, 1), n - k);
  const mCheck = Math.min(n - k, 4 * want);
  const team = new RowTeam(a, Math.max(m, k + mCheck), Math.max(l, k, 2 * want), threads);
  try {
    const polish = thickRestartLanczos({
      a,
      k,
      keep: l,
      m,
      start,
      tolerance,
      maxProducts: Math.max(1, maxProducts - products),
      rng,
      team,
      strict,
      onCycle: (done, res) => progress(Math.max((products + done) / maxProducts, Math.min(1, tolerance / res))),
      abort: hooks?.signal ? () => hooks.signal!.throwIfAborted() : undefined,
    });
    products += polish.products;
    let theta = polish.theta;
    let ritz = polish.vectors;
    let estimates = polish.residuals;
    let residual = polish.residual;
    const work = { passes: polish.passes, steps: polish.steps };
    let checked = verify(a, theta, ritz, estimates, products);

    // Missing multiplicities. From one start vector, Lanczos sees one direction of each eigenspace, so an eigenvalue
    // of multiplicity two or more (symmetric graphs: grids, rings of cliques, identical components) is found once
    // and the next one takes its place; scipy's ARPACK has the same weakness but iterates to machine precision,
    // long enough for rounding to bring the other directions in. So: run Lanczos again on A deflated by the k
    // vectors found, from a random vector, asking only whether anything of magnitude σ_k or more is left; take
    // what is, and repeat until nothing is (each round finds one more direction of each repeated value).
    let rounds = 0;
    for (; rounds < MAX_DEFLATION_ROUNDS; rounds++) {
      const found = ritz.length / Math.max(1, n);
      const sigmaK = found === k ? Math.abs(theta[k - 1]!) : 0;
      if (!(sigmaK > 1e-12 * Math.abs(theta[0] ?? 0)) || want < 1 || residual > tolerance) break;
      const check = thickRestartLanczos({
        a,
        k: want,
        keep: Math.min(2 * want, mCheck - 1),
        m: mCheck,
        start: Float64Array.from({ length: n }, () => rng.normal()),
        tolerance,
        maxProducts: Math.max(1, maxProducts - products),
        rng,
        team,
        locked: ritz,
        lockedGram: checked.gram,
        strict,
        below: sigmaK,
        abort: hooks?.signal ? () => hooks.signal!.throwIfAborted() : undefined,
      });
      products += check.products;
      work.passes += check.passes;
      work.steps += check.steps;
      residual = Math.max(residual, check.residual);
      // Only a value above σ_k changes the answer: more copies of σ_k itself (a value repeated more often than
      // k leaves room for, as 1 is 120 times in 30 disjoint 5-cliques) would be swapped in for equal ones, round
      // after round, for nothing.
      const extra: number[] = [];
      for (let c = 0; c < check.theta.length; c++) {
        if (Math.abs(check.theta[c]!) > sigmaK * (1 + tolerance)) extra.push(c);
      }
      if (extra.length === 0) break;
      ({ theta, estimates, ritz } = mergePairs({ theta, ritz, estimates }, check, extra, k, n));
      checked = verify(a, theta, ritz, estimates, products);
    }

    // U: the first k Ritz vectors; a matrix of rank < k gets zero values and zero vectors for the rest.
    const width = ritz.length / Math.max(1, n);
    const vectors = new Float64Array(n * k);
    for (let i = 0; i < n; i++) for (let c = 0; c < Math.min(k, width); c++) vectors[i * k + c] = ritz[c * n + i]!;
    const eigenvalues = new Float64Array(k);
    eigenvalues.set(theta.subarray(0, Math.min(k, theta.length)));
    const values = eigenvalues.map(Math.abs);
    progress(1);
    return {
      k,
      values,
      eigenvalues,
      vectors,
      products,
      residual,
      converged: residual <= tolerance,
      workerShare: team.blocksRun > 0 ? 1 - team.callerBlocks / team.blocksRun : 0,
      deflationRounds: rounds,
      solver: 'lanczos',
      orthogonality: checked.orthogonality,
      passesPerStep: work.steps > 0 ? work.passes / work.steps : 0,
    };
  } finally {
    team.close();
  }
}

/** Range finder: Q = orth(A·Ω), then (A·Aᵀ)^q applied with re-orthonormalisation after each product. */
function rangeFinder(a: CsrGraph, l: number, powerIterations: number, rng: Random, signal: AbortSignal | undefined) {
  const n = a.n;
  let q: Block = { v: new Float64Array(n * l), width: l };
  for (let i = 0; i < q.v.length; i++) q.v[i] = rng.normal();
  let products = 0;
  for (let step = 0; step < 1 + 2 * powerIterations; step++) {
    signal?.throwIfAborted();
    const y = new Float64Array(n * q.width);
    spmm(a, q.v, q.width, y);
    products += q.width;
    const basis = orthonormalBasis(y, q.width, n);
    if (basis.r === 0) break; // A·Q = 0: A is zero on the whole block (an empty graph)
    q = { v: basis.v, width: basis.r };
  }
  return { q, products };
}

interface Pairs {
  theta: Float64Array;
  /** Column-major n × theta.length. */
  ritz: Float64Array;
  estimates: Float64Array;
}

/** The found pairs and the check's `extra` ones (orthogonal to them), largest magnitude first, k kept. */
function mergePairs(found: Pairs, check: LanczosResult, extra: number[], k: number, n: number): Pairs {
  const { theta, ritz, estimates } = found;
  const pool = [
    ...Array.from(theta, (value, c) => ({ value, from: ritz, estimate: estimates[c]!, c })),
    ...extra.map((c) => ({ value: check.theta[c]!, from: check.vectors, estimate: check.residuals[c]!, c })),
  ].sort((x, y) => Math.abs(y.value) - Math.abs(x.value));
  const kept = pool.slice(0, k);
  const merged = new Float64Array(n * k);
  for (const [c, e] of kept.entries()) merged.set(e.from.subarray(e.c * n, e.c * n + n), c * n);
  return {
    theta: Float64Array.from(kept, (e) => e.value),
    ritz: merged,
    estimates: Float64Array.from(kept, (e) => e.estimate),
  };
}

/** The pairs checked on A (check-pairs.ts); a failure is an SvdFailedError carrying the products spent. */
function verify(
  a: CsrGraph,
  theta: Float64Array,
  ritz: Float64Array,
  estimates: Float64Array,
  products: number,
): PairCheck {
  const check = checkPairs(a, theta, ritz, estimates);
  if (!check.ok)
    throw new SvdFailedError(`the Lanczos answer failed its check on the matrix: ${check.reason}`, products);
  return check;
}
