// Thick-restart Lanczos (Wu and Simon 2000) for the k eigenvalues of largest magnitude of a sparse symmetric
// matrix, from one start vector. One vector per product: each step costs one sparse product and a full
// re-orthogonalisation against the basis (repeated when needed, see below), and the projected matrix stays at most
// `m` wide, so the small dense eigenproblem at each restart is O(m³) with m ≈ 2(k + p) rather than the
// hundreds of columns a block Krylov basis reaches. A restart keeps the best `keep` Ritz vectors and continues
// from the residual direction, which is how ARPACK-style solvers (scipy's svds) reach clustered values.
import type { CsrGraph } from '../csr.js';
import type { Random } from '../random.js';
import { RowOp } from './row-ops.js';
import type { RowTeam } from './row-team.js';
import { OrthogonalityModel } from './orthogonality.js';
import { symmetricEigen } from './symmetric-eigen.js';

/**
 * Components along the basis (relative to the vector's norm, as the orthogonality model estimates them) up to
 * which one Gram–Schmidt pass is accepted; above it a second pass runs.
 */
const ORTHOGONALITY_TARGET = 1e-12;
/** A pass after the first that leaves less than this fraction of the vector: it was in the span (see below). */
const IN_SPAN_BELOW = Math.SQRT1_2;

export interface LanczosInput {
  a: CsrGraph;
  k: number;
  /** Ritz vectors kept at a restart (≥ k). */
  keep: number;
  /** Basis size (≤ n). */
  m: number;
  start: Float64Array;
  tolerance: number;
  maxProducts: number;
  rng: Random;
  /**
   * The threads and shared buffers the products and dense steps run on (row-team.ts), owned by the caller: at
   * least L + m columns (L locked) and max(keep, k) columns for the Ritz block.
   */
  team: RowTeam;
  /**
   * Eigenvectors already found (column-major n × L, orthonormal): the run works on A deflated by them, P·A·P with
   * P = I − Y·Yᵀ, by keeping every basis vector orthogonal to them.
   */
  locked?: Float64Array;
  /**
   * When set, a Ritz pair also counts as settled once it is clearly below this magnitude (|θ| + ‖r‖ under
   * below·(1 − tolerance)): the question is only whether anything above it is left.
   */
  below?: number;
  /** Measured Gram matrix of the locked vectors (L × L), when they are not orthonormal to working precision. */
  lockedGram?: Float64Array;
  /** Two Gram–Schmidt passes at every step, whatever the model says (a rerun after a failed check). */
  strict?: boolean;
  onCycle?: (products: number, residual: number) => void;
  abort?: () => void;
}

export interface LanczosResult {
  /** Eigenvalues, largest magnitude first (k of them, or fewer when m < k). */
  theta: Float64Array;
  /** Ritz vectors, column-major n × theta.length. */
  vectors: Float64Array;
  products: number;
  residual: number;
  /** β·|s_c| for each returned pair: ‖A·y_c − θ_c·y_c‖ as the Lanczos relation gives it. */
  residuals: Float64Array;
  /** Gram–Schmidt passes and Lanczos steps taken (passes/steps is what re-orthogonalisation cost). */
  passes: number;
  steps: number;
}

