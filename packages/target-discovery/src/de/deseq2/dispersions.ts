// DESeq2's dispersion estimation (estimateDispersionsGeneEst, estimateDispersionsFit, estimateDispersionsMAP):
// gene-wise Cox-Reid estimates from a moments start, the mean-dispersion trend, then maximum a posteriori
// estimates shrunk towards the trend, with gene-wise estimates kept for dispersion outliers.
import { gridSearch, lineSearch, DispersionProblem } from './likelihood.js';
import { BetaFitter, leastSquaresOperator, linearFit } from './glm.js';
import { dispersionPriorVar, mad, parametricDispersionFit } from './trend.js';

export const MIN_DISP = 1e-8;
const MIN_MU = 0.5;

/** Counts of the genes that are not all zero, with their size factors and the design. */
export interface NbProblem {
  /** G x n row-major raw counts. */
  counts: Float64Array;
  G: number;
  n: number;
  /** Column-major n x p design. */
  x: Float64Array;
  p: number;
  sf: Float64Array;
  /** Checked every 1,024 genes in the long per-gene loops, so a cancelled job stops promptly. */
  signal?: AbortSignal;
}

export interface BaseStats {
  baseMean: Float64Array;
  baseVar: Float64Array;
}

export function baseMeansAndVariances(pr: NbProblem): BaseStats {
  const { counts, G, n, sf } = pr;
  const baseMean = new Float64Array(G);
  const baseVar = new Float64Array(G);
  for (let g = 0; g < G; g++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += counts[g * n + j]! / sf[j]!;
    const m = s / n;
    let ss = 0;
    for (let j = 0; j < n; j++) {
      const d = counts[g * n + j]! / sf[j]! - m;
      ss += d * d;
    }
    baseMean[g] = m;
    baseVar[g] = ss / (n - 1);
  }
  return { baseMean, baseVar };
}

/** True when the design's distinct rows (cells) are as many as its columns: group means are the fit. */
export function designIsGroups(x: Float64Array, n: number, p: number): boolean {
  const cells = new Set<string>();
  for (let i = 0; i < n; i++) {
    const row: number[] = [];
    for (let k = 0; k < p; k++) row.push(x[k * n + i]!);
    cells.add(row.join('_'));
  }
  return cells.size === p;
}

export interface GeneEstimates {
  dispGeneEst: Float64Array;
  dispGeneIter: Int32Array;
  /** G x n fitted means (clamped at 0.5) the estimates were made at, reused by the MAP step. */
  mu: Float64Array;
}

