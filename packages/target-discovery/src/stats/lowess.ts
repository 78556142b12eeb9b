// LOWESS (Cleveland 1979) with the exact conventions of R's lowess()/clowess: local linear fits with
// tricube weights over the nearest floor(f*n) points, `delta` skipping with linear interpolation, and
// `iter` robustness passes with bisquare weights from 6 * median absolute residual.

export interface LowessResult {
  x: Float64Array; // sorted
  y: Float64Array; // fitted
}

/** R lowess(x, y, f, iter, delta = 0.01 * diff(range(x))). */
export function lowess(
  xIn: ArrayLike<number>,
  yIn: ArrayLike<number>,
  f = 2 / 3,
  iter = 3,
  delta?: number,
): LowessResult {
  const n = xIn.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => xIn[a]! - xIn[b]! || a - b);
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = xIn[order[i]!]!;
    y[i] = yIn[order[i]!]!;
  }
  const d = delta ?? 0.01 * (x[n - 1]! - x[0]!);
  const ys = new Float64Array(n);
  clowess(x, y, f, iter, d, ys);
  return { x, y: ys };
}

function clowess(x: Float64Array, y: Float64Array, f: number, nsteps: number, delta: number, ys: Float64Array): void {
  const n = x.length;
  if (n < 2) {
    ys[0] = y[0]!;
    return;
  }
  const rw = new Float64Array(n);
  const res = new Float64Array(n);
  const w = new Float64Array(n);
  // Number of points in each local neighbourhood (at least 2, at most n).
  const ns = Math.max(2, Math.min(n, Math.floor(f * n + 1e-7)));
  for (let it = 1; it <= nsteps + 1; it++) {
    // 0-based translation of the 1-based reference loop.
    let nleft = 0;
    let nright = ns - 1;
    let last = -1;
    let i = 0;
    for (;;) {
      if (nright < n - 1) {
        const d1 = x[i]! - x[nleft]!;
        const d2 = x[nright + 1]! - x[i]!;
        if (d1 > d2) {
          nleft++;
          nright++;
          continue;
        }
      }
      const fitted = lowest(x, y, x[i]!, nleft, nright, w, it > 1, rw);
      ys[i] = Number.isNaN(fitted) ? y[i]! : fitted;
      if (last < i - 1) {
        const denom = x[i]! - x[last]!;
        for (let j = last + 1; j < i; j++) {
          const alpha = (x[j]! - x[last]!) / denom;
          ys[j] = alpha * ys[i]! + (1 - alpha) * ys[last]!;
        }
      }
      last = i;
      const cut = x[last]! + delta;
      for (i = last + 1; i < n; i++) {
        if (x[i]! > cut) break;
        if (x[i] === x[last]) {
          ys[i] = ys[last]!;
          last = i;
        }
      }
      i = Math.max(last + 1, i - 1);
      if (last >= n - 1) break;
    }
    for (let k = 0; k < n; k++) res[k] = y[k]! - ys[k]!;
    let sc = 0;
    for (let k = 0; k < n; k++) sc += Math.abs(res[k]!);
    sc /= n;
    if (it > nsteps) break;
    for (let k = 0; k < n; k++) rw[k] = Math.abs(res[k]!);
    const sorted = Float64Array.from(rw).sort();
    const m1 = Math.floor(n / 2);
    let cmad: number;
    if (n % 2 === 0) {
      const m2 = n - m1 - 1;
      cmad = 3 * (sorted[m1]! + sorted[m2]!);
    } else cmad = 6 * sorted[m1]!;
    if (cmad < 1e-7 * sc) break; // residuals effectively zero
    const c9 = 0.999 * cmad;
    const c1 = 0.001 * cmad;
    for (let k = 0; k < n; k++) {
      const r = Math.abs(res[k]!);
      if (r <= c1) rw[k] = 1;
      else if (r <= c9) {
        const u = r / cmad;
        rw[k] = (1 - u * u) * (1 - u * u);
      } else rw[k] = 0;
    }
  }
}