export function thickRestartLanczos(input: LanczosInput): LanczosResult {
  const { a, k, m, tolerance, maxProducts, below, team } = input;
  const n = a.n;
  const keep = Math.min(input.keep, m - 1);
  const { w } = team.buffers;
  // The locked vectors are the team's first L columns; the basis follows them (column j of the basis is column
  // L + j of the team's block), so one projection and one subtraction serve deflation and re-orthogonalisation.
  const L = (input.locked?.length ?? 0) / Math.max(1, n);
  if (input.locked) team.buffers.v.set(input.locked);
  const v = team.buffers.v.subarray(L * n);
  const model = new OrthogonalityModel(L + m + 1);
  if (input.lockedGram) model.setMeasured(input.lockedGram, L);
  const row = new Float64Array(L + m + 1);
  const last = new Float64Array(L + m + 1);
  const minPasses = input.strict ? 2 : 1;

  const ops = basisOps(input, L, v, model, row);
  const { orthogonalize, fresh } = ops;

  const t = new Float64Array(m * m);
  const h = new Float64Array(m);
  w.set(input.start.subarray(0, n));
  const first0 = orthogonalize(L, undefined, L, 1);
  if (first0.ok) {
    for (let i = 0; i < n; i++) v[i] = w[i]! / first0.norm;
    model.setColumn(L, row);
  } else if (!fresh(L)) {
    return {
      theta: new Float64Array(0),
      vectors: new Float64Array(0),
      products: 0,
      residual: 0,
      residuals: new Float64Array(0),
      passes: ops.passes,
      steps: 0,
    };
  }
  let first = 0; // the first column whose product is still to be taken
  let products = 0;
  let steps = 0;
  for (;;) {
    let beta = 0;
    let size = m; // columns of the basis this cycle (fewer when they span everything left)
    for (let j = first; j < m; j++) {
      input.abort?.();
      team.run(RowOp.Spmv, L + j);
      products++;
      steps++;
      h.fill(0, 0, j + 1);
      const r = orthogonalize(L + j + 1, h, L + j + 1, minPasses);
      for (let i = 0; i <= j; i++) {
        t[i * m + j] = h[i]!;
        t[j * m + i] = h[i]!;
      }
      // w in the span of the basis: an invariant subspace, continue from a fresh direction.
      beta = r.ok ? r.norm : 0;
      if (j + 1 < m) {
        if (beta > 0) {
          for (let i = 0; i < n; i++) v[(j + 1) * n + i] = w[i]! / beta;
          model.setColumn(L + j + 1, row);
        } else if (!fresh(L + j + 1)) {
          size = j + 1;
          break;
        }
        t[(j + 1) * m + j] = beta;
        t[j * m + j + 1] = beta;
      } else if (beta > 0) {
        last.set(row.subarray(0, L + m));
      }
    }
    // Rayleigh–Ritz on T = Vᵀ·A·V; residual of pair c is β·|s_{size−1,c}| (the only part of A·y outside span V).
    const eig = symmetricEigen(size === m ? t : leading(t, m, size), size);
    const { order, kk, residual, rOf } = ritzResidual(eig, size, k, beta, below, tolerance);
    input.onCycle?.(products, residual);
    const done = residual <= tolerance || products >= maxProducts || size === n - L || size < m;
    const width = done ? kk : keep;
    // Y = V·S_width (n × width), written back over the first columns of V.
    const s = team.buffers.s;
    for (let r = 0; r < size; r++)
      for (let c = 0; c < width; c++) s[r * width + c] = eig.vectors[r * size + order[c]!]!;
    team.run(RowOp.Combine, size, width, L);
    const y = team.buffers.y.subarray(0, n * width);
    const theta = Float64Array.from(order.slice(0, width), (i) => eig.values[i]!);
    if (done) {
      const residuals = Float64Array.from(order.slice(0, width), rOf);
      return { theta, vectors: y.slice(), products, residual, residuals, passes: ops.passes, steps };
    }
    v.set(y);
    model.restart(L, m, s, width, last);
    t.fill(0);
    for (let c = 0; c < width; c++) t[c * m + c] = theta[c]!;
    // The next vector is the residual direction; its couplings to the kept vectors come from its product.
    if (beta > 0) for (let i = 0; i < n; i++) v[width * n + i] = w[i]! / beta;
    else fresh(L + width);
    first = width;
  }
}

/**
 * The basis' orthogonalisation (on the team's w) and fresh directions, over the basis `v` after the L locked
 * columns; `passes` counts the Gram–Schmidt passes.
 */
