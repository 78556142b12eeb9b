// TMM normalisation (Robinson & Oshlack 2010) with edgeR calcNormFactors' defaults: reference sample by
// upper quartile closest to the mean, logratioTrim 0.3, sumTrim 0.05, precision weighting, Acutoff -1e10.
import type { Matrix } from './matrix.js';
import { column } from './matrix.js';
import { quantile, rankAverage } from './summary.js';

export interface TmmOptions {
  logratioTrim?: number;
  sumTrim?: number;
  doWeighting?: boolean;
  acutoff?: number;
}

export interface TmmResult {
  normFactors: Float64Array;
  refColumn: number;
}

export function calcNormFactorsTMM(counts: Matrix, libSize: Float64Array, opts: TmmOptions = {}): TmmResult {
  const { ncol } = counts;
  // Rows that are zero in every sample carry no information.
  const keep: number[] = [];
  for (let i = 0; i < counts.nrow; i++) {
    const o = i * ncol;
    for (let j = 0; j < ncol; j++) if (counts.data[o + j] > 0) { keep.push(i); break; }
  }
  if (keep.length === 0 || ncol === 1) return { normFactors: new Float64Array(ncol).fill(1), refColumn: 0 };
  const cols: Float64Array[] = [];
  for (let j = 0; j < ncol; j++) {
    const c = column(counts, j);
    const k = new Float64Array(keep.length);
    for (let r = 0; r < keep.length; r++) k[r] = c[keep[r]];
    cols.push(k);
  }
  const f75 = cols.map((c, j) => quantile(c, 0.75) / libSize[j]);
  const sortedF = [...f75].sort((a, b) => a - b);
  const medF = sortedF.length % 2 ? sortedF[(sortedF.length - 1) / 2] : (sortedF[sortedF.length / 2 - 1] + sortedF[sortedF.length / 2]) / 2;
  let ref = 0;
  if (medF < 1e-20) {
    let best = -Infinity;
    cols.forEach((c, j) => {
      let s = 0;
      for (const v of c) s += Math.sqrt(v);
      if (s > best) { best = s; ref = j; }
    });
  } else {
    const m = f75.reduce((a, b) => a + b, 0) / ncol;
    let best = Infinity;
    f75.forEach((v, j) => {
      const d = Math.abs(v - m);
      if (d < best) { best = d; ref = j; }
    });
  }
  const f = new Float64Array(ncol);
  for (let j = 0; j < ncol; j++) f[j] = tmmFactor(cols[j], cols[ref], libSize[j], libSize[ref], opts);
  let logMean = 0;
  for (let j = 0; j < ncol; j++) logMean += Math.log(f[j]);
  const g = Math.exp(logMean / ncol);
  for (let j = 0; j < ncol; j++) f[j] /= g;
  return { normFactors: f, refColumn: ref };
}

function tmmFactor(obs: Float64Array, ref: Float64Array, nO: number, nR: number, opts: TmmOptions): number {
  const logratioTrim = opts.logratioTrim ?? 0.3;
  const sumTrim = opts.sumTrim ?? 0.05;
  const doWeighting = opts.doWeighting ?? true;
  const acutoff = opts.acutoff ?? -1e10;
  const logR: number[] = [];
  const absE: number[] = [];
  const v: number[] = [];
  for (let i = 0; i < obs.length; i++) {
    const lr = Math.log2(obs[i] / nO / (ref[i] / nR));
    const ae = (Math.log2(obs[i] / nO) + Math.log2(ref[i] / nR)) / 2;
    if (!Number.isFinite(lr) || !Number.isFinite(ae) || !(ae > acutoff)) continue;
    logR.push(lr);
    absE.push(ae);
    v.push((nO - obs[i]) / nO / obs[i] + (nR - ref[i]) / nR / ref[i]);
  }
  let maxAbs = 0;
  for (const x of logR) maxAbs = Math.max(maxAbs, Math.abs(x));
  if (maxAbs < 1e-6) return 1;
  const n = logR.length;
  const loL = Math.floor(n * logratioTrim) + 1;
  const hiL = n + 1 - loL;
  const loS = Math.floor(n * sumTrim) + 1;
  const hiS = n + 1 - loS;
  const rL = rankAverage(logR);
  const rE = rankAverage(absE);
  let num = 0;
  let den = 0;
  let cnt = 0;
  for (let i = 0; i < n; i++) {
    if (rL[i] >= loL && rL[i] <= hiL && rE[i] >= loS && rE[i] <= hiS) {
      if (doWeighting) {
        num += logR[i] / v[i];
        den += 1 / v[i];
      } else {
        num += logR[i];
        den += 1;
      }
      cnt++;
    }
  }
  const fct = cnt === 0 ? 0 : num / den;
  return 2 ** (Number.isNaN(fct) ? 0 : fct);
}
