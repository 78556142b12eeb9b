// edgeR's quasi-likelihood pipeline as edgeR 3.40 runs it (Lund et al. 2012; Chen, Lun & Smyth 2016):
// filterByExpr, TMM, estimateDisp (adjusted profile likelihoods on a 21-point grid, the common dispersion
// from their sum and the trended dispersion from a local-constant smooth against abundance), glmQLFit
// (classic: deviance / residual df squeezed towards an abundance trend, limma's squeezeVar) and glmQLFTest.
import betainc from '@stdlib/math-base-special-betainc';
import gammainc from '@stdlib/math-base-special-gammainc';
import type { RunHooks } from '@evident/contract';
import { TargetDiscoveryInputError } from '../../errors.js';
import { adjustBH } from '../../stats/bh.js';
import { squeezeVar } from '../../stats/ebayes.js';
import { filterByExpr } from '../../stats/filter-by-expr.js';
import type { Design } from '../../stats/lmfit.js';
import { columnSums, type Matrix } from '../../stats/matrix.js';
import { calcNormFactorsTMM } from '../../stats/tmm.js';
import { defaultThreads } from '../../parallel/pool.js';
import { checkResidualDf, stepper } from '../run-checks.js';
import { sharedF64 } from '@evident/worker-threads';
import { glmFitAll } from './fit-all.js';
import { aveLogCPM, priorCount } from './glm.js';
import { maximizeInterpolant } from './interpolate.js';
import { locfitDegree0ByCol } from './locfit.js';
import { GRID, independentColumns, profileLikelihoodGrid } from './profile-lik.js';

export interface EdgerQlResult {
  /** Which input rows were kept by filterByExpr (the statistics are for those, in order). */
  keep: Uint8Array;
  logFC: Float64Array;
  logCPM: Float64Array;
  F: Float64Array;
  pValue: Float64Array;
  fdr: Float64Array;
  libSize: Float64Array;
  normFactors: Float64Array;
  commonDispersion: number;
  trendedDispersion: Float64Array;
  dfPrior: number;
  s2PriorMedian: number;
  span: number;
}

export interface EdgerQlOptions {
  /**
   * Threads for the per-gene fits (default: every core for large inputs, see parallel/pool.ts). Any count
   * gives the same results bit for bit: each gene is fitted by the same code on whichever thread takes it.
   */
  threads?: number;
}

export function edgerQl(
  counts: Matrix,
  design: Design,
  coef: number,
  groupSizes: number[],
  hooks: RunHooks = {},
  opts: EdgerQlOptions = {},
): EdgerQlResult {
  const step = stepper(hooks);
  const { ncol: n } = counts;
  const { x, p } = design;
  checkResidualDf(n, p, 'edgeR');
  step('edgeR filterByExpr and TMM', 0);
  const keep = filterByExpr(counts, groupSizes);
  const threads = Math.max(1, Math.floor(opts.threads ?? defaultThreads(counts.nrow * n)));
  const signal = hooks.signal;
  const fitOpts = { threads, signal };
  const sub = keptRows(counts, keep, threads > 1);
  const G = sub.nrow;
  if (G < 2)
    throw new TargetDiscoveryInputError(
      'too_few_features',
      'expression_matrix',
      `only ${G} feature(s) pass filterByExpr; need at least 2`,
    );
  const y = sub.data;
  const libSize = columnSums(sub);
  const normFactors = calcNormFactorsTMM(sub, libSize).normFactors;
  const offset = Float64Array.from(libSize, (l, j) => Math.log(l * normFactors[j]!));

  step('edgeR estimateDisp', 0.1);
  const selected: number[] = [];
  for (let g = 0; g < G; g++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += y[g * n + j]!;
    if (s >= 5) selected.push(g);
  }
  const sel = Int32Array.from(selected);
  const S = sel.length;
  const l0 = profileLikelihoodGrid(y, sel, n, x, p, offset, threads, signal);
  const colSumsL0 = new Float64Array(GRID.length);
  for (let r = 0; r < S; r++) for (let i = 0; i < GRID.length; i++) colSumsL0[i]! += l0[r * GRID.length + i]!;
  const common = 0.1 * 2 ** maximizeInterpolant(GRID, colSumsL0, 1)[0]!;
  const logCPM = aveLogCPM(y, G, n, offset, new Float64Array(G).fill(common));
  const cov = selected.map((g) => logCPM[g]!);
  const span = S <= 50 ? 1 : 0.25 + 0.75 * (50 / S) ** 0.5;
  step('edgeR dispersion trend', 0.5);
  const m0 = locfitDegree0ByCol(l0, S, GRID.length, cov, span);
  const trendSel = maximizeInterpolant(GRID, m0, S);
  let minAt = 0;
  for (let r = 1; r < S; r++) if (cov[r]! < cov[minAt]!) minAt = r;
  const trended = new Float64Array(G).fill(0.1 * 2 ** trendSel[minAt]!);
  selected.forEach((g, r) => {
    trended[g] = 0.1 * 2 ** trendSel[r]!;
  });

  step('edgeR glmQLFit', 0.7);
  const fit = glmFitAll(y, G, n, x, p, offset, trended, fitOpts);
  const aug = priorCount(n, offset, 0.125);
  const shrunk = glmFitAll(y, G, n, x, p, aug.offset, trended, { ...fitOpts, add: aug.add });
  const df = residualDf(fit.zeros, G, n, x, p);
  const s2 = new Float64Array(G);
  for (let g = 0; g < G; g++) s2[g] = df[g] === 0 ? 0 : Math.max(fit.deviance[g]! / df[g]!, 0);
  const sq = squeezeVar(s2, df, logCPM);

  step('edgeR glmQLFTest', 0.85);
  const p0 = p - 1;
  const x0 = new Float64Array(n * p0);
  for (let k = 0, c = 0; k < p; k++) if (k !== coef) x0.set(x.subarray(k * n, k * n + n), n * c++);
  const nul = glmFitAll(y, G, n, x0, p0, offset, trended, fitOpts);
  const maxDf = G * (n - p);
  const logFC = new Float64Array(G);
  const F = new Float64Array(G);
  const pValue = new Float64Array(G);
  for (let g = 0; g < G; g++) {
    logFC[g] = shrunk.coef[g * p + coef]! / Math.LN2;
    F[g] = (nul.deviance[g]! - fit.deviance[g]!) / 1 / sq.varPost[g]!;
    const dfTotal = Math.min(sq.dfPrior + df[g]!, maxDf);
    pValue[g] = fUpper(F[g]!, 1, dfTotal);
  }
  poissonBound(y, G, n, x, p, x0, p0, offset, fit.minMu, trended, sq.varPost, pValue);
  const sorted = Float64Array.from(sq.varPrior).sort();
  return {
    keep,
    logFC,
    logCPM,
    F,
    pValue,
    fdr: adjustBH(pValue),
    libSize,
    normFactors,
    commonDispersion: common,
    trendedDispersion: trended,
    dfPrior: sq.dfPrior,
    s2PriorMedian: sorted[Math.floor((G - 1) / 2)]! / 2 + sorted[Math.ceil((G - 1) / 2)]! / 2,
    span,
  };
}