export function geneWiseDispersions(pr: NbProblem, base: BaseStats): GeneEstimates {
  const { counts, G, n, x, p, sf } = pr;
  const maxDisp = Math.max(10, n);
  const op = leastSquaresOperator(x, n, p);
  const norm = new Float64Array(n);
  const fitted = new Float64Array(n);
  const beta = new Float64Array(p);
  let xim = 0;
  for (let j = 0; j < n; j++) xim += 1 / sf[j]!;
  xim /= n;
  // Start: the smaller of a rough (linear-model) and a moments estimate.
  const alphaInit = new Float64Array(G);
  for (let g = 0; g < G; g++) {
    for (let j = 0; j < n; j++) norm[j] = counts[g * n + j]! / sf[j]!;
    linearFit(op, x, n, p, norm, 0, fitted, 0, beta);
    let s = 0;
    for (let j = 0; j < n; j++) {
      const m = Math.max(1, fitted[j]!);
      const d = norm[j]! - m;
      s += (d * d - m) / (m * m);
    }
    const rough = Math.max(s / (n - p), 0);
    const bm = base.baseMean[g]!;
    const moments = (base.baseVar[g]! - xim * bm) / (bm * bm);
    alphaInit[g] = Math.min(Math.max(MIN_DISP, Math.min(rough, moments)), maxDisp);
  }
  const mu = new Float64Array(G * n);
  if (designIsGroups(x, n, p)) {
    for (let g = 0; g < G; g++) {
      for (let j = 0; j < n; j++) norm[j] = counts[g * n + j]! / sf[j]!;
      linearFit(op, x, n, p, norm, 0, mu, g * n, beta);
      for (let j = 0; j < n; j++) mu[g * n + j] = Math.max(mu[g * n + j]! * sf[j]!, MIN_MU);
    }
  } else {
    const fitter = new BetaFitter(x, n, p, new Float64Array(p).fill(1e-6 / Math.LN2 ** 2));
    for (let g = 0; g < G; g++) {
      startBeta(op, counts, g, n, p, sf, norm, fitter.beta);
      fitter.fit(counts, g * n, sf, alphaInit[g]!, false);
      for (let j = 0; j < n; j++) {
        let eta = 0;
        for (let k = 0; k < p; k++) eta += x[k * n + j]! * fitter.beta[k]!;
        mu[g * n + j] = Math.max(sf[j]! * Math.exp(eta), MIN_MU);
      }
    }
  }
  const prob = new DispersionProblem(x, n, p);
  const dispGeneEst = new Float64Array(G);
  const dispGeneIter = new Int32Array(G);
  const minLogAlpha = Math.log(MIN_DISP / 10);
  for (let g = 0; g < G; g++) {
    if ((g & 1023) === 0) pr.signal?.throwIfAborted();
    prob.setGene(counts, g * n, mu, g * n);
    const r = lineSearch(prob, Math.log(alphaInit[g]!), minLogAlpha);
    let est = Math.min(Math.exp(r.logAlpha), maxDisp);
    dispGeneIter[g] = r.iter;
    // No increase of the likelihood: keep the start.
    if (r.lastLp < r.initialLp + Math.abs(r.initialLp) / 1e6) est = alphaInit[g]!;
    const converged = r.iter < 100 && r.iter !== 1;
    if (!converged && est > MIN_DISP * 10) est = Math.exp(gridSearch(prob));
    dispGeneEst[g] = Math.min(Math.max(est, MIN_DISP), maxDisp);
  }
  return { dispGeneEst, dispGeneIter, mu };
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

export interface DispersionTrend {
  type: 'parametric' | 'mean';
  /** Why this trend (DESeq2's fallback note when the parametric fit failed). */
  note: string;
  asymptDisp?: number;
  extraPois?: number;
  mean?: number;
  varLogDispEsts: number;
  priorVar: number;
  at(mean: number): number;
}

export function fitDispersionTrend(
  baseMean: Float64Array,
  dispGeneEst: Float64Array,
  m: number,
  p: number,
): DispersionTrend {
  const use: number[] = [];
  for (let g = 0; g < dispGeneEst.length; g++) if (dispGeneEst[g]! > 100 * MIN_DISP) use.push(g);
  if (use.length === 0)
    throw new Error(
      'all gene-wise dispersion estimates are within 2 orders of magnitude of the minimum; the trend cannot be fitted',
    );
  const fit = parametricDispersionFit(
    use.map((g) => baseMean[g]!),
    use.map((g) => dispGeneEst[g]!),
  );
  let at: (mean: number) => number;
  let base: Omit<DispersionTrend, 'varLogDispEsts' | 'priorVar' | 'at'>;
  if (fit) {
    at = (mu) => fit.asymptDisp + fit.extraPois / mu;
    base = { type: 'parametric', note: 'parametric fit a + b / mean', ...fit };
  } else {
    // DESeq2 substitutes a local regression (locfit) here; this engine uses its other fallback, the mean.
    const vals: number[] = [];
    for (let g = 0; g < dispGeneEst.length; g++) if (dispGeneEst[g]! > 10 * MIN_DISP) vals.push(dispGeneEst[g]!);
    const meanDisp = trimmedMean(vals, 0.001);
    at = () => meanDisp;
    base = {
      type: 'mean',
      note: 'the parametric fit failed (as DESeq2 reports); the trimmed mean of gene-wise dispersions was used instead of a local fit',
      mean: meanDisp,
    };
  }
  const resid: number[] = [];
  for (let g = 0; g < dispGeneEst.length; g++)
    if (dispGeneEst[g]! >= MIN_DISP * 100) resid.push(Math.log(dispGeneEst[g]!) - Math.log(at(baseMean[g]!)));
  const varLogDispEsts = mad(resid) ** 2;
  return { ...base, varLogDispEsts, priorVar: dispersionPriorVar(varLogDispEsts, m, p), at };
}

/** R's mean(x, trim). */
export function trimmedMean(x: ArrayLike<number>, trim: number): number {
  const n = x.length;
  if (n === 0) return NaN;
  const s = Float64Array.from(x).sort();
  if (trim >= 0.5) {
    const h = n >> 1;
    return n % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
  }
  if (trim > 0) {
    const lo = Math.floor(n * trim);
    const hi = n - lo;
    let t = 0;
    for (let i = lo; i < hi; i++) t += s[i]!;
    return t / (hi - lo);
  }
  let t = 0;
  for (let i = 0; i < n; i++) t += s[i]!;
  return t / n;
}

export interface FinalDispersions {
  dispFit: Float64Array;
  dispMAP: Float64Array;
  dispersion: Float64Array;
  dispOutlier: Uint8Array;
}

export function mapDispersions(
  pr: NbProblem,
  base: BaseStats,
  gene: GeneEstimates,
  trend: DispersionTrend,
): FinalDispersions {
  const { counts, G, n, x, p } = pr;
  const maxDisp = Math.max(10, n);
  const dispFit = new Float64Array(G);
  for (let g = 0; g < G; g++) dispFit[g] = trend.at(base.baseMean[g]!);
  const prob = new DispersionProblem(x, n, p);
  prob.usePrior = true;
  prob.priorVar = trend.priorVar;
  const dispMAP = new Float64Array(G);
  const dispersion = new Float64Array(G);
  const dispOutlier = new Uint8Array(G);
  const minLogAlpha = Math.log(MIN_DISP / 10);
  const sdLog = Math.sqrt(trend.varLogDispEsts);
  for (let g = 0; g < G; g++) {
    if ((g & 1023) === 0) pr.signal?.throwIfAborted();
    const ge = gene.dispGeneEst[g]!;
    const fit = dispFit[g]!;
    const init = ge > 0.1 * fit ? ge : fit;
    prob.priorMean = Math.log(fit);
    prob.setGene(counts, g * n, gene.mu, g * n);
    const r = lineSearch(prob, Math.log(init), minLogAlpha);
    let d = Math.exp(r.logAlpha);
    if (!(r.iter < 100)) d = Math.exp(gridSearch(prob));
    d = Math.min(Math.max(d, MIN_DISP), maxDisp);
    dispMAP[g] = d;
    const outlier = Math.log(ge) > Math.log(fit) + 2 * sdLog;
    dispOutlier[g] = outlier ? 1 : 0;
    dispersion[g] = outlier ? ge : d;
  }
  return { dispFit, dispMAP, dispersion, dispOutlier };
}
