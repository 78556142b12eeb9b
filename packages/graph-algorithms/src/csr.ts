// A weighted undirected graph, or a sparse symmetric matrix, in compressed sparse rows: the row of node i is
// `targets[offsets[i] .. offsets[i+1])` with `weights` beside it. Every edge appears in both rows; a diagonal
// entry (a self-loop) appears once, as the matrix entry A_ii.
import { GraphInputError } from './errors.js';

/** How a graph's arrays are allocated: on the heap, or in shared memory for worker threads to read unchanged. */
export interface GraphArrays {
  i32(length: number): Int32Array;
  f64(length: number): Float64Array;
}

export const HEAP_ARRAYS: GraphArrays = { i32: (k) => new Int32Array(k), f64: (k) => new Float64Array(k) };

export interface CsrGraph {
  /** Number of nodes (rows). */
  readonly n: number;
  /** n + 1 row starts into targets/weights. */
  readonly offsets: Int32Array;
  readonly targets: Int32Array;
  readonly weights: Float64Array;
}

/**
 * The symmetric CSR of an undirected edge list (sources[e] — targets[e], weight weights[e] or 1). Parallel
 * edges are summed; a self-loop (i, i, w) becomes A_ii = w. Rows come out sorted by target. `arrays` allocates
 * the result's arrays (shared memory, say, so that a team of threads reads them without a copy).
 */
// Deliberate likeness (kb-core graph/adjacency.ts): both a counting sort of an edge list into rows; this one
// checks and sums weighted edges for the algorithms, kb-core's keeps fact ids in log order over its own columns.
export function csrFromEdges(
  n: number,
  sources: Int32Array,
  targets: Int32Array,
  weights?: Float64Array,
  arrays: GraphArrays = HEAP_ARRAYS,
): CsrGraph {
  if (!Number.isInteger(n) || n < 0) throw new GraphInputError('/n', 'must be a non-negative integer');
  const m = sources.length;
  if (targets.length !== m) throw new GraphInputError('/targets', `must have the length of sources (${m})`);
  if (weights && weights.length !== m) throw new GraphInputError('/weights', `must have the length of sources (${m})`);
  const degree = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) {
    const s = sources[e]!;
    const t = targets[e]!;
    if (s < 0 || s >= n) throw new GraphInputError(`/sources/${e}`, `must be a node in 0..${n - 1}`);
    if (t < 0 || t >= n) throw new GraphInputError(`/targets/${e}`, `must be a node in 0..${n - 1}`);
    const w = weights ? weights[e]! : 1;
    if (!Number.isFinite(w) || w < 0) throw new GraphInputError(`/weights/${e}`, 'must be a finite number ≥ 0');
    degree[s + 1]!++;
    if (s !== t) degree[t + 1]!++;
  }
  for (let i = 0; i < n; i++) degree[i + 1]! += degree[i]!;
  const fill = degree.slice(0, n);
  const tgt = new Int32Array(degree[n]!);
  const wts = new Float64Array(degree[n]!);
  for (let e = 0; e < m; e++) {
    const s = sources[e]!;
    const t = targets[e]!;
    const w = weights ? weights[e]! : 1;
    tgt[fill[s]!] = t;
    wts[fill[s]!++] = w;
    if (s !== t) {
      tgt[fill[t]!] = s;
      wts[fill[t]!++] = w;
    }
  }
  return mergeRows({ n, offsets: degree, targets: tgt, weights: wts }, arrays);
}

/** Sorts each row by target and sums repeated targets (parallel edges). */
function mergeRows(g: CsrGraph, arrays: GraphArrays): CsrGraph {
  const { n, offsets, targets, weights } = g;
  const outOffsets = arrays.i32(n + 1);
  const outTargets = new Int32Array(targets.length);
  const outWeights = new Float64Array(targets.length);
  let order = new Int32Array(16);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const start = offsets[i]!;
    const len = offsets[i + 1]! - start;
    if (order.length < len) order = new Int32Array(len * 2);
    const view = order.subarray(0, len);
    for (let j = 0; j < len; j++) view[j] = start + j;
    view.sort((a, b) => targets[a]! - targets[b]!);
    let last = -1;
    for (let j = 0; j < len; j++) {
      const p = view[j]!;
      const t = targets[p]!;
      if (t === last) outWeights[k - 1]! += weights[p]!;
      else {
        outTargets[k] = t;
        outWeights[k++] = weights[p]!;
        last = t;
      }
    }
    outOffsets[i + 1] = k;
  }
  const finalTargets = arrays.i32(k);
  const finalWeights = arrays.f64(k);
  finalTargets.set(outTargets.subarray(0, k));
  finalWeights.set(outWeights.subarray(0, k));
  return { n, offsets: outOffsets, targets: finalTargets, weights: finalWeights };
}

/** Checks that a CsrGraph is well-formed and symmetric; throws GraphInputError naming the first fault. */
export function checkCsr(g: CsrGraph): void {
  const { n, offsets, targets, weights } = g;
  if (!Number.isInteger(n) || n < 0) throw new GraphInputError('/n', 'must be a non-negative integer');
  if (offsets.length !== n + 1) throw new GraphInputError('/offsets', `must have n + 1 = ${n + 1} entries`);
  if (offsets[0] !== 0) throw new GraphInputError('/offsets/0', 'must be 0');
  const nnz = offsets[n]!;
  if (targets.length < nnz) throw new GraphInputError('/targets', `must have offsets[n] = ${nnz} entries`);
  if (weights.length < nnz) throw new GraphInputError('/weights', `must have offsets[n] = ${nnz} entries`);
  for (let i = 0; i < n; i++) {
    if (offsets[i + 1]! < offsets[i]!) throw new GraphInputError(`/offsets/${i + 1}`, 'must not decrease');
    for (let p = offsets[i]!; p < offsets[i + 1]!; p++) {
      const t = targets[p]!;
      if (t < 0 || t >= n) throw new GraphInputError(`/targets/${p}`, `must be a node in 0..${n - 1}`);
      const w = weights[p]!;
      if (!Number.isFinite(w) || w < 0) throw new GraphInputError(`/weights/${p}`, 'must be a finite number ≥ 0');
    }
  }
  // Symmetry by a randomized test (Freivalds): A·x = Aᵀ·x for a random x, in O(nnz) time and O(n) memory.
  const x = new Float64Array(n);
  let seed = 0x2545f491;
  for (let i = 0; i < n; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    x[i] = seed / 4294967296 - 0.5;
  }
  const ax = new Float64Array(n);
  const atx = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let p = offsets[i]!; p < offsets[i + 1]!; p++) {
      const j = targets[p]!;
      ax[i]! += weights[p]! * x[j]!;
      atx[j]! += weights[p]! * x[i]!;
    }
  }
  for (let i = 0; i < n; i++) {
    if (Math.abs(ax[i]! - atx[i]!) > 1e-9 * (1 + Math.abs(ax[i]!))) {
      throw new GraphInputError(`/offsets/${i}`, `the matrix is not symmetric (row ${i} differs from column ${i})`);
    }
  }
}
