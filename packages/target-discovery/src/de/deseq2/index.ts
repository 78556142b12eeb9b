// DESeq2 (Love, Huber & Anders 2014) as DESeq() followed by results() with their defaults: median-of-ratios
// size factors, gene-wise / trend / MAP dispersions, the Wald test without a beta prior, Cook's-distance outlier
// handling (replacement and refit when a cell has seven or more replicates) and independent filtering.
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import fQuantile from '@stdlib/stats-base-dists-f-quantile';
import type { RunHooks } from '@evident/contract';
import type { Design } from '../../stats/lmfit.js';
import type { Matrix } from '../../stats/matrix.js';
import { defaultThreads } from '../../parallel/pool.js';
import { checkResidualDf, stepper } from '../run-checks.js';
import { sharedF64, toShared } from '@evident/worker-threads';
import { sizeFactorsMedianOfRatios } from './size-factors.js';
import {
  baseMeansAndVariances,
  fitDispersionTrend,
  geneWiseDispersions,
  mapDispersions,
  trimmedMean,
  type DispersionTrend,
  type NbProblem,
} from './dispersions.js';
import { designCells, waldTest, type WaldFit } from './wald.js';
import { independentFiltering } from './results.js';

export interface Deseq2Options {
  /** results()'s Cook's rule for a design with one two-level factor (don't filter when 3+ samples count more). */
  singleTwoLevelFactor: boolean;
  /** DESeq()'s minReplicatesForReplace (default 7). */
  minReplicatesForReplace?: number;
  /** results()'s alpha for independent filtering (default 0.1). */
  alpha?: number;
  /**
   * Threads for the per-gene fits (default: every core for large inputs, see parallel/pool.ts). Any count
   * gives the same results bit for bit: each gene is fitted by the same code on whichever thread takes it.
   */
  threads?: number;
}

export interface Deseq2Result {
  baseMean: Float64Array;
  log2FoldChange: Float64Array;
  lfcSE: Float64Array;
  stat: Float64Array;
  pvalue: Float64Array;
  padj: Float64Array;
  sizeFactors: Float64Array;
  /** Final dispersion per gene (NaN for all-zero genes). */
  dispersion: Float64Array;
  trend: Omit<DispersionTrend, 'at'>;
  filterThreshold: number;
  /** Genes whose p-value was removed as a Cook's outlier. */
  cooksOutliers: number;
  /** Genes refitted after outlier counts were replaced. */
  refitted: number;
  /** Genes whose GLM did not converge within 100 iterations (R then polishes them with optim()). */
  notConverged: number;
}

export function deseq2(counts: Matrix, design: Design, coefficient: number, opts: Deseq2Options, hooks: RunHooks = {}) {
  const step = stepper(hooks);
  const { nrow: G, ncol: n } = counts;
  const { p, x } = design;
  checkResidualDf(n, p, 'DESeq2');
  step('DESeq2 size factors', 0);
  const sf = sizeFactorsMedianOfRatios(counts);
  const nz = nonZeroRows(counts.data, G, n);
  const threads = Math.max(1, Math.floor(opts.threads ?? defaultThreads(G * n)));
  const shared = threads > 1;
  // Without all-zero genes the counts are used in place (no copy: 480 MB at 60,000 x 1,000) unless worker
  // threads need them on shared memory (then one copy, and the G x n matrix of fitted means is not kept).
  const sub = nz.length === G ? (shared ? toShared(counts.data) : counts.data) : pickRows(counts.data, n, nz, shared);
  const pr: NbProblem = { counts: sub, G: nz.length, n, x, p, sf, signal: hooks.signal, threads };
  step('DESeq2 gene-wise dispersions', 0.05);
  const base = baseMeansAndVariances(pr);
  const gene = geneWiseDispersions(pr, base);
  step('DESeq2 dispersion trend and MAP', 0.45);
  const trend = fitDispersionTrend(base.baseMean, gene.dispGeneEst, n, p);
  const fin = mapDispersions(pr, base, gene, trend);
  gene.mu = new Float64Array(0); // release before the Wald fits
  step('DESeq2 Wald test', 0.75);
  const cutoff = n > p ? fQuantile(0.99, p, n - p) : Infinity;
  const minRep = opts.minReplicatesForReplace ?? 7;
  const { cell, size } = designCells(x, n, p);
  const replaceable = new Uint8Array(n);
  let allReplaceable = true;
  let anyReplaceable = false;
  for (let j = 0; j < n; j++) {
    replaceable[j] = size[cell[j]!]! >= minRep ? 1 : 0;
    if (replaceable[j]) anyReplaceable = true;
    else allReplaceable = false;
  }
  const wald = waldTest(pr, fin.dispersion, cutoff, replaceable);
  const res = {
    baseMean: base.baseMean,
    beta: wald.beta,
    se: wald.se,
    dispersion: fin.dispersion,
    maxCooks: wald.maxCooks,
    replaced: new Uint8Array(nz.length),
  };
  // Outlier replacement and refit (DESeq()'s refitWithoutOutliers) when some cell has enough replicates;
  // afterwards maxCooks only counts the samples whose counts could not be replaced.
  let refitted = 0;
  if (anyReplaceable && wald.outlierSamples.size > 0) {
    step('DESeq2 refit after replacing outliers', 0.9);
    refitted = refitOutliers(pr, wald, replaceable, trend, res);
    res.maxCooks = allReplaceable ? new Float64Array(nz.length).fill(NaN) : wald.maxCooksKept;
  }
  step('DESeq2 results', 0.95);
  return assemble(counts, G, n, p, coefficient, nz, sf, trend, wald, res, refitted, cutoff, opts);
}

