// The topology reference graphs of ../shared/reference/topology (tests only) and the measures the tests compare
// by, computed here from the edge lists, independently of the code under test. Shared by @evident/graph-algorithms'
// tests (plain arrays) and @evident/kb-core's (the same graphs loaded as claims).
import { readFileSync } from 'node:fs';
import { referencePath } from './paths.js';

export const TOPOLOGY_GRAPHS = ['karate', 'les_miserables', 'lfr_5000_mu03', 'sbm_20000'] as const;
export type TopologyGraphName = (typeof TOPOLOGY_GRAPHS)[number];

export interface TopologyReferenceGraph {
  name: TopologyGraphName;
  n: number;
  sources: Int32Array;
  targets: Int32Array;
  weights: Float64Array;
  truth: Int32Array | undefined;
  expected: {
    leidenalg_modularity_median_of_10: number;
    leidenalg_nmi_vs_truth_seed0: number | null;
    top_singular_values: number[];
  };
}

export function loadTopologyGraph(name: TopologyGraphName): TopologyReferenceGraph {
  const ref = JSON.parse(readFileSync(referencePath('topology', 'reference.json'), 'utf8'));
  const lines = readFileSync(referencePath('topology', `${name}.edges.csv`), 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  const sources = new Int32Array(lines.length);
  const targets = new Int32Array(lines.length);
  const weights = new Float64Array(lines.length);
  lines.forEach((line, e) => {
    const [s, t, w] = line.split(',');
    sources[e] = Number(s);
    targets[e] = Number(t);
    weights[e] = Number(w);
  });
  const n = ref.graphs[name].nodes as number;
  let truth: Int32Array | undefined;
  try {
    const rows = readFileSync(referencePath('topology', `${name}.truth.csv`), 'utf8')
      .trim()
      .split('\n')
      .slice(1);
    truth = new Int32Array(n);
    for (const row of rows) {
      const [v, c] = row.split(',');
      truth[Number(v)] = Number(c);
    }
  } catch {
    truth = undefined;
  }
  return { name, n, sources, targets, weights, truth, expected: ref.graphs[name] };
}

/** Modularity from the edge list itself (Newman's definition, γ = 1), not from the package's CSR. */
export function edgeListModularity(g: TopologyReferenceGraph, membership: ArrayLike<number>): number {
  let m = 0;
  const strength = new Map<number, number>();
  const inside = new Map<number, number>();
  for (let e = 0; e < g.sources.length; e++) {
    const s = g.sources[e]!;
    const t = g.targets[e]!;
    const w = g.weights[e]!;
    m += w;
    strength.set(membership[s]!, (strength.get(membership[s]!) ?? 0) + w);
    strength.set(membership[t]!, (strength.get(membership[t]!) ?? 0) + w);
    if (membership[s] === membership[t]) inside.set(membership[s]!, (inside.get(membership[s]!) ?? 0) + w);
  }
  let q = 0;
  for (const [c, k] of strength) q += (inside.get(c) ?? 0) / m - (k / (2 * m)) ** 2;
  return q;
}

/** Normalised mutual information, arithmetic-mean normalisation (as sklearn's and igraph's `nmi`). */
export function nmi(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  const joint = new Map<string, number>();
  const ca = new Map<number, number>();
  const cb = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    joint.set(`${a[i]},${b[i]}`, (joint.get(`${a[i]},${b[i]}`) ?? 0) + 1);
    ca.set(a[i]!, (ca.get(a[i]!) ?? 0) + 1);
    cb.set(b[i]!, (cb.get(b[i]!) ?? 0) + 1);
  }
  const h = (m: Map<number, number>) => [...m.values()].reduce((s, c) => s - (c / n) * Math.log(c / n), 0);
  let mi = 0;
  for (const [key, c] of joint) {
    const [x, y] = key.split(',').map(Number);
    mi += (c / n) * Math.log((c * n) / (ca.get(x!)! * cb.get(y!)!));
  }
  const denom = (h(ca) + h(cb)) / 2;
  return denom === 0 ? 1 : mi / denom;
}

/** Whether every community induces a connected subgraph (breadth-first search over the edge list). */
export function disconnectedCommunities(g: TopologyReferenceGraph, membership: ArrayLike<number>): number[] {
  const adj: number[][] = Array.from({ length: g.n }, () => []);
  for (let e = 0; e < g.sources.length; e++) {
    adj[g.sources[e]!]!.push(g.targets[e]!);
    adj[g.targets[e]!]!.push(g.sources[e]!);
  }
  const seen = new Uint8Array(g.n);
  const firstSeen = new Set<number>();
  const bad: number[] = [];
  for (let s = 0; s < g.n; s++) {
    if (seen[s]) continue;
    const c = membership[s]!;
    if (firstSeen.has(c)) bad.push(c);
    firstSeen.add(c);
    const stack = [s];
    seen[s] = 1;
    while (stack.length) {
      const v = stack.pop()!;
      for (const u of adj[v]!) {
        if (!seen[u] && membership[u] === c) {
          seen[u] = 1;
          stack.push(u);
        }
      }
    }
  }
  return bad;
}
