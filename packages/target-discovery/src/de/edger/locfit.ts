// edgeR's locfitByCol(degree = 0) as locfit computes it: a local-constant (Nadaraya-Watson) fit with tricube
// weights over the nearest floor(n * span) points, evaluated on locfit's adaptive tree of vertices (a cell
// is halved while its width exceeds cut = 0.8 times the smaller bandwidth at its ends) and interpolated
// linearly between vertices (the vertex slopes of a degree-0 fit are zero). Written here: no npm package
// reproduces locfit's evaluation structure, and edgeR's dispersion trend depends on it.

interface Vertex {
  x: number;
  h: number;
  /** Tricube weights of every point at this vertex, and their sum. */
  w: Float64Array;
  sw: number;
}

/** Smooths each column of y (rows x cols, row-major) against x; returns the fitted matrix. */
export function locfitDegree0ByCol(
  y: Float64Array,
  rows: number,
  cols: number,
  x: ArrayLike<number>,
  span: number,
): Float64Array {
  if (span * rows < 2 || rows <= 1) return Float64Array.from(y);
  const k = Math.floor(rows * span);
  const dist = new Float64Array(rows);
  const vertexAt = (x0: number): Vertex => {
    for (let i = 0; i < rows; i++) dist[i] = Math.abs(x[i]! - x0);
    const h = kthSmallest(Float64Array.from(dist), k);
    const w = new Float64Array(rows);
    let sw = 0;
    for (let i = 0; i < rows; i++) {
      const u = dist[i]! / h;
      if (u < 1) {
        const t = 1 - u * u * u;
        w[i] = t * t * t;
        sw += w[i]!;
      }
    }
    return { x: x0, h, w, sw };
  };
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < rows; i++) {
    lo = Math.min(lo, x[i]!);
    hi = Math.max(hi, x[i]!);
  }
  const vertices: Vertex[] = [];
  const grow = (a: Vertex, b: Vertex) => {
    let hmin = 0;
    for (const v of [a, b]) if (v.h > 0 && (hmin === 0 || v.h < hmin)) hmin = v.h;
    const score = hmin === 0 ? 2 : (b.x - a.x) / hmin;
    if (!(score > 0.8) || vertices.length > 100) return;
    const mid = vertexAt((a.x + b.x) / 2);
    vertices.push(mid);
    grow(a, mid);
    grow(mid, b);
  };
  const first = vertexAt(lo);
  const last = vertexAt(hi);
  vertices.push(first, last);
  grow(first, last);
  vertices.sort((p, q) => p.x - q.x);
  const V = vertices.length;
  const vx = vertices.map((v) => v.x);
  // Each point's interval between two vertices (the tree's leaf cell) and its linear weight.
  const left = new Int32Array(rows);
  const frac = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    let j = 0;
    while (j < V - 2 && x[i]! > vx[j + 1]!) j++;
    left[i] = j;
    frac[i] = (x[i]! - vx[j]!) / (vx[j + 1]! - vx[j]!);
  }
  const out = new Float64Array(rows * cols);
  const val = new Float64Array(V);
  for (let c = 0; c < cols; c++) {
    for (let v = 0; v < V; v++) {
      const { w, sw } = vertices[v]!;
      let s = 0;
      for (let i = 0; i < rows; i++) if (w[i]! > 0) s += w[i]! * y[i * cols + c]!;
      val[v] = s / sw;
    }
    for (let i = 0; i < rows; i++) {
      const j = left[i]!;
      out[i * cols + c] = val[j]! + frac[i]! * (val[j + 1]! - val[j]!);
    }
  }
  return out;
}

/** The k-th smallest (1-based) value; a copy is partially sorted. */
function kthSmallest(a: Float64Array, k: number): number {
  a.sort();
  return a[Math.max(0, Math.min(a.length, k) - 1)]!;
}
