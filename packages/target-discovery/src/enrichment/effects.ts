// The effects of every row's (weighted) least-squares fit with the tested coefficient moved to the last column, as
// camera and fry start (limma's camera.default and .lmEffects): Q'y from the Householder QR of the design (the
// same reflections as R's qr, LINPACK dqrdc2, so each residual effect, not only their sum of squares, matches R).
import { RankDeficientDesignError, type Design } from '../stats/lmfit.js';
import type { Matrix } from '../stats/matrix.js';
import { applyQt, householder } from '../stats/qr.js';

export interface RowEffects {
  /** Rows x n, row-major: the n effects Q'y of each row (index p - 1 the tested coefficient's); absent when not kept. */
  effects?: Float64Array;
  /** Each row's tested effect (index p - 1) and residual sum of squares (sum of its effects p .. n - 1 squared). */
  tested: Float64Array;
  rss: Float64Array;
  /** Sign of R[p, p] of each row's QR (R's `sign(QR$qr[p, p])`), which orients the tested effect. */
  sign: Float64Array;
  n: number;
  p: number;
}

/** The design's columns reordered so that `coefficient` is last (column-major n x p). */
export function contrastLast(design: Design, coefficient: number): Float64Array {
  const { n, p, x } = design;
  const order = [...Array.from({ length: p }, (_, j) => j).filter((j) => j !== coefficient), coefficient];
  const out = new Float64Array(n * p);
  for (const [k, j] of order.entries()) out.set(x.subarray(j * n, j * n + n), k * n);
  return out;
}

/**
 * Effects of every row of `values` (rows x n) on the design, with per-row `weights` (voom) when given. `keep` false
 * keeps only each row's tested effect and residual sum of squares (all camera needs with a fixed inter-gene
 * correlation), not the rows x n matrix.
 */
export function rowEffects(
  values: Matrix,
  design: Design,
  coefficient: number,
  weights?: Matrix,
  keep = true,
): RowEffects {
  const { n, p } = design;
  const G = values.nrow;
  if (values.ncol !== n) throw new Error(`enrichment: ${values.ncol} samples but the design has ${n} rows`);
  const x = contrastLast(design, coefficient);
  const effects = keep ? new Float64Array(G * n) : undefined;
  const tested = new Float64Array(G);
  const rss = new Float64Array(G);
  const summarise = (y: Float64Array, at: number, g: number) => {
    tested[g] = y[at + p - 1]!;
    let s = 0;
    for (let i = p; i < n; i++) s += y[at + i]! ** 2;
    rss[g] = s;
  };
  const sign = new Float64Array(G);
  const vhead = new Float64Array(p);
  const rdiag = new Float64Array(p);
  if (!weights) {
    const qx = Float64Array.from(x);
    if (!householder(qx, n, p, vhead, rdiag)) throw new RankDeficientDesignError('design matrix is not of full rank');
    sign.fill(Math.sign(rdiag[p - 1]!));
    if (effects) {
      // one design for every row: copy the values once and reflect each row where it lies
      effects.set(values.data.subarray(0, G * n));
      for (let g = 0; g < G; g++) {
        applyQtAt(qx, n, p, vhead, effects, g * n);
        summarise(effects, g * n, g);
      }
    } else testedAndRss(values.data, G, thinQ(qx, n, p, vhead), n, p, tested, rss);
    return { effects, tested, rss, sign, n, p };
  }
  const qx = new Float64Array(n * p);
  const y = new Float64Array(n);
  for (let g = 0; g < G; g++) {
    for (let i = 0; i < n; i++) {
      const sw = Math.sqrt(weights.data[g * n + i]!);
      y[i] = values.data[g * n + i]! * sw;
      for (let j = 0; j < p; j++) qx[j * n + i] = x[j * n + i]! * sw;
    }
    if (!householder(qx, n, p, vhead, rdiag))
      throw new RankDeficientDesignError(`weighted design matrix not of full rank for row ${g + 1}`);
    applyQt(qx, n, p, vhead, y);
    effects?.set(y, g * n);
    summarise(y, 0, g);
    sign[g] = Math.sign(rdiag[p - 1]!);
  }
  return { effects, tested, rss, sign, n, p };
}

