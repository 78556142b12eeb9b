// Truncated SVD of a sparse symmetric matrix. First Halko, Martinsson and Tropp (2011): a Gaussian test block of
// k + p columns, power iterations with re-orthonormalisation after every product (their Algorithm 4.4). Then, so
// that the values are exact to a tolerance even where the spectrum is clustered and power iteration would crawl,
// a polish by block Krylov iteration from that block (block Lanczos with full re-orthogonalisation and
// Rayleigh–Ritz, restarted from the best k + p Ritz vectors; Musco and Musco 2015 for why block Krylov beats
// power iteration). For symmetric A the singular values are the |eigenvalues| and the singular vectors are
// eigenvectors, so the Rayleigh–Ritz step gives everything. It stops when, for each of the k Ritz pairs, the
// error bound min(‖r‖, ‖r‖²/gap) on its value (r = A·u − θ·u; |θ − λ| ≤ ‖r‖ for symmetric A, and ‖r‖²/gap by
// Kato–Temple with the gap estimated from the other Ritz values) is at most tol·|θ|.
// Memory: at most `maxDepth` blocks of n × (k + p); never an n × n matrix.
import type { RunHooks } from '@evident/contract';
import { type CsrGraph, checkCsr } from '../csr.js';
import { GraphInputError } from '../errors.js';
import { Random } from '../random.js';
import { crossProduct, multiplyBlock, orthonormalBasis, spmm, subtractProduct } from './dense.js';
import { symmetricEigen } from './symmetric-eigen.js';

export interface SvdOptions {
  /** Extra columns beyond k in the test block (p in the paper). Default max(10, ⌈k/4⌉), capped at n − k. */
  oversampling?: number;
  /** Power iterations of the randomized range finder (each one product with A and one with Aᵀ = A). Default 2. */
  powerIterations?: number;
  /**
   * Krylov blocks kept at once before a restart (memory: maxDepth·n·(k + p) numbers). Default: as many as keep
   * the basis within 640 columns and 32 million numbers (256 MB), between 2 and 40.
   */
  maxDepth?: number;
  /** Products with A (one block each) at most. Default 200. */
  maxProducts?: number;
  /** Relative error bound on each value at which it counts as converged (see above). Default 1e-7. */
  tolerance?: number;
  seed?: number;
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
  /** Block products with A performed. */
  products: number;
  /** Largest relative error bound among the k values at the end. */
  residual: number;
  converged: boolean;
}

interface Block {
  v: Float64Array;
  width: number;
}

