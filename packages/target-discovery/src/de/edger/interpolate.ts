// edgeR's maximizeInterpolant: the maximum of a likelihood known on a grid, by an FMM cubic spline through the
// grid values (Forsythe, Malcolm & Moler's end conditions, as R's spline(method = "fmm")) and the stationary
// points of the two cubic pieces beside the best grid point.

/** FMM spline coefficients: on [x_i, x_{i+1}], y_i + b_i t + c_i t^2 + d_i t^3 with t = x - x_i. */
export function fmmSpline(
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  bOut: Float64Array,
  cOut: Float64Array,
  dOut: Float64Array,
  work?: Float64Array,
): void {
  const n = xs.length;
  // 1-based work arrays, as in the published algorithm (reused across calls of the same length).
  if (!work || work.length !== 5 * (n + 1)) work = new Float64Array(5 * (n + 1));
  work.fill(0);
  const x = work.subarray(0, n + 1);
  const y = work.subarray(n + 1, 2 * (n + 1));
  const b = work.subarray(2 * (n + 1), 3 * (n + 1));
  const c = work.subarray(3 * (n + 1), 4 * (n + 1));
  const d = work.subarray(4 * (n + 1), 5 * (n + 1));
  for (let i = 0; i < n; i++) {
    x[i + 1] = xs[i]!;
    y[i + 1] = ys[i]!;
  }
  if (n < 3) {
    const t = (y[2]! - y[1]!) / (x[2]! - x[1]!);
    b[1] = t;
    b[2] = t;
  } else {
    const nm1 = n - 1;
    d[1] = x[2]! - x[1]!;
    c[2] = (y[2]! - y[1]!) / d[1]!;
    for (let i = 2; i < n; i++) {
      d[i] = x[i + 1]! - x[i]!;
      b[i] = 2 * (d[i - 1]! + d[i]!);
      c[i + 1] = (y[i + 1]! - y[i]!) / d[i]!;
      c[i] = c[i + 1]! - c[i]!;
    }
    b[1] = -d[1]!;
    b[n] = -d[nm1]!;
    c[1] = 0;
    c[n] = 0;
    if (n > 3) {
      c[1] = c[3]! / (x[4]! - x[2]!) - c[2]! / (x[3]! - x[1]!);
      c[n] = c[nm1]! / (x[n]! - x[n - 2]!) - c[n - 2]! / (x[nm1]! - x[n - 3]!);
      c[1] = (c[1]! * d[1]! * d[1]!) / (x[4]! - x[1]!);
      c[n] = (-c[n]! * d[nm1]! * d[nm1]!) / (x[n]! - x[n - 3]!);
    }
    for (let i = 2; i <= n; i++) {
      const t = d[i - 1]! / b[i - 1]!;
      b[i] = b[i]! - t * d[i - 1]!;
      c[i] = c[i]! - t * c[i - 1]!;
    }
    c[n] = c[n]! / b[n]!;
    for (let i = nm1; i >= 1; i--) c[i] = (c[i]! - d[i]! * c[i + 1]!) / b[i]!;
    b[n] = (y[n]! - y[n - 1]!) / d[n - 1]! + d[n - 1]! * (c[nm1]! + 2 * c[n]!);
    for (let i = 1; i <= nm1; i++) {
      b[i] = (y[i + 1]! - y[i]!) / d[i]! - d[i]! * (c[i + 1]! + 2 * c[i]!);
      d[i] = (c[i + 1]! - c[i]!) / d[i]!;
      c[i] = 3 * c[i]!;
    }
    c[n] = 3 * c[n]!;
    d[n] = d[nm1]!;
  }
  bOut.set(b.subarray(1));
  cOut.set(c.subarray(1));
  dOut.set(d.subarray(1));
}

/** Per row of y (rows x x.length, row-major): the x maximising the interpolating spline. */
export function maximizeInterpolant(x: ArrayLike<number>, y: Float64Array, rows: number): Float64Array {
  const n = x.length;
  const out = new Float64Array(rows);
  const b = new Float64Array(n);
  const c = new Float64Array(n);
  const d = new Float64Array(n);
  const row = new Float64Array(n);
  const work = new Float64Array(5 * (n + 1));
  for (let r = 0; r < rows; r++) {
    for (let i = 0; i < n; i++) row[i] = y[r * n + i]!;
    let maxed = -1;
    let at = -1;
    for (let i = 0; i < n; i++)
      if (at < 0 || row[i]! > maxed) {
        maxed = row[i]!;
        at = i;
      }
    let xMax = x[at]!;
    fmmSpline(x, row, b, c, d, work);
    const side = (k: number) => {
      const [s1, s2, ok] = quadSolve(3 * d[k]!, 2 * c[k]!, b[k]!);
      if (!ok) return;
      const width = x[k + 1]! - x[k]!;
      for (const s of [s1, s2]) {
        if (s > 0 && s < width) {
          const v = ((d[k]! * s + c[k]!) * s + b[k]!) * s + row[k]!;
          if (v > maxed) {
            maxed = v;
            xMax = s + x[k]!;
          }
        }
      }
    };
    if (at > 0) side(at - 1);
    if (at < n - 1) side(at);
    out[r] = xMax;
  }
  return out;
}

function quadSolve(a: number, b: number, c: number): [number, number, boolean] {
  let back = b * b - 4 * a * c;
  if (back < 0) return [0, 0, false];
  const front = -b / (2 * a);
  back = Math.sqrt(back) / (2 * a);
  return [front - back, front + back, true];
}
