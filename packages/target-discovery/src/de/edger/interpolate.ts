// edgeR's maximizeInterpolant: the maximum of a likelihood known on a grid, by an FMM cubic spline through the
// grid values (Forsythe, Malcolm & Moler's end conditions, as R's spline(method = "fmm")) and the stationary
// points of the two cubic pieces beside the best grid point.

/** FMM spline coefficients: on [x_i, x_{i+1}], y_i + b_i t + c_i t^2 + d_i t^3 with t = x - x_i. */
export function fmmSpline(x: ArrayLike<number>, y: ArrayLike<number>, b: Float64Array, c: Float64Array, d: Float64Array): void {
  const n = x.length;
  // 1-based indexing as in the published algorithm.
  const X = (i: number) => x[i - 1]!;
  const Y = (i: number) => y[i - 1]!;
  const B = (i: number, v?: number) => (v === undefined ? b[i - 1]! : (b[i - 1] = v));
  const C = (i: number, v?: number) => (v === undefined ? c[i - 1]! : (c[i - 1] = v));
  const D = (i: number, v?: number) => (v === undefined ? d[i - 1]! : (d[i - 1] = v));
  if (n < 3) {
    const t = (Y(2) - Y(1)) / (X(2) - X(1));
    B(1, t);
    B(2, t);
    C(1, 0);
    C(2, 0);
    D(1, 0);
    D(2, 0);
    return;
  }
  const nm1 = n - 1;
  D(1, X(2) - X(1));
  C(2, (Y(2) - Y(1)) / D(1));
  for (let i = 2; i < n; i++) {
    D(i, X(i + 1) - X(i));
    B(i, 2 * (D(i - 1) + D(i)));
    C(i + 1, (Y(i + 1) - Y(i)) / D(i));
    C(i, C(i + 1) - C(i));
  }
  B(1, -D(1));
  B(n, -D(nm1));
  C(1, 0);
  C(n, 0);
  if (n > 3) {
    C(1, C(3) / (X(4) - X(2)) - C(2) / (X(3) - X(1)));
    C(n, C(nm1) / (X(n) - X(n - 2)) - C(n - 2) / (X(nm1) - X(n - 3)));
    C(1, (C(1) * D(1) * D(1)) / (X(4) - X(1)));
    C(n, (-C(n) * D(nm1) * D(nm1)) / (X(n) - X(n - 3)));
  }
  for (let i = 2; i <= n; i++) {
    const t = D(i - 1) / B(i - 1);
    B(i, B(i) - t * D(i - 1));
    C(i, C(i) - t * C(i - 1));
  }
  C(n, C(n) / B(n));
  for (let i = nm1; i >= 1; i--) C(i, (C(i) - D(i) * C(i + 1)) / B(i));
  B(n, (Y(n) - Y(n - 1)) / D(n - 1) + D(n - 1) * (C(nm1) + 2 * C(n)));
  for (let i = 1; i <= nm1; i++) {
    B(i, (Y(i + 1) - Y(i)) / D(i) - D(i) * (C(i + 1) + 2 * C(i)));
    D(i, (C(i + 1) - C(i)) / D(i));
    C(i, 3 * C(i));
  }
  C(n, 3 * C(n));
  D(n, D(nm1));
}

/** Per row of y (rows x x.length, row-major): the x maximising the interpolating spline. */
export function maximizeInterpolant(x: ArrayLike<number>, y: Float64Array, rows: number): Float64Array {
  const n = x.length;
  const out = new Float64Array(rows);
  const b = new Float64Array(n);
  const c = new Float64Array(n);
  const d = new Float64Array(n);
  const row = new Float64Array(n);
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
    fmmSpline(x, row, b, c, d);
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
