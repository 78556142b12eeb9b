// Empirical Bayes moderation (Smyth 2004), following limma's fitFDist, squeezeVar, eBayes and tmixture.
import type { LinearFit } from './lmfit.js';
import { householder, applyQt, backSolve } from './qr.js';
import { naturalSplineBasis } from './spline.js';
import { digamma, trigamma, trigammaInverse, pt, qt, twoSidedP } from './special.js';
import { median } from './summary.js';

export interface FDistFit {
  /** Prior variance s0^2: one value, or one per feature when a covariate (trend) was used. */
  scale: Float64Array;
  df2: number;
}

/** Moment estimation of a scaled F distribution's scale and denominator df from the sample variances. */
export function fitFDist(x: ArrayLike<number>, df1: ArrayLike<number>, covariate?: ArrayLike<number>): FDistFit {
  const n = x.length;
  const ok: number[] = [];
  for (let i = 0; i < n; i++) {
    if (Number.isFinite(x[i]) && x[i]! > -1e-15 && Number.isFinite(df1[i]) && df1[i]! > 1e-15) ok.push(i);
  }
  const nok = ok.length;
  if (nok === 0) return { scale: new Float64Array(n).fill(NaN), df2: NaN };
  if (nok === 1) return { scale: new Float64Array(n).fill(x[ok[0]!]!), df2: 0 };
  let splinedf = 0;
  if (covariate) {
    splinedf = 1 + (nok >= 3 ? 1 : 0) + (nok >= 6 ? 1 : 0) + (nok >= 30 ? 1 : 0);
    const uniq = new Set<number>();
    for (const i of ok) uniq.add(covariate[i]!);
    splinedf = Math.min(splinedf, uniq.size);
    if (splinedf < 2) return fitFDist(x, df1);
  }
  const xs = new Float64Array(nok);
  for (let k = 0; k < nok; k++) xs[k] = Math.max(x[ok[k]!]!, 0);
  let m = median(xs);
  if (m === 0) m = 1; // more than half the variances are zero: limma warns and carries on
  const e = new Float64Array(nok);
  let meanTri = 0;
  // the df are mostly one value (every row's residual df): digamma and trigamma once per run of equal df
  let lastD = NaN;
  let dg = 0;
  let lg = 0;
  let tri = 0;
  for (let k = 0; k < nok; k++) {
    const d = df1[ok[k]!]!;
    if (d !== lastD) {
      lastD = d;
      dg = digamma(d / 2);
      lg = Math.log(d / 2);
      tri = trigamma(d / 2);
    }
    const v = Math.max(xs[k]!, 1e-5 * m);
    xs[k] = v;
    e[k] = Math.log(v) - dg + lg;
    meanTri += tri;
  }
  meanTri /= nok;
  let emean: Float64Array;
  let evar: number;
  if (!covariate) {
    let s = 0;
    for (let k = 0; k < nok; k++) s += e[k]!;
    const mu = s / nok;
    let ss = 0;
    for (let k = 0; k < nok; k++) ss += (e[k]! - mu) * (e[k]! - mu);
    evar = ss / (nok - 1);
    emean = new Float64Array(n).fill(mu);
  } else {
    const cov = new Float64Array(nok);
    for (let k = 0; k < nok; k++) cov[k] = covariate[ok[k]!]!;
    const fit = splineTrend(cov, e, splinedf, covariate);
    emean = fit.fittedAll;
    evar = fit.rss / (nok - splinedf);
  }
  evar -= meanTri;
  const scale = new Float64Array(n);
  let df2: number;
  if (evar > 0) {
    df2 = 2 * trigammaInverse(evar);
    const adj = digamma(df2 / 2) - Math.log(df2 / 2);
    for (let i = 0; i < n; i++) scale[i] = Math.exp(emean[i]! + adj);
  } else {
    df2 = Infinity;
    if (!covariate) {
      let s = 0;
      for (let k = 0; k < nok; k++) s += xs[k]!;
      scale.fill(s / nok);
    } else for (let i = 0; i < n; i++) scale[i] = Math.exp(emean[i]!);
  }
  return { scale, df2 };
}