/** Weighted local linear fit at xs over [nleft, nright]; NaN when all weights vanish. */
function lowest(
  x: Float64Array,
  y: Float64Array,
  xs: number,
  nleft: number,
  nright: number,
  w: Float64Array,
  userw: boolean,
  rw: Float64Array,
): number {
  const n = x.length;
  const range = x[n - 1]! - x[0]!;
  const h = Math.max(xs - x[nleft]!, x[nright]! - xs);
  const h9 = 0.999 * h;
  const h1 = 0.001 * h;
  let a = 0;
  let j = nleft;
  while (j < n) {
    w[j] = 0;
    const r = Math.abs(x[j]! - xs);
    if (r <= h9) {
      if (r <= h1) w[j] = 1;
      else {
        const q = r / h;
        const c = 1 - q * q * q;
        w[j] = c * c * c;
      }
      if (userw) w[j]! *= rw[j]!;
      a += w[j]!;
    } else if (x[j]! > xs) break;
    j++;
  }
  const nrt = j - 1;
  if (a <= 0) return NaN;
  for (j = nleft; j <= nrt; j++) w[j]! /= a;
  if (h > 0) {
    a = 0;
    for (j = nleft; j <= nrt; j++) a += w[j]! * x[j]!;
    let b = xs - a;
    let c = 0;
    for (j = nleft; j <= nrt; j++) c += w[j]! * (x[j]! - a) * (x[j]! - a);
    if (Math.sqrt(c) > 0.001 * range) {
      b /= c;
      for (j = nleft; j <= nrt; j++) w[j]! *= b * (x[j]! - a) + 1;
    }
  }
  let ys = 0;
  for (j = nleft; j <= nrt; j++) ys += w[j]! * y[j]!;
  return ys;
}

/** R approxfun(x, y, rule = 2, ties = list("ordered", mean)) for sorted x: linear, constant outside. */
export function approxFun(xs: Float64Array, ysIn: Float64Array): (v: number) => number {
  // Collapse tied x to the mean of their y.
  const xa: number[] = [];
  const ya: number[] = [];
  for (let i = 0; i < xs.length; ) {
    let j = i;
    let s = 0;
    while (j < xs.length && xs[j] === xs[i]) s += ysIn[j++]!;
    xa.push(xs[i]!);
    ya.push(s / (j - i));
    i = j;
  }
  const x = Float64Array.from(xa);
  const y = Float64Array.from(ya);
  const m = x.length;
  // A uniform grid over the x range remembers where each cell starts, so a lookup needs only a few
  // binary-search steps (voom evaluates this once per observation).
  const cells = Math.min(1 << 16, Math.max(1, m * 2));
  const x0 = x[0]!;
  const width = (x[m - 1]! - x0) / cells || 1;
  const start = new Int32Array(cells + 1);
  for (let c = 0, i = 0; c <= cells; c++) {
    const edge = x0 + c * width;
    while (i < m - 1 && x[i + 1]! <= edge) i++;
    start[c] = i;
  }
  return (v: number) => {
    if (Number.isNaN(v)) return NaN;
    if (v <= x[0]!) return y[0]!;
    if (v >= x[m - 1]!) return y[m - 1]!;
    const c = Math.min(cells - 1, Math.floor((v - x0) / width));
    let lo = Math.max(0, start[c]! - 1);
    let hi = Math.min(m - 1, start[c + 1]! + 1);
    if (x[lo]! > v) lo = 0;
    if (x[hi]! < v) hi = m - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (x[mid]! > v) hi = mid;
      else lo = mid;
    }
    if (v === x[lo]) return y[lo]!;
    return y[lo]! + ((y[hi]! - y[lo]!) * (v - x[lo]!)) / (x[hi]! - x[lo]!);
  };
}
