// limma's fry (Giner & Smyth 2016): the self-contained rotation test in closed form. Each row's effects (the tested
// coefficient's and the residual ones) are standardised by a robust posterior standard deviation; a set's
// directional p-value is a t test of its mean effect against its mean residual effects, the mixed p-value a beta
// approximation to the rotation distribution of the set's sum of squared tested effects. Formulas as limma 3.54's
// fry.default (standardize = "posterior.sd") and .fryEffects.
import betainc from '@stdlib/math-base-special-betainc';
import { fitFDist } from '../stats/ebayes.js';
import { pt } from '../stats/special.js';
import { gaussLegendreUniform, qchisq1 } from './distributions.js';
import type { RowEffects } from './effects.js';
import { extremeEigenvalues } from './eigen.js';

export interface FryResult {
  size: number;
  direction: 'up' | 'down';
  pValue: number;
  pValueMixed: number;
}

/** E[max of df+1 squared N(0,1) order statistics... ] as fry computes it: 128-point Gauss-Legendre on [0, 1]. */
function expectedMaxSquare(dfResidual: number): number {
  const { nodes, oneMinus, weights } = gaussLegendreUniform(128);
  let s = 0;
  for (let i = 0; i < 128; i++)
    s += (dfResidual + 1) * nodes[i]! ** dfResidual * qchisq1(nodes[i]!, oneMinus[i]!) * weights[i]!;
  return s;
}

/** The standardised effects: rows x (n - p + 1), the tested effect first (fry's Effects after standardising). */
export function standardizedEffects(fx: RowEffects): { z: Float64Array; k: number } {
  const { effects, sign, n, p } = fx;
  if (!effects) throw new Error('fry: needs the effects of every row (rowEffects with keep)');
  const G = sign.length;
  const k = n - p + 1;
  const dfResidual = k - 1;
  const z = new Float64Array(G * k);
  const s2 = new Float64Array(G);
  const s2Robust = new Float64Array(G);
  const eu2max = expectedMaxSquare(dfResidual);
  for (let g = 0; g < G; g++) {
    const row = z.subarray(g * k, g * k + k);
    for (let j = 0; j < k; j++) row[j] = effects[g * n + p - 1 + j]!;
    if (sign[g]! < 0) row[0] = -row[0]!;
    let sum = 0;
    let max = 0;
    let res = 0;
    for (let j = 0; j < k; j++) {
      const sq = row[j]! ** 2;
      sum += sq;
      if (sq > max) max = sq;
      if (j > 0) res += sq;
    }
    s2[g] = res / dfResidual;
    s2Robust[g] = (sum - max) / (dfResidual + 1 - eu2max);
  }
  const fit = fitFDist(s2, new Float64Array(G).fill(dfResidual));
  const dfPrior = fit.df2;
  const d = 0.92 * dfResidual;
  for (let g = 0; g < G; g++) {
    const scale = fit.scale[0]!;
    const post = Number.isFinite(dfPrior) ? (d * s2Robust[g]! + dfPrior * scale) / (d + dfPrior) : scale;
    const inv = 1 / Math.sqrt(post);
    for (let j = 0; j < k; j++) z[g * k + j]! *= inv;
  }
  return { z, k };
}

/** fry on every set (row indices into the effects' rows). */
export function fry(fx: RowEffects, sets: readonly Int32Array[]): FryResult[] {
  const { z, k } = standardizedEffects(fx);
  const dfResidual = k - 1;
  const mean = new Float64Array(k);
  const scratch: FryScratch = {
    gram: new Float64Array(k * k),
    d: new Float64Array(k),
    e: new Float64Array(k),
    side: new Float64Array(k * sets.reduce((max, set) => Math.max(max, set.length), 0)),
  };
  return sets.map((set) => {
    const m = set.length;
    mean.fill(0);
    for (const g of set) for (let j = 0; j < k; j++) mean[j]! += z[g * k + j]!;
    let res = 0;
    for (let j = 1; j < k; j++) res += (mean[j]! / m) ** 2;
    const t = mean[0]! / m / Math.sqrt(res / dfResidual);
    const pValue = 2 * pt(-Math.abs(t), dfResidual);
    const direction = t < 0 ? 'down' : 'up';
    if (m === 1) return { size: m, direction, pValue, pValueMixed: pValue };
    return { size: m, direction, pValue, pValueMixed: mixedP(z, k, set, scratch) };
  });
}