/** Least-squares natural-spline fit of e on cov; fitted values evaluated at every feature's covariate. */
function splineTrend(cov: Float64Array, e: Float64Array, df: number, allCov: ArrayLike<number>) {
  const n = cov.length;
  const qx = naturalSplineBasis(cov, df);
  const vh = new Float64Array(df);
  const rd = new Float64Array(df);
  if (!householder(qx, n, df, vh, rd)) throw new Error('fitFDist: spline basis is rank deficient');
  const qty = Float64Array.from(e);
  applyQt(qx, n, df, vh, qty);
  let rss = 0;
  for (let i = df; i < n; i++) rss += qty[i]! * qty[i]!;
  const coef = new Float64Array(df);
  backSolve(qx, n, df, rd, qty, coef);
  const N = allCov.length;
  const basisAll = naturalSplineBasis(cov, df, allCov);
  const fittedAll = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    let s = 0;
    for (let k = 0; k < df; k++) s += basisAll[k * N + i]! * coef[k]!;
    fittedAll[i] = s;
  }
  return { rss, fittedAll };
}

export interface SqueezedVar {
  dfPrior: number;
  varPrior: Float64Array;
  varPost: Float64Array;
}

export function squeezeVar(v: ArrayLike<number>, df: ArrayLike<number>, covariate?: ArrayLike<number>): SqueezedVar {
  const n = v.length;
  const fit = fitFDist(v, df, covariate);
  const dfPrior = fit.df2;
  if (Number.isNaN(dfPrior)) throw new Error('squeezeVar: could not estimate the prior degrees of freedom');
  const varPost = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const d = df[i]!;
    const vi = d === 0 ? 0 : v[i]!;
    varPost[i] = Number.isFinite(dfPrior) ? (d * vi + dfPrior * fit.scale[i]!) / (d + dfPrior) : fit.scale[i]!;
  }
  return { dfPrior, varPrior: fit.scale, varPost };
}

export interface ModeratedStats {
  coefficient: number;
  logFC: Float64Array;
  t: Float64Array;
  pValue: Float64Array;
  b: Float64Array;
  dfTotal: Float64Array;
  s2Post: Float64Array;
  dfPrior: number;
  /** Prior variance; a single value unless a trend was fitted. */
  s2Prior: Float64Array;
  /** Prior variance of the coefficient among truly changed genes (for B). */
  coefVarPrior: number;
}

export interface EBayesOptions {
  proportion?: number;
  stdevCoefLim?: [number, number];
  /** limma-trend: prior variance follows average expression. */
  trend?: boolean;
}

