// The per-gene body of estimateDispersionsMAP as a kernel over genes [start, end): the line search on the log
// posterior (normal prior around the trend), and the gene-wise estimate kept for dispersion outliers.
import { gridSearch, lineSearch, DispersionProblem } from './likelihood.js';
import { leastSquaresOperator } from './glm.js';
import { groupMu, MIN_DISP } from './gene-wise.js';

export interface MapArgs {
  counts: Float64Array;
  n: number;
  x: Float64Array;
  p: number;
  sf: Float64Array;
  /** G x n fitted means of the gene-wise step, or empty for a group design (then recomputed per gene). */
  mu: Float64Array;
  dispGeneEst: Float64Array;
  dispFit: Float64Array;
  priorVar: number;
  /** sqrt(varLogDispEsts): a gene-wise estimate 2 sd above the trend is an outlier. */
  sdLog: number;
  /** Outputs. */
  dispMAP: Float64Array;
  dispersion: Float64Array;
  dispOutlier: Uint8Array;
}

export function mapRange(a: MapArgs, start: number, end: number): void {
  const { counts, n, x, p, sf } = a;
  const maxDisp = Math.max(10, n);
  const prob = new DispersionProblem(x, n, p);
  prob.usePrior = true;
  prob.priorVar = a.priorVar;
  const minLogAlpha = Math.log(MIN_DISP / 10);
  const stored = a.mu.length > 0;
  const op = stored ? new Float64Array(0) : leastSquaresOperator(x, n, p);
  const norm = new Float64Array(n);
  const beta = new Float64Array(p);
  const muRow = new Float64Array(n);
  for (let g = start; g < end; g++) {
    const ge = a.dispGeneEst[g]!;
    const fit = a.dispFit[g]!;
    const init = ge > 0.1 * fit ? ge : fit;
    prob.priorMean = Math.log(fit);
    if (stored) prob.setGene(counts, g * n, a.mu, g * n);
    else {
      groupMu(op, counts, g, n, x, p, sf, norm, beta, muRow);
      prob.setGene(counts, g * n, muRow, 0);
    }
    const r = lineSearch(prob, Math.log(init), minLogAlpha);
    let d = Math.exp(r.logAlpha);
    if (!(r.iter < 100)) d = Math.exp(gridSearch(prob));
    d = Math.min(Math.max(d, MIN_DISP), maxDisp);
    a.dispMAP[g] = d;
    const outlier = Math.log(ge) > Math.log(fit) + 2 * a.sdLog;
    a.dispOutlier[g] = outlier ? 1 : 0;
    a.dispersion[g] = outlier ? ge : d;
  }
}
