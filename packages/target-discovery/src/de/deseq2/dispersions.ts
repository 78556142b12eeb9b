// DESeq2's dispersion estimation (estimateDispersionsGeneEst, estimateDispersionsFit, estimateDispersionsMAP):
// gene-wise Cox-Reid estimates from a moments start, the mean-dispersion trend, then maximum a posteriori
// estimates shrunk towards the trend, with gene-wise estimates kept for dispersion outliers.
import { parallelFor } from '../../parallel/pool.js';
import { sharedF64, sharedI32, sharedU8 } from '@evident/worker-threads';
import { geneWiseRange, MIN_DISP, type GeneWiseArgs } from './gene-wise.js';
import { mapRange, type MapArgs } from './map.js';
import { dispersionPriorVar, mad, parametricDispersionFit } from './trend.js';

export { MIN_DISP, startBeta } from './gene-wise.js';

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
  /** Checked before every block of genes, so a cancelled job stops promptly. */
  signal?: AbortSignal;
  /** Threads for the per-gene loops (1: the calling thread only); counts must then be on shared memory. */
  threads?: number;
}

export interface BaseStats {
  baseMean: Float64Array;
  baseVar: Float64Array;
}

// Deliberate likeness: typed arrays sized from one input, alike in shape only to graph-algorithms' work graph.
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
  /**
   * G x n fitted means (clamped at 0.5) the estimates were made at, reused by the MAP step; empty for a group
   * design, whose means are cheap to recompute (saves a 480 MB matrix at 60,000 x 1,000).
   */
  mu: Float64Array;
}

/** Per-gene outputs on shared memory when other threads will write them. */
export function outputs(threads: number) {
  return threads > 1
    ? { f64: sharedF64, i32: sharedI32, u8: sharedU8 }
    : {
        f64: (k: number) => new Float64Array(k),
        i32: (k: number) => new Int32Array(k),
        u8: (k: number) => new Uint8Array(k),
      };
}

export function geneWiseDispersions(pr: NbProblem, base: BaseStats): GeneEstimates {
  const { counts, G, n, x, p, sf } = pr;
  const threads = pr.threads ?? 1;
  const out = outputs(threads);
  const groups = designIsGroups(x, n, p);
  const args: GeneWiseArgs = {
    counts,
    n,
    x,
    p,
    sf,
    baseMean: base.baseMean,
    baseVar: base.baseVar,
    groups,
    dispGeneEst: out.f64(G),
    dispGeneIter: out.i32(G),
    mu: groups ? new Float64Array(0) : out.f64(G * n),
  };
  parallelFor('deseq2.geneWise', geneWiseRange, args, G, { threads, block: 64, signal: pr.signal });
  return { dispGeneEst: args.dispGeneEst, dispGeneIter: args.dispGeneIter, mu: args.mu };
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
  const { counts, G, n, x, p, sf } = pr;
  const threads = pr.threads ?? 1;
  const out = outputs(threads);
  const dispFit = out.f64(G);
  for (let g = 0; g < G; g++) dispFit[g] = trend.at(base.baseMean[g]!);
  const args: MapArgs = {
    counts,
    n,
    x,
    p,
    sf,
    mu: gene.mu,
    dispGeneEst: gene.dispGeneEst,
    dispFit,
    priorVar: trend.priorVar,
    sdLog: Math.sqrt(trend.varLogDispEsts),
    dispMAP: out.f64(G),
    dispersion: out.f64(G),
    dispOutlier: out.u8(G),
  };
  parallelFor('deseq2.map', mapRange, args, G, { threads, block: 64, signal: pr.signal });
  return { dispFit, dispMAP: args.dispMAP, dispersion: args.dispersion, dispOutlier: args.dispOutlier };
}