/** P(F(d1, d2) > f). */
function fUpper(f: number, d1: number, d2: number): number {
  if (!(f > 0)) return 1;
  if (!Number.isFinite(d2)) return gammainc((d1 * f) / 2, d1 / 2, true, true);
  return betainc(d2 / (d2 + d1 * f), d2 / 2, d1 / 2, true, false);
}

/** edgeR's .residDF: residual df per gene, less where fitted zeros make coefficients inestimable. */
function residualDf(zeros: Uint8Array, G: number, n: number, x: Float64Array, p: number): Float64Array {
  const df = new Float64Array(G);
  const cache = new Map<string, number>();
  for (let g = 0; g < G; g++) {
    const z = zeros.subarray(g * n, g * n + n);
    let nz = 0;
    for (const v of z) nz += v;
    if (nz === 0) df[g] = n - p;
    else if (nz === n) df[g] = 0;
    else {
      const key = z.join('');
      let rank = cache.get(key);
      if (rank === undefined) {
        const rows = Array.from({ length: n }, (_, j) => j).filter((j) => !z[j]);
        rank = independentColumns(x, n, p, rows).length;
        cache.set(key, rank);
      }
      df[g] = Math.max(n - nz - rank, 0);
    }
  }
  return df;
}

/**
 * glmQLFTest's Poisson bound: where the QL dispersion pulls a gene's variance below Poisson for some sample,
 * its p-value is at least the Poisson likelihood-ratio test's.
 */
function poissonBound(
  y: Float64Array,
  G: number,
  n: number,
  x: Float64Array,
  p: number,
  x0: Float64Array,
  p0: number,
  offset: Float64Array,
  minMu: Float64Array,
  disp: Float64Array,
  s2: Float64Array,
  pValue: Float64Array,
): void {
  // Some sample with (mu phi + 1) s2 < 1: the smallest mean decides, as phi >= 0.
  const below: number[] = [];
  for (let g = 0; g < G; g++) if ((minMu[g]! * disp[g]! + 1) * s2[g]! < 1) below.push(g);
  if (below.length === 0) return;
  const zero = new Float64Array(below.length);
  const genes = Int32Array.from(below);
  const full = glmFitAll(y, G, n, x, p, offset, zero, { genes });
  const nul = glmFitAll(y, G, n, x0, p0, offset, zero, { genes });
  below.forEach((g, r) => {
    const lr = nul.deviance[r]! - full.deviance[r]!;
    const pp = lr > 0 ? gammainc(lr / 2, (p - p0) / 2, true, true) : 1;
    pValue[g] = Math.max(pValue[g]!, pp);
  });
}

/** filterByExpr's kept rows, copied (onto shared memory when worker threads will read them). */
function keptRows(m: Matrix, keep: Uint8Array, shared: boolean): Matrix {
  let rows = 0;
  for (let i = 0; i < m.nrow; i++) if (keep[i]) rows++;
  const n = m.ncol;
  const out = shared ? sharedF64(rows * n) : new Float64Array(rows * n);
  for (let i = 0, r = 0; i < m.nrow; i++) if (keep[i]) out.set(m.data.subarray(i * n, i * n + n), n * r++);
  return { nrow: rows, ncol: n, data: out };
}
