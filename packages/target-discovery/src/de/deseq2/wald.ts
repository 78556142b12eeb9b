// DESeq2's nbinomWaldTest with betaPrior = FALSE (the default since DESeq2 1.16) and the Cook's distances
// it records (calculateCooksDistance, recordMaxCooks): per gene, the GLM fit at the final dispersion, the
// Wald statistic of every coefficient, and the largest Cook's distance among samples in cells of three or more.
import { parallelFor } from '../../parallel/pool.js';
import { BetaFitter, leastSquaresOperator } from './glm.js';
import { outputs, trimmedMean, type NbProblem } from './dispersions.js';
import { startBeta } from './gene-wise.js';

export interface WaldFit {
  /** G x p, log2 scale. */
  beta: Float64Array;
  se: Float64Array;
  betaIter: Int32Array;
  betaConv: Uint8Array;
  maxCooks: Float64Array;
  /** maxCooks with the replaceable samples' distances taken as 0 (what DESeq() records after a refit). */
  maxCooksKept: Float64Array;
  /** Per gene, the sample with the largest Cook's distance over all samples (results()'s outlier check). */
  maxCooksSample: Int32Array;
  /** Per gene, the samples whose Cook's distance exceeds `cooksCutoff` (for outlier replacement). */
  outlierSamples: Map<number, number[]>;
}

/** Cells: samples with identical design rows; the cell index of each sample and each cell's size. */
export function designCells(x: Float64Array, n: number, p: number): { cell: Int32Array; size: number[] } {
  const ids = new Map<string, number>();
  const cell = new Int32Array(n);
  const size: number[] = [];
  for (let i = 0; i < n; i++) {
    const row: number[] = [];
    for (let k = 0; k < p; k++) row.push(x[k * n + i]!);
    const key = row.join('_');
    let c = ids.get(key);
    if (c === undefined) {
      c = size.length;
      ids.set(key, c);
      size.push(0);
    }
    cell[i] = c;
    size[c]!++;
  }
  return { cell, size };
}

/** The kernel's arguments on shared memory: the inputs, and WaldFit's arrays as outputs. */
export interface WaldArgs extends Omit<WaldFit, 'outlierSamples'> {
  counts: Float64Array;
  n: number;
  x: Float64Array;
  p: number;
  sf: Float64Array;
  dispersion: Float64Array;
  cooksCutoff: number;
  /** Samples whose counts can be replaced (empty: none). */
  replaceable: Uint8Array;
}

export function waldTest(
  pr: NbProblem,
  dispersion: Float64Array,
  cooksCutoff: number,
  replaceable?: Uint8Array,
): WaldFit {
  const { counts, G, n, x, p, sf } = pr;
  const threads = pr.threads ?? 1;
  const out = outputs(threads);
  const args: WaldArgs = {
    counts,
    n,
    x,
    p,
    sf,
    dispersion,
    cooksCutoff,
    replaceable: replaceable ?? new Uint8Array(0),
    beta: out.f64(G * p),
    se: out.f64(G * p),
    betaIter: out.i32(G),
    betaConv: out.u8(G),
    maxCooks: out.f64(G),
    maxCooksKept: out.f64(G),
    maxCooksSample: out.i32(G),
  };
  const blocks = parallelFor('deseq2.wald', waldRange, args, G, { threads, block: 128, signal: pr.signal });
  const outlierSamples = new Map<number, number[]>();
  for (const list of blocks as Array<Array<[number, number[]]>>) for (const [g, s] of list) outlierSamples.set(g, s);
  const { beta, se, betaIter, betaConv, maxCooks, maxCooksKept, maxCooksSample } = args;
  return { beta, se, betaIter, betaConv, maxCooks, maxCooksKept, maxCooksSample, outlierSamples };
}