function basisOps(input: LanczosInput, L: number, v: Float64Array, model: OrthogonalityModel, row: Float64Array) {
  const { team, rng } = input;
  const n = input.a.n;
  const { w } = team.buffers;
  let passes = 0;

  /**
   * w minus its components along the first `count` columns, by classical Gram–Schmidt passes; the coefficients of
   * the basis columns are added to `acc` when given. A second pass runs when the model says one left more than
   * ORTHOGONALITY_TARGET along the basis; a pass after the first that cancels most of w means w was in the span
   * to working precision ("twice is enough", Kahan and Parlett): then `ok` is false and w is to be dropped.
   */
  const orthogonalize = (count: number, acc: Float64Array | undefined, salt: number, least: number) => {
    let prev = Math.sqrt(dotColumn(w, 0, w, n));
    if (!(prev > 0)) return { norm: 0, ok: false };
    if (count === 0) {
      row.fill(0);
      return { norm: prev, ok: true };
    }
    for (let pass = 0; pass < 3; pass++) {
      passes++;
      const coef = team.project(count);
      if (acc) for (let i = L; i < count; i++) acc[i - L]! += coef[i]!;
      team.run(RowOp.Subtract, count);
      const after = Math.sqrt(dotColumn(w, 0, w, n));
      if (!(after > 0) || (pass > 0 && after < IN_SPAN_BELOW * prev)) return { norm: 0, ok: false };
      const left = model.leftAfterPass(coef, count, prev, after, salt * 3 + pass, row);
      if (left <= ORTHOGONALITY_TARGET && pass + 1 >= least) return { norm: after, ok: true };
      prev = after;
    }
    return { norm: 0, ok: false };
  };

  /** Column `col` ← a random unit vector orthogonal to the columns before it; false when they span everything. */
  const fresh = (col: number): boolean => {
    for (let i = 0; i < n; i++) w[i] = rng.normal();
    const r = orthogonalize(col, undefined, col, 2);
    const o = (col - L) * n;
    if (!r.ok) {
      v.fill(0, o, o + n);
      model.setClean(col, 1);
      return false;
    }
    for (let i = 0; i < n; i++) v[o + i] = w[i]! / r.norm;
    model.setColumn(col, row);
    return true;
  };

  return {
    orthogonalize,
    fresh,
    get passes() {
      return passes;
    },
  };
}

/**
 * The cycle's Ritz pairs by magnitude (`order`), how many are wanted (`kk`), the residual of pair e (`rOf`,
 * β·|s_{size−1,e}|) and the largest relative error bound of the wanted pairs still above `below`.
 */
function ritzResidual(
  eig: { values: Float64Array; vectors: Float64Array },
  size: number,
  k: number,
  beta: number,
  below: number | undefined,
  tolerance: number,
) {
  const order = Array.from(eig.values, (_, i) => i).sort((x, y) => Math.abs(eig.values[y]!) - Math.abs(eig.values[x]!));
  const kk = Math.min(k, size);
  const scale = Math.abs(eig.values[order[0]!]!) || 1;
  const rOf = (e: number) => beta * Math.abs(eig.vectors[(size - 1) * size + e]!);
  let residual = 0;
  for (let c = 0; c < kk; c++) {
    const th = eig.values[order[c]!]!;
    const r = rOf(order[c]!);
    // Error bound on the value: min(‖r‖, ‖r‖²/gap) (Kato–Temple). The gap is a lower bound on the distance to
    // the rest of the spectrum: each other Ritz value's distance less its own residual (an eigenvalue lies within
    // that residual of it), so an unconverged neighbour cannot make the bound look tighter than it is.
    let gap = Number.POSITIVE_INFINITY;
    for (let e = 0; e < size; e++) {
      if (e === order[c]) continue;
      gap = Math.min(gap, Math.abs(eig.values[e]! - th) - rOf(e));
    }
    const bound = gap > 0 ? Math.min(r, (r * r) / gap) : r;
    if (below !== undefined && Math.abs(th) + r < below * (1 - tolerance)) continue;
    residual = Math.max(residual, bound / Math.max(Math.abs(th), 1e-12 * scale));
  }
  // Nothing above `below` is left once the largest Ritz value is clearly under it (the others are smaller).
  if (below !== undefined && kk > 0) {
    const top = order[0]!;
    if (Math.abs(eig.values[top]!) + rOf(top) < below * (1 - tolerance)) residual = 0;
  }
  return { order, kk, residual, rOf };
}

/** The leading size × size block of a row-major m × m matrix. */
function leading(t: Float64Array, m: number, size: number): Float64Array {
  const out = new Float64Array(size * size);
  for (let r = 0; r < size; r++) out.set(t.subarray(r * m, r * m + size), r * size);
  return out;
}

function dotColumn(x: Float64Array, xo: number, y: Float64Array, n: number): number {
  let s0 = 0;
  let s1 = 0;
  let i = 0;
  for (; i + 1 < n; i += 2) {
    s0 += x[xo + i]! * y[i]!;
    s1 += x[xo + i + 1]! * y[i + 1]!;
  }
  if (i < n) s0 += x[xo + i]! * y[i]!;
  return s0 + s1;
}
