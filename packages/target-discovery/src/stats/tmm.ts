// TMM normalisation (Robinson & Oshlack 2010) with edgeR calcNormFactors' defaults: reference sample by
// upper quartile closest to the mean, logratioTrim 0.3, sumTrim 0.05, precision weighting, Acutoff -1e10.
import type { Matrix } from './matrix.js';
import { quantileSelect, rankWindow } from './summary.js';

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
    for (let j = 0; j < ncol; j++)
      if (counts.data[o + j]! > 0) {
        keep.push(i);
        break;
      }
  }
  if (keep.length === 0 || ncol === 1) return { normFactors: new Float64Array(ncol).fill(1), refColumn: 0 };
  // Columns are pulled out a block at a time: a full column-major copy would double the memory, and
  // one column at a time strides through the whole matrix per column (cache-hostile on large data).
  const forEachColumn = (fn: (c: Float64Array, j: number) => void) => {
    const B = 32;
    const m = keep.length;
    const block = Array.from({ length: B }, () => new Float64Array(m));
    for (let j0 = 0; j0 < ncol; j0 += B) {
      const w = Math.min(B, ncol - j0);
      for (let r = 0; r < m; r++) {
        const o = keep[r]! * ncol + j0;
        for (let b = 0; b < w; b++) block[b]![r] = counts.data[o + b]!;
      }
      for (let b = 0; b < w; b++) fn(block[b]!, j0 + b);
    }
  };
  const col = (j: number) => {
    const c = new Float64Array(keep.length);
    for (let r = 0; r < keep.length; r++) c[r] = counts.data[keep[r]! * ncol + j]!;
    return c;
  };
  const f75 = new Array<number>(ncol);
  forEachColumn((c, j) => (f75[j] = quantileSelect(c, 0.75) / libSize[j]!));
  const sortedF = [...f75].sort((a, b) => a - b);
  const half = sortedF.length >> 1;
  const medF = sortedF.length % 2 ? sortedF[half]! : (sortedF[half - 1]! + sortedF[half]!) / 2;
  let ref = 0;
  if (medF < 1e-20) {
    let best = -Infinity;
    forEachColumn((c, j) => {
      let s = 0;
      for (const v of c) s += Math.sqrt(v);
      if (s > best) {
        best = s;
        ref = j;
      }
    });
  } else {
    const m = f75.reduce((a, b) => a + b, 0) / ncol;
    let best = Infinity;
    f75.forEach((v, j) => {
      const d = Math.abs(v - m);
      if (d < best) {
        best = d;
        ref = j;
      }
    });
  }
  const f = new Float64Array(ncol);
  const refCol = col(ref);
  forEachColumn((c, j) => (f[j] = tmmFactor(c, refCol, libSize[j]!, libSize[ref]!, opts)));
  let logMean = 0;
  for (let j = 0; j < ncol; j++) logMean += Math.log(f[j]!);
  const g = Math.exp(logMean / ncol);
  for (let j = 0; j < ncol; j++) f[j]! /= g;
  return { normFactors: f, refColumn: ref };
}

function tmmFactor(obs: Float64Array, ref: Float64Array, nO: number, nR: number, opts: TmmOptions): number {
  const logratioTrim = opts.logratioTrim ?? 0.3;
  const sumTrim = opts.sumTrim ?? 0.05;
  const doWeighting = opts.doWeighting ?? true;
  const acutoff = opts.acutoff ?? -1e10;
  const m = obs.length;
  const logR = new Float64Array(m);
  const absE = new Float64Array(m);
  const v = new Float64Array(m);
  let n = 0;
  let maxAbs = 0;
  for (let i = 0; i < m; i++) {
    const lo = Math.log2(obs[i]! / nO);
    const lr = Math.log2(ref[i]! / nR);
    const r = Math.log2(obs[i]! / nO / (ref[i]! / nR));
    const e = (lo + lr) / 2;
    if (!Number.isFinite(r) || !Number.isFinite(e) || !(e > acutoff)) continue;
    logR[n] = r;
    absE[n] = e;
    v[n] = (nO - obs[i]!) / nO / obs[i]! + (nR - ref[i]!) / nR / ref[i]!;
    if (Math.abs(r) > maxAbs) maxAbs = Math.abs(r);
    n++;
  }
  if (maxAbs < 1e-6) return 1;
  const loL = Math.floor(n * logratioTrim) + 1;
  const hiL = n + 1 - loL;
  const loS = Math.floor(n * sumTrim) + 1;
  const hiS = n + 1 - loS;
  const inL = rankWindow(logR.subarray(0, n), loL, hiL);
  const inS = rankWindow(absE.subarray(0, n), loS, hiS);
  let num = 0;
  let den = 0;
  let cnt = 0;
  for (let i = 0; i < n; i++) {
    if (inL[i] && inS[i]) {
      if (doWeighting) {
        num += logR[i]! / v[i]!;
        den += 1 / v[i]!;
      } else {
        num += logR[i]!;
        den += 1;
      }
      cnt++;
    }
  }
  const fct = cnt === 0 ? 0 : num / den;
  return 2 ** (Number.isNaN(fct) ? 0 : fct);
}