/** The per-gene fits and Cook's distances for genes [start, end); returns the genes with outlying samples. */
export function waldRange(a: WaldArgs, start: number, end: number): Array<[number, number[]]> | undefined {
  const { counts, n, x, p, sf, dispersion, cooksCutoff, replaceable } = a;
  const op = leastSquaresOperator(x, n, p);
  const fitter = new BetaFitter(x, n, p, new Float64Array(p).fill(1e-6 / Math.LN2 ** 2));
  const work = new Float64Array(n);
  const { cell, size } = designCells(x, n, p);
  const forCooks = new Uint8Array(n);
  let anyForCooks = false;
  for (let i = 0; i < n; i++) {
    forCooks[i] = size[cell[i]!]! >= 3 ? 1 : 0;
    if (forCooks[i]) anyForCooks = true;
  }
  const cooksRecorded = n > p && anyForCooks;
  const moments = new RobustMoments(cell, size, n);
  const log2e = Math.LOG2E;
  const mu = new Float64Array(n);
  let found: Array<[number, number[]]> | undefined;
  for (let g = start; g < end; g++) {
    startBeta(op, counts, g, n, p, sf, work, fitter.beta);
    const alpha = dispersion[g]!;
    const r = fitter.fit(counts, g * n, sf, alpha, true);
    a.betaIter[g] = r.iter;
    a.betaConv[g] = r.iter < 100 ? 1 : 0;
    for (let k = 0; k < p; k++) {
      a.beta[g * p + k] = log2e * fitter.beta[k]!;
      a.se[g * p + k] = log2e * Math.sqrt(Math.max(fitter.betaVar[k]!, 0));
    }
    // Cook's distances: Pearson residuals under a robust moments dispersion, at the unclamped mean.
    for (let j = 0; j < n; j++) {
      let eta = 0;
      for (let k = 0; k < p; k++) eta += x[k * n + j]! * fitter.beta[k]!;
      mu[j] = sf[j]! * Math.exp(eta);
    }
    const disp = moments.dispersion(counts, g * n, sf);
    let best = -Infinity;
    let kept = -Infinity;
    let bestAll = -Infinity;
    let bestAllJ = 0;
    let outs: number[] | undefined;
    for (let j = 0; j < n; j++) {
      const m = mu[j]!;
      const v = m + disp * m * m;
      const d = counts[g * n + j]! - m;
      const h = fitter.hat[j]!;
      const c = ((d * d) / v / p) * (h / ((1 - h) * (1 - h)));
      if (c > bestAll || (Number.isNaN(bestAll) && !Number.isNaN(c))) {
        bestAll = c;
        bestAllJ = j;
      }
      if (forCooks[j] && (c > best || Number.isNaN(c))) best = c;
      if (forCooks[j]) {
        const ck = replaceable[j] ? 0 : c;
        if (ck > kept || Number.isNaN(ck)) kept = ck;
      }
      if (c > cooksCutoff) {
        outs ??= [];
        outs.push(j);
      }
    }
    a.maxCooks[g] = cooksRecorded ? best : NaN;
    a.maxCooksKept[g] = cooksRecorded ? kept : NaN;
    a.maxCooksSample[g] = bestAllJ;
    if (outs) {
      found ??= [];
      found.push([g, outs]);
    }
  }
  return found;
}

/**
 * DESeq2's robustMethodOfMomentsDisp: a trimmed within-cell variance (cells of three or more samples; trim and
 * scale by cell size) or, without such cells, a trimmed overall variance; dispersion (v - m) / m^2, at least 0.04.
 */
class RobustMoments {
  private readonly cells: number[][];
  private readonly any: boolean;
  private readonly norm: Float64Array;

  constructor(cell: Int32Array, size: number[], n: number) {
    this.cells = [];
    for (let c = 0; c < size.length; c++) {
      if (size[c]! < 3) continue;
      const members: number[] = [];
      for (let i = 0; i < n; i++) if (cell[i] === c) members.push(i);
      this.cells.push(members);
    }
    this.any = this.cells.length > 0;
    this.norm = new Float64Array(n);
  }

  dispersion(counts: Float64Array, off: number, sf: Float64Array): number {
    const n = sf.length;
    const norm = this.norm;
    let mean = 0;
    for (let j = 0; j < n; j++) {
      norm[j] = counts[off + j]! / sf[j]!;
      mean += norm[j]!;
    }
    mean /= n;
    let v: number;
    if (this.any) {
      v = -Infinity;
      for (const members of this.cells) {
        const k = members.length;
        const band = k <= 3.5 ? 0 : k <= 23.5 ? 1 : 2;
        const trim = [1 / 3, 1 / 4, 1 / 8][band]!;
        const scale = [2.04, 1.86, 1.51][band]!;
        const vals = members.map((j) => norm[j]!);
        const cm = trimmedMean(vals, trim);
        const sq = vals.map((u) => (u - cm) * (u - cm));
        const ve = scale * trimmedMean(sq, trim);
        if (ve > v) v = ve;
      }
    } else {
      const all = Array.from(norm);
      const rm = trimmedMean(all, 1 / 8);
      v =
        1.51 *
        trimmedMean(
          all.map((u) => (u - rm) * (u - rm)),
          1 / 8,
        );
    }
    return Math.max((v - mean) / (mean * mean), 0.04);
  }
}