export function randomizedSvd(a: CsrGraph, k: number, options: SvdOptions = {}): SvdResult {
  const n = a.n;
  if (!(Number.isInteger(k) && k >= 1 && k <= n)) throw new GraphInputError('/k', `must be an integer in 1..${n}`);
  const { powerIterations = 2, maxProducts = 200, tolerance = 1e-7, seed = 0, hooks } = options;
  const p = Math.min(options.oversampling ?? Math.max(10, Math.ceil(k / 4)), n - k);
  if (!(Number.isInteger(p) && p >= 0)) throw new GraphInputError('/oversampling', 'must be an integer ≥ 0');
  if (!(Number.isInteger(powerIterations) && powerIterations >= 0)) {
    throw new GraphInputError('/powerIterations', 'must be an integer ≥ 0');
  }
  if (!(Number.isInteger(maxProducts) && maxProducts >= 1)) {
    throw new GraphInputError('/maxProducts', 'must be an integer ≥ 1');
  }
  if (!(tolerance > 0)) throw new GraphInputError('/tolerance', 'must be > 0');
  if (!options.trusted) checkCsr(a);
  const l = k + p;
  // The Rayleigh–Ritz step is O(m³) in the basis size m = depth·(k + p): past about 640 columns it costs more
  // than restarting does, so the depth is held there (and to 256 MB of basis).
  const maxDepth = options.maxDepth ?? Math.max(2, Math.min(40, Math.floor(32e6 / (n * l)), Math.floor(640 / l)));
  if (!(Number.isInteger(maxDepth) && maxDepth >= 1)) throw new GraphInputError('/maxDepth', 'must be an integer ≥ 1');
  const rng = new Random(seed);
  const progress = (f: number) => hooks?.progress?.('svd', Math.min(1, f));

  // Range finder: Q = orth(A·Ω), then (A·Aᵀ)^q applied with re-orthonormalisation after each product.
  let q: Block = { v: new Float64Array(n * l), width: l };
  for (let i = 0; i < q.v.length; i++) q.v[i] = rng.normal();
  let products = 0;
  for (let step = 0; step < 1 + 2 * powerIterations; step++) {
    hooks?.signal?.throwIfAborted();
    const y = new Float64Array(n * q.width);
    spmm(a, q.v, q.width, y);
    products++;
    const basis = orthonormalBasis(y, q.width, n);
    if (basis.r === 0) break; // A·Q = 0: A is zero on the whole block (an empty graph)
    q = { v: basis.v, width: basis.r };
  }

  let theta: Float64Array = new Float64Array(0);
  let ritz: Float64Array = new Float64Array(0); // the chosen Ritz vectors (n × k)
  let residual = Number.POSITIVE_INFINITY;
  for (;;) {
    const blocks: Block[] = [q];
    let coeff: Float64Array[][] = [[]]; // coeff[j][i] = V_iᵀ·A·V_j (i ≤ j+1)
    let done = false;
    let best: { theta: Float64Array; s: Float64Array; m: number; residual: number } | undefined;
    for (let j = 0; ; j++) {
      hooks?.signal?.throwIfAborted();
      const vj = blocks[j]!;
      const w = new Float64Array(n * vj.width);
      spmm(a, vj.v, vj.width, w);
      products++;
      // Full re-orthogonalisation against every kept block, twice ("twice is enough", Giraud et al. 2005).
      const cs: Float64Array[] = blocks.map((bi) => new Float64Array(bi.width * vj.width));
      for (let pass = 0; pass < 2; pass++) {
        for (let i = 0; i <= j; i++) {
          const bi = blocks[i]!;
          const c = crossProduct(bi.v, bi.width, w, vj.width, n);
          subtractProduct(w, vj.width, bi.v, bi.width, c, n);
          const acc = cs[i]!;
          for (let e = 0; e < acc.length; e++) acc[e]! += c[e]!;
        }
      }
      const next = orthonormalBasis(w, vj.width, n);
      coeff[j] = [...cs, next.m];
      const starts0 = blocks.reduce((acc, bi) => acc + bi.width, 0);
      const canGrow = j + 1 < maxDepth && starts0 + next.r <= n && products < maxProducts && next.r > 0;
      // The Ritz step costs O(m³) in the basis size m: check at depths 1, 2, 3, 4, 6, 8, 11, … and before a
      // restart or the end, not after every product.
      if (canGrow && !isCheckpoint(j + 1)) {
        blocks.push({ v: next.v, width: next.r });
        continue;
      }
      // Rayleigh–Ritz over V_0..V_j: T = Vᵀ·A·V (block upper part from the coefficients, mirrored).
      const starts = [0];
      for (const bi of blocks) starts.push(starts[starts.length - 1]! + bi.width);
      const m = starts[blocks.length]!;
      const t = new Float64Array(m * m);
      for (let jj = 0; jj <= j; jj++) {
        const wj = blocks[jj]!.width;
        for (let i = 0; i <= jj; i++) {
          const wi = blocks[i]!.width;
          const c = coeff[jj]![i]!;
          for (let r = 0; r < wi; r++) {
            for (let s = 0; s < wj; s++) {
              t[(starts[i]! + r) * m + starts[jj]! + s] = c[r * wj + s]!;
              t[(starts[jj]! + s) * m + starts[i]! + r] = c[r * wj + s]!;
            }
          }
        }
      }
      const eig = symmetricEigen(t, m);
      const order = Array.from(eig.values, (_, i) => i).sort(
        (x, y) => Math.abs(eig.values[y]!) - Math.abs(eig.values[x]!),
      );
      const kk = Math.min(k, m);
      const th = new Float64Array(kk);
      const s = new Float64Array(m * Math.min(l, m));
      const keepCols = Math.min(l, m);
      for (let c = 0; c < keepCols; c++)
        for (let r = 0; r < m; r++) s[r * keepCols + c] = eig.vectors[r * m + order[c]!]!;
      for (let c = 0; c < kk; c++) th[c] = eig.values[order[c]!]!;
      // Residual of each pair: ‖M·s_last‖, s_last the pair's coefficients on the last block.
      let res = 0;
      const scale = Math.abs(th[0] ?? 0) || 1;
      const last = starts[j]!;
      for (let c = 0; c < kk; c++) {
        let sq = 0;
        for (let r = 0; r < next.r; r++) {
          let acc = 0;
          for (let e = 0; e < vj.width; e++) acc += next.m[r * vj.width + e]! * s[(last + e) * keepCols + c]!;
          sq += acc * acc;
        }
        // Error bound on the value: min(‖r‖, ‖r‖²/gap) (the second is the quadratic residual bound of Kato and
        // Temple, the gap estimated by the nearest other Ritz value), relative to |θ|.
        const theta_c = th[c]!;
        let gap = Number.POSITIVE_INFINITY;
        for (let e = 0; e < m; e++) {
          if (e !== order[c]) gap = Math.min(gap, Math.abs(eig.values[e]! - theta_c));
        }
        const r = Math.sqrt(sq);
        const bound = Math.min(r, (r * r) / gap);
        res = Math.max(res, bound / Math.max(Math.abs(theta_c), 1e-12 * scale));
      }
      best = { theta: th, s, m: keepCols, residual: res };
      progress(Math.max(products / maxProducts, Math.min(1, tolerance / res)));
      const width = m + next.r;
      if (res <= tolerance || next.r === 0) {
        done = true;
        break;
      }
      if (products >= maxProducts) {
        done = true;
        break;
      }
      if (!canGrow || width > n) break;
      blocks.push({ v: next.v, width: next.r });
    }
    // The best Ritz vectors: Z = Σ_i V_i·S_i (n × keepCols).
    const b = best!;
    const z = new Float64Array(n * b.m);
    let offset = 0;
    for (const bi of blocks) {
      const part = new Float64Array(bi.width * b.m);
      part.set(b.s.subarray(offset * b.m, (offset + bi.width) * b.m));
      const contribution = multiplyBlock(bi.v, bi.width, part, b.m, n);
      for (let e = 0; e < z.length; e++) z[e]! += contribution[e]!;
      offset += bi.width;
    }
    theta = b.theta;
    residual = b.residual;
    if (done) {
      ritz = z;
      break;
    }
    coeff = [];
    const basis = orthonormalBasis(z, b.m, n); // restart from the best k + p Ritz vectors
    q = { v: basis.v, width: basis.r };
  }

  // U: the first k Ritz vectors; a matrix of rank < k gets zero values and zero vectors for the rest.
  const width = ritz.length / Math.max(1, n);
  const vectors = new Float64Array(n * k);
  for (let i = 0; i < n; i++) for (let c = 0; c < Math.min(k, width); c++) vectors[i * k + c] = ritz[c * n + i]!;
  const eigenvalues = new Float64Array(k);
  eigenvalues.set(theta.subarray(0, Math.min(k, theta.length)));
  const values = eigenvalues.map(Math.abs);
  progress(1);
  return { k, values, eigenvalues, vectors, products, residual, converged: residual <= tolerance };
}

/** Depths at which the Krylov polish checks convergence: 1, 2, 3, 4, then growing by about a third. */
function isCheckpoint(depth: number): boolean {
  let d = 1;
  while (d < depth) d = Math.max(d + 1, Math.floor(d * 1.34));
  return d === depth;
}
