// Distance matrices on the molecular graph, as RDKit's GetDistanceMatrix computes them: topological (bonds on
// the shortest path, by breadth-first search) and the bond-order weighted one BertzCT uses (each bond 1/order,
// aromatic 2/3, by RDKit's own Floyd-Warshall loop so that sums are rounded as there). Unconnected pairs are
// RDKit's 1e8.
import type { MolGraph } from './graph.js';

export const UNREACHABLE = 1e8;

/** n×n topological distances (row-major). */
export function topologicalDistances(g: MolGraph): Float64Array {
  const n = g.z.length;
  const d = new Float64Array(n * n).fill(UNREACHABLE);
  const queue = new Int32Array(n);
  for (let s = 0; s < n; s++) {
    const row = s * n;
    d[row + s] = 0;
    let head = 0;
    let tail = 0;
    queue[tail++] = s;
    while (head < tail) {
      const a = queue[head++]!;
      for (const [b] of g.adj[a]!) {
        if (d[row + b] !== UNREACHABLE) continue;
        d[row + b] = d[row + a]! + 1;
        queue[tail++] = b;
      }
    }
  }
  return d;
}

const AROMATIC = 12;

/** n×n shortest paths with bond lengths 1/bond order (aromatic 2/3): RDKit GetDistanceMatrix(useBO=True). */
export function bondOrderDistances(g: MolGraph): Float64Array {
  const n = g.z.length;
  let last = new Float64Array(n * n).fill(UNREACHABLE);
  for (let i = 0; i < n; i++) last[i * n + i] = 0;
  for (const [a, b, type] of g.bonds) {
    const w = type === AROMATIC ? 2 / 3 : 1 / type;
    last[a * n + b] = w;
    last[b * n + a] = w;
  }
  let cur = new Float64Array(n * n);
  for (let k = 0; k < n; k++) {
    const kRow = k * n;
    for (let i = 0; i < n; i++) {
      const iRow = i * n;
      const dik = last[iRow + k]!;
      for (let j = 0; j < n; j++) {
        const v1 = last[iRow + j]!;
        const v2 = dik + last[kRow + j]!;
        cur[iRow + j] = v1 <= v2 ? v1 : v2;
      }
    }
    [cur, last] = [last, cur];
  }
  return last;
}