interface FryScratch {
  gram: Float64Array;
  d: Float64Array;
  e: Float64Array;
  /** The gathered side of the set's effects: k x the largest set. */
  side: Float64Array;
}

/**
 * gram = x x' for x (r x len, row-major), both triangles: dot products in 2 x 2 blocks, four sums held in
 * registers over one pass of four rows (half the loads of one product at a time, and no stores in the loop).
 */
function gramMatrix(x: Float64Array, r: number, len: number, gram: Float64Array): void {
  let a = 0;
  for (; a + 1 < r; a += 2) {
    const xa = a * len;
    const xa1 = xa + len;
    for (let b = 0; b <= a; b += 2) {
      const xb = b * len;
      const xb1 = xb + len;
      let s00 = 0;
      let s01 = 0;
      let s10 = 0;
      let s11 = 0;
      for (let t = 0; t < len; t++) {
        const va = x[xa + t]!;
        const va1 = x[xa1 + t]!;
        const vb = x[xb + t]!;
        const vb1 = x[xb1 + t]!;
        s00 += va * vb;
        s01 += va * vb1;
        s10 += va1 * vb;
        s11 += va1 * vb1;
      }
      gram[a * r + b] = s00;
      gram[a * r + b + 1] = s01;
      gram[(a + 1) * r + b] = s10;
      gram[(a + 1) * r + b + 1] = s11;
    }
  }
  if (a < r) {
    const xa = a * len;
    for (let b = 0; b <= a; b++) {
      const xb = b * len;
      let s = 0;
      for (let t = 0; t < len; t++) s += x[xa + t]! * x[xb + t]!;
      gram[a * r + b] = s;
    }
  }
  for (let i = 0; i < r; i++) for (let j = 0; j < i; j++) gram[j * r + i] = gram[i * r + j]!;
}

/** .fryEffects' beta approximation from the squared singular values A of the set's effects (m x k). */
function mixedP(z: Float64Array, k: number, set: Int32Array, scratch: FryScratch): number {
  const m = set.length;
  let fObsNum = 0;
  for (const g of set) fObsNum += z[g * k]! ** 2;
  // Gram matrix of the smaller side: its eigenvalues are A (min(m, k) of them). The side's vectors are gathered
  // contiguously first (the set's rows, or the set's columns when m > k) so the products are plain dot products.
  const r = Math.min(m, k);
  const len = m <= k ? k : m;
  const x = scratch.side;
  if (m <= k) for (let a = 0; a < m; a++) x.set(z.subarray(set[a]! * k, set[a]! * k + k), a * k);
  else
    for (let s = 0; s < m; s++) {
      const row = set[s]! * k;
      for (let a = 0; a < k; a++) x[a * m + s] = z[row + a]!;
    }
  const gram = scratch.gram.subarray(0, r * r);
  gramMatrix(x, r, len, gram);
  // sum(A) is the Gram matrix's trace and sum(A^2) its squared Frobenius norm; only the extremes need the spectrum
  let sumA = 0;
  let sumA2 = 0;
  for (let a = 0; a < r; a++) {
    sumA += gram[a * r + a]!;
    for (let b = 0; b < r; b++) sumA2 += gram[a * r + b]! ** 2;
  }
  const { min: aMin, max: aMax } = extremeEigenvalues(gram, r, scratch.d, scratch.e);
  const d1 = r;
  const d = d1 - 1;
  const betaMean = 1 / d1;
  const betaVar = d / d1 / d1 / (d1 / 2 + 1);
  const range = aMax - aMin;
  const fObs = (fObsNum - aMin) / range;
  const frbMean = (sumA * betaMean - aMin) / range;
  // A' COV A with COV = betaVar on the diagonal and -betaVar / d off it
  const frbVar = (betaVar * sumA2 - (betaVar / d) * (sumA * sumA - sumA2)) / (range * range);
  const apb = (frbMean * (1 - frbMean)) / frbVar - 1;
  const alpha = apb * frbMean;
  const beta = apb - alpha;
  if (fObs >= 1) return 0;
  if (fObs <= 0) return 1;
  return betainc(fObs, alpha, beta, true, true);
}