/** applyQt on the n values of `y` from `at` (the same reflections, in place, without a copy per row). */
function applyQtAt(x: Float64Array, n: number, p: number, vhead: Float64Array, y: Float64Array, at: number): void {
  for (let k = 0; k < p; k++) {
    const ck = k * n;
    const v0 = vhead[k]!;
    let d = v0 * y[at + k]!;
    for (let i = k + 1; i < n; i++) d += x[ck + i]! * y[at + i]!;
    const f = (2 * d) / x[ck + k]!;
    y[at + k]! -= f * v0;
    for (let i = k + 1; i < n; i++) y[at + i]! -= f * x[ck + i]!;
  }
}

/**
 * The first p columns of Q (from householder), column-major n x p: Q e_k, the reflections applied in
 * reverse order. Column k dotted with y is the effect (Q'y)_k.
 */
// Deliberate copy: stats/qr.ts's applyQt reflection, in reverse order on unit vectors; inline as the per-row loops.
function thinQ(x: Float64Array, n: number, p: number, vhead: Float64Array): Float64Array {
  const q = new Float64Array(n * p);
  const e = new Float64Array(n);
  for (let c = 0; c < p; c++) {
    e.fill(0);
    e[c] = 1;
    for (let k = p - 1; k >= 0; k--) {
      const ck = k * n;
      const v0 = vhead[k]!;
      let d = v0 * e[k]!;
      for (let i = k + 1; i < n; i++) d += x[ck + i]! * e[i]!;
      const f = (2 * d) / x[ck + k]!;
      e[k]! -= f * v0;
      for (let i = k + 1; i < n; i++) e[i]! -= f * x[ck + i]!;
    }
    q.set(e, c * n);
  }
  return q;
}

/**
 * Each row's tested effect (Q'y)_{p-1} and residual sum of squares from the thin Q: the p effects as dot products
 * with Q's columns, then the residuals y - Q1 Q1'y squared (not |y|^2 minus the effects', which cancels when the mean
 * is large against the spread). Two columns a pass over the row, the last pass summing the squares: two passes a
 * row for p = 2 instead of the reflections' five.
 */
function testedAndRss(
  data: Float64Array,
  G: number,
  q: Float64Array,
  n: number,
  p: number,
  tested: Float64Array,
  rss: Float64Array,
): void {
  const eff = new Float64Array(p + 1); // eff[p] stays 0: an odd p's last pass pairs its column with a zero effect
  const qz = new Float64Array(n * (p + 1)); // Q's columns and a zero column
  qz.set(q);
  const r = new Float64Array(n);
  for (let g = 0; g < G; g++) {
    const at = g * n;
    for (let k = 0; k < p; k += 2) {
      const ca = k * n;
      const cb = ca + n;
      let ea = 0;
      let eb = 0;
      for (let i = 0; i < n; i++) {
        const y = data[at + i]!;
        ea += qz[ca + i]! * y;
        eb += qz[cb + i]! * y;
      }
      eff[k] = ea;
      if (k + 1 < p) eff[k + 1] = eb;
    }
    let s = 0;
    for (let k = 0; k < p; k += 2) {
      const ca = k * n;
      const cb = ca + n;
      const ea = eff[k]!;
      const eb = eff[k + 1]!;
      const first = k === 0;
      if (k + 2 < p) {
        if (first) for (let i = 0; i < n; i++) r[i] = data[at + i]! - qz[ca + i]! * ea - qz[cb + i]! * eb;
        else for (let i = 0; i < n; i++) r[i]! -= qz[ca + i]! * ea + qz[cb + i]! * eb;
      } else if (first)
        for (let i = 0; i < n; i++) {
          const v = data[at + i]! - qz[ca + i]! * ea - qz[cb + i]! * eb;
          s += v * v;
        }
      else
        for (let i = 0; i < n; i++) {
          const v = r[i]! - (qz[ca + i]! * ea + qz[cb + i]! * eb);
          s += v * v;
        }
    }
    tested[g] = eff[p - 1]!;
    rss[g] = s;
  }
}
