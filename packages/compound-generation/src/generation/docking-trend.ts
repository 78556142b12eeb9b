// The trend of docking beyond the surrogate, learnt from what was docked: a ridge regression of each docked
// molecule's residual (docking term minus site term) on a few size and shape descriptors. Vina's score grows
// with the ligand's size and rigidity (more contacts, fewer rotors), which the residue heuristic does not see,
// and a trend on descriptors carries over to chemotypes no docked molecule resembles, where the nearest-
// neighbour correction (docking-rounds.ts) has nothing to say. The intercept is barely penalised (it is the
// mean offset between the two scales); the slopes are shrunk towards zero so that a handful of docked
// molecules cannot make a steep trend out of noise. The 5 x 5 normal equations are solved here by Gaussian
// elimination: no dependency is worth it at that size.
import type { Evaluated } from '../scoring/evaluate.js';

/** Descriptors on scales where one unit is a typical step between drug-like molecules. */
export function trendFeatures(e: Evaluated): number[] {
  const p = e.properties;
  return [1, p.heavy_atoms / 10, p.aromatic_rings, p.rotatable_bonds / 5, p.fraction_csp3];
}

/** Ridge penalty on the slopes, in units of docked molecules at one unit of the descriptor. */
export const TREND_RIDGE = 3;
/**
 * Docked molecules needed before the slopes are fitted (two per slope); until then the trend is the mean offset
 * alone. A run with a small docking budget docks two or four molecules in its search rounds, and four slopes
 * fitted to those follow their noise (a 14-call test run steered its search by such a trend).
 */
export const TREND_MIN_MOLECULES = 8;
const INTERCEPT_RIDGE = 1e-6;

export class DockingTrend {
  private readonly xs: number[][] = [];
  private readonly ys: number[] = [];
  private coef: number[] | null = null;

  add(e: Evaluated, residual: number): void {
    this.xs.push(trendFeatures(e));
    this.ys.push(residual);
    this.coef = null;
  }

  get size(): number {
    return this.ys.length;
  }

  /** The residual the trend expects for a molecule (0 before anything is docked). */
  predict(e: Evaluated): number {
    if (this.ys.length === 0) return 0;
    const b = this.coefficients();
    const x = trendFeatures(e);
    let y = 0;
    for (let j = 0; j < b.length; j++) y += b[j]! * x[j]!;
    return y;
  }

  /** Slopes (without the intercept), for reports and tests. */
  slopes(): number[] {
    if (this.ys.length === 0) return [];
    return this.coefficients().slice(1);
  }

  /** The fitted coefficients, refit only after molecules were added. */
  private coefficients(): number[] {
    if (this.coef === null) this.coef = this.fit();
    return this.coef;
  }

  private fit(): number[] {
    const p = this.xs[0]!.length;
    if (this.ys.length < TREND_MIN_MOLECULES) {
      const b = new Array<number>(p).fill(0);
      b[0] = this.ys.reduce((a, y) => a + y, 0) / this.ys.length;
      return b;
    }
    const a = Array.from({ length: p }, (_, i) =>
      Array.from({ length: p + 1 }, (_, j) => (i === j && j < p ? (i === 0 ? INTERCEPT_RIDGE : TREND_RIDGE) : 0)),
    );
    this.xs.forEach((x, k) => {
      const y = this.ys[k]!;
      for (let i = 0; i < p; i++) {
        for (let j = 0; j < p; j++) a[i]![j]! += x[i]! * x[j]!;
        a[i]![p]! += x[i]! * y;
      }
    });
    return solve(a, p);
  }
}

/** Gaussian elimination with partial pivoting on an augmented p x (p+1) matrix (positive definite here). */
function solve(a: number[][], p: number): number[] {
  for (let c = 0; c < p; c++) {
    let piv = c;
    for (let r = c + 1; r < p; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[piv]![c]!)) piv = r;
    [a[c], a[piv]] = [a[piv]!, a[c]!];
    for (let r = c + 1; r < p; r++) {
      const f = a[r]![c]! / a[c]![c]!;
      for (let k = c; k <= p; k++) a[r]![k]! -= f * a[c]![k]!;
    }
  }
  const b = new Array<number>(p).fill(0);
  for (let r = p - 1; r >= 0; r--) {
    let s = a[r]![p]!;
    for (let k = r + 1; k < p; k++) s -= a[r]![k]! * b[k]!;
    b[r] = s / a[r]![r]!;
  }
  return b;
}