/** eBayes for one coefficient (index into the design), as topTable(coef = j) reports it. */
export function eBayes(fit: LinearFit, coefficient: number, opts: EBayesOptions = {}): ModeratedStats {
  const proportion = opts.proportion ?? 0.01;
  const lim = opts.stdevCoefLim ?? [0.1, 4];
  const G = fit.nGenes;
  const p = fit.p;
  const s2 = new Float64Array(G);
  let dfPooled = 0;
  let anyDf = false;
  for (let g = 0; g < G; g++) {
    s2[g] = fit.sigma[g]! * fit.sigma[g]!;
    if (!Number.isNaN(fit.dfResidual[g])) dfPooled += fit.dfResidual[g]!;
    if (fit.dfResidual[g]! > 0) anyDf = true;
  }
  if (!anyDf) throw new Error('eBayes: no residual degrees of freedom in the linear model fits');
  const sq = squeezeVar(s2, fit.dfResidual, opts.trend ? fit.amean : undefined);
  const logFC = new Float64Array(G);
  const t = new Float64Array(G);
  const pValue = new Float64Array(G);
  const dfTotal = new Float64Array(G);
  const su = new Float64Array(G);
  for (let g = 0; g < G; g++) {
    const beta = fit.coefficients[g * p + coefficient]!;
    su[g] = fit.stdevUnscaled[g * p + coefficient]!;
    logFC[g] = beta;
    t[g] = beta / su[g]! / Math.sqrt(sq.varPost[g]!);
    dfTotal[g] = Math.min(fit.dfResidual[g]! + sq.dfPrior, dfPooled);
    pValue[g] = twoSidedP(t[g]!, dfTotal[g]!);
  }
  // B-statistic (log-odds of differential expression).
  const medPrior = median(sq.varPrior);
  const v0lim: [number, number] = [(lim[0] * lim[0]) / medPrior, (lim[1] * lim[1]) / medPrior];
  let v0 = tmixture(t, su, dfTotal, proportion, v0lim);
  if (Number.isNaN(v0)) v0 = 1 / medPrior;
  const b = new Float64Array(G);
  const infDf = sq.dfPrior > 1e6;
  const logOdds = Math.log(proportion / (1 - proportion));
  for (let g = 0; g < G; g++) {
    const u2 = su[g]! * su[g]!;
    const r = (u2 + v0) / u2;
    const t2 = t[g]! * t[g]!;
    const d = dfTotal[g]!;
    const kernel = infDf ? (t2 * (1 - 1 / r)) / 2 : ((1 + d) / 2) * Math.log((t2 + d) / (t2 / r + d));
    b[g] = logOdds - Math.log(r) / 2 + kernel;
  }
  return {
    coefficient,
    logFC,
    t,
    pValue,
    b,
    dfTotal,
    s2Post: sq.varPost,
    dfPrior: sq.dfPrior,
    s2Prior: sq.varPrior,
    coefVarPrior: v0,
  };
}

/** limma's tmixture.vector: prior variance of non-zero coefficients from the top t-statistics. */
export function tmixture(
  tstat: ArrayLike<number>,
  stdevUnscaled: ArrayLike<number>,
  df: ArrayLike<number>,
  proportion: number,
  v0lim?: [number, number],
): number {
  const idx: number[] = [];
  for (let i = 0; i < tstat.length; i++) if (!Number.isNaN(tstat[i])) idx.push(i);
  const ngenes = idx.length;
  const ntarget = Math.ceil((proportion / 2) * ngenes);
  if (ntarget < 1) return NaN;
  const p = Math.max(ntarget / ngenes, proportion);
  let maxDf = -Infinity;
  for (const i of idx) maxDf = Math.max(maxDf, df[i]!);
  const ts = new Float64Array(ngenes);
  for (let k = 0; k < ngenes; k++) {
    const i = idx[k]!;
    let a = Math.abs(tstat[i]!);
    if (df[i]! < maxDf) {
      // Put every statistic on the same df scale via its tail probability (limma does this on the log
      // scale; here a tail that underflows double precision keeps its t, where df no longer matters).
      const tail = pt(-a, df[i]!);
      if (tail > 0) a = -qt(tail, maxDf);
    }
    ts[k] = a;
  }
  const order = Array.from({ length: ngenes }, (_, k) => k)
    .sort((a, b) => ts[b]! - ts[a]! || a - b)
    .slice(0, ntarget);
  let sum = 0;
  for (let r = 1; r <= ntarget; r++) {
    const k = order[r - 1]!;
    const tk = ts[k]!;
    const v1 = stdevUnscaled[idx[k]!]! ** 2;
    const p0 = 2 * pt(-tk, maxDf);
    const ptarget = ((r - 0.5) / ngenes - (1 - p) * p0) / p;
    let v0 = 0;
    if (ptarget > p0) {
      const qtarget = -qt(ptarget / 2, maxDf);
      v0 = v1 * ((tk / qtarget) ** 2 - 1);
    }
    if (v0lim) v0 = Math.min(Math.max(v0, v0lim[0]), v0lim[1]);
    sum += v0;
  }
  return sum / ntarget;
}