function nonZeroRows(data: Float64Array, G: number, n: number): Int32Array {
  const out: number[] = [];
  for (let g = 0; g < G; g++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += data[g * n + j]!;
    if (s !== 0) out.push(g);
  }
  return Int32Array.from(out);
}

function pickRows(data: Float64Array, n: number, rows: ArrayLike<number>, shared: boolean): Float64Array {
  const out = shared ? sharedF64(rows.length * n) : new Float64Array(rows.length * n);
  for (let r = 0; r < rows.length; r++) out.set(data.subarray(rows[r]! * n, rows[r]! * n + n), r * n);
  return out;
}

interface Fitted {
  baseMean: Float64Array;
  beta: Float64Array;
  se: Float64Array;
  dispersion: Float64Array;
  maxCooks: Float64Array;
  replaced: Uint8Array;
}

/**
 * Replaces counts with a Cook's distance above the cutoff, in samples of cells with enough replicates, by the
 * 20%-trimmed mean of normalised counts times the size factor (truncated to an integer), then refits those
 * genes with the trend and prior variance already estimated. maxCooks then only looks at the other samples.
 */
function refitOutliers(
  pr: NbProblem,
  wald: WaldFit,
  replaceable: Uint8Array,
  trend: DispersionTrend,
  res: Fitted,
): number {
  const { counts, n, sf } = pr;
  const genes = [...wald.outlierSamples.keys()].sort((a, b) => a - b);
  const newCounts = new Float64Array(genes.length * n);
  const norm = new Float64Array(n);
  genes.forEach((g, r) => {
    for (let j = 0; j < n; j++) norm[j] = counts[g * n + j]! / sf[j]!;
    const tm = trimmedMean(norm, 0.2);
    newCounts.set(counts.subarray(g * n, g * n + n), r * n);
    for (const j of wald.outlierSamples.get(g)!) if (replaceable[j]) newCounts[r * n + j] = Math.trunc(tm * sf[j]!);
  });
  // Genes that became all zero keep no results (they will be reported with log2FC 0 and p = 1).
  const keep: number[] = [];
  genes.forEach((g, r) => {
    let s = 0;
    for (let j = 0; j < n; j++) s += newCounts[r * n + j]!;
    res.replaced[g] = 1;
    if (s === 0) {
      res.baseMean[g] = 0;
      return;
    }
    keep.push(r);
  });
  if (keep.length > 0) {
    const subCounts = pickRows(newCounts, n, keep, (pr.threads ?? 1) > 1);
    const sub: NbProblem = { ...pr, counts: subCounts, G: keep.length };
    const base = baseMeansAndVariances(sub);
    const gene = geneWiseDispersions(sub, base);
    const fin = mapDispersions(sub, base, gene, trend);
    const w = waldTest(sub, fin.dispersion, Infinity);
    const p = pr.p;
    keep.forEach((r, k) => {
      const g = genes[r]!;
      res.baseMean[g] = base.baseMean[k]!;
      res.dispersion[g] = fin.dispersion[k]!;
      res.beta.set(w.beta.subarray(k * p, k * p + p), g * p);
      res.se.set(w.se.subarray(k * p, k * p + p), g * p);
    });
  }
  return genes.length;
}

function assemble(
  counts: Matrix,
  G: number,
  n: number,
  p: number,
  coef: number,
  nz: Int32Array,
  sf: Float64Array,
  trend: DispersionTrend,
  wald: WaldFit,
  res: Fitted,
  refitted: number,
  cutoff: number,
  opts: Deseq2Options,
): Deseq2Result {
  const nan = () => new Float64Array(G).fill(NaN);
  const out = {
    baseMean: new Float64Array(G),
    log2FoldChange: nan(),
    lfcSE: nan(),
    stat: nan(),
    pvalue: nan(),
    dispersion: nan(),
  };
  let cooksOutliers = 0;
  let notConverged = 0;
  const data = counts.data;
  for (let r = 0; r < nz.length; r++) {
    const g = nz[r]!;
    out.baseMean[g] = res.baseMean[r]!;
    out.dispersion[g] = res.dispersion[r]!;
    if (!wald.betaConv[r]) notConverged++;
    if (res.replaced[r] && res.baseMean[r] === 0) {
      out.log2FoldChange[g] = 0;
      out.lfcSE[g] = 0;
      out.stat[g] = 0;
      out.pvalue[g] = 1;
      continue;
    }
    const b = res.beta[r * p + coef]!;
    const s = res.se[r * p + coef]!;
    const z = b / s;
    out.log2FoldChange[g] = b;
    out.lfcSE[g] = s;
    out.stat[g] = z;
    out.pvalue[g] = 2 * normalCdf(-Math.abs(z), 0, 1);
    // Cook's outlier: the largest distance above the cutoff, unless (one two-level factor) at least three
    // samples have higher counts than the outlying one.
    if (res.maxCooks[r]! > cutoff) {
      let outlier = true;
      if (opts.singleTwoLevelFactor) {
        const oc = data[g * n + wald.maxCooksSample[r]!]!;
        let higher = 0;
        for (let j = 0; j < n; j++) if (data[g * n + j]! > oc) higher++;
        if (higher >= 3) outlier = false;
      }
      if (outlier) {
        out.pvalue[g] = NaN;
        cooksOutliers++;
      }
    }
  }
  const filt = independentFiltering(out.baseMean, out.pvalue, opts.alpha ?? 0.1);
  const { at: _at, ...trendInfo } = trend;
  return {
    ...out,
    padj: filt.padj,
    sizeFactors: sf,
    trend: trendInfo,
    filterThreshold: filt.threshold,
    cooksOutliers,
    refitted,
    notConverged,
  };
}
