// The per-gene body of estimateDispersionsGeneEst as a kernel over genes [start, end) (run on the calling
// thread or a worker, see ../../parallel/pool.ts): the start value, the fitted means and the line search.
import { gridSearch, lineSearch, DispersionProblem } from './likelihood.js';
import { BetaFitter, leastSquaresOperator, linearFit } from './glm.js';

export const MIN_DISP = 1e-8;
const MIN_MU = 0.5;

export interface GeneWiseArgs {
  counts: Float64Array;
  n: number;
  x: Float64Array;
  p: number;
  sf: Float64Array;
  baseMean: Float64Array;
  baseVar: Float64Array;
  /** The design's cells are its columns: the fitted means are the group means (recomputed where needed). */
  groups: boolean;
  /** Outputs. */
  dispGeneEst: Float64Array;
  dispGeneIter: Int32Array;
  /** G x n fitted means for designs that are not groups (empty otherwise). */
  mu: Float64Array;
}

/** DESeq2's starting coefficients: least squares of log(normalised count + 0.1). */
export function startBeta(
  op: Float64Array,
  counts: Float64Array,
  g: number,
  n: number,
  p: number,
  sf: Float64Array,
  work: Float64Array,
  beta: Float64Array,
): void {
  for (let j = 0; j < n; j++) work[j] = Math.log(counts[g * n + j]! / sf[j]! + 0.1);
  for (let k = 0; k < p; k++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += op[k * n + j]! * work[j]!;
    beta[k] = s;
  }
}

/** A group design's fitted means of gene g (linearModelMu, clamped at 0.5) into out. */
export function groupMu(
  op: Float64Array,
  counts: Float64Array,
  g: number,
  n: number,
  x: Float64Array,
  p: number,
  sf: Float64Array,
  norm: Float64Array,
  beta: Float64Array,
  out: Float64Array,
): void {
  for (let j = 0; j < n; j++) norm[j] = counts[g * n + j]! / sf[j]!;
  linearFit(op, x, n, p, norm, 0, out, 0, beta);
  for (let j = 0; j < n; j++) out[j] = Math.max(out[j]! * sf[j]!, MIN_MU);
}

export function geneWiseRange(a: GeneWiseArgs, start: number, end: number): void {
  const { counts, n, x, p, sf } = a;
  const maxDisp = Math.max(10, n);
  const op = leastSquaresOperator(x, n, p);
  const norm = new Float64Array(n);
  const fitted = new Float64Array(n);
  const beta = new Float64Array(p);
  const muRow = new Float64Array(n);
  let xim = 0;
  for (let j = 0; j < n; j++) xim += 1 / sf[j]!;
  xim /= n;
  const fitter = a.groups ? null : new BetaFitter(x, n, p, new Float64Array(p).fill(1e-6 / Math.LN2 ** 2));
  const prob = new DispersionProblem(x, n, p);
  const minLogAlpha = Math.log(MIN_DISP / 10);
  for (let g = start; g < end; g++) {
    // Start: the smaller of a rough (linear-model) and a moments estimate.
    for (let j = 0; j < n; j++) norm[j] = counts[g * n + j]! / sf[j]!;
    linearFit(op, x, n, p, norm, 0, fitted, 0, beta);
    let s = 0;
    for (let j = 0; j < n; j++) {
      const m = Math.max(1, fitted[j]!);
      const d = norm[j]! - m;
      s += (d * d - m) / (m * m);
    }
    const rough = Math.max(s / (n - p), 0);
    const bm = a.baseMean[g]!;
    const moments = (a.baseVar[g]! - xim * bm) / (bm * bm);
    const alphaInit = Math.min(Math.max(MIN_DISP, Math.min(rough, moments)), maxDisp);
    if (fitter) {
      startBeta(op, counts, g, n, p, sf, norm, fitter.beta);
      fitter.fit(counts, g * n, sf, alphaInit, false);
      for (let j = 0; j < n; j++) {
        let eta = 0;
        for (let k = 0; k < p; k++) eta += x[k * n + j]! * fitter.beta[k]!;
        a.mu[g * n + j] = Math.max(sf[j]! * Math.exp(eta), MIN_MU);
      }
      prob.setGene(counts, g * n, a.mu, g * n);
    } else {
      groupMu(op, counts, g, n, x, p, sf, norm, beta, muRow);
      prob.setGene(counts, g * n, muRow, 0);
    }
    const r = lineSearch(prob, Math.log(alphaInit), minLogAlpha);
    let est = Math.min(Math.exp(r.logAlpha), maxDisp);
    a.dispGeneIter[g] = r.iter;
    // No increase of the likelihood: keep the start.
    if (r.lastLp < r.initialLp + Math.abs(r.initialLp) / 1e6) est = alphaInit;
    const converged = r.iter < 100 && r.iter !== 1;
    if (!converged && est > MIN_DISP * 10) est = Math.exp(gridSearch(prob));
    a.dispGeneEst[g] = Math.min(Math.max(est, MIN_DISP), maxDisp);
  }
}
