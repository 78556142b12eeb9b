// Bertz's molecular complexity index (S. H. Bertz, J. Am. Chem. Soc. 103, 3599-3601, 1981) as RDKit's
// GraphDescriptors.BertzCT computes it (a Python function, restated here step by step): atoms fall into symmetry
// classes by their sorted bond-order weighted distances (to 4 decimals, the first `cutoff` of them); the
// "connections" are pairs of bonds sharing an atom (bond orders multiplied, aromatic 1.5) and multiple bonds
// (order × (order − 1) / 2), keyed by the classes involved; the index is the connections' information content
// plus the atom types' (by atomic number), in bits.
import { bondOrderDistances } from './distance-matrix.js';
import type { MolGraph } from './graph.js';

const AROMATIC = 12;

/** Σ −p log2 p over counts (RDKit's InfoEntropy), 0 for an empty or all-zero list. */
function infoEntropy(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  if (total === 0) return 0;
  let acc = 0;
  for (const v of values) {
    const p = v / total;
    if (p !== 0) acc += -p * Math.log(p);
  }
  return acc / Math.log(2);
}

export function bertzCT(g: MolGraph, cutoff = 100): number {
  const n = g.z.length;
  if (n < 2) return 0;
  // Symmetry classes, numbered by first appearance as RDKit does.
  const dm = bondOrderDistances(g);
  const keys = new Map<string, number>();
  const cls: number[] = [];
  for (let i = 0; i < n; i++) {
    const row = Array.from(dm.subarray(i * n, i * n + n)).sort((a, b) => a - b);
    const key = row
      .slice(0, cutoff)
      .map((x) => x.toFixed(4))
      .join(' ');
    let c = keys.get(key);
    if (c === undefined) {
      c = keys.size + 1;
      keys.set(key, c);
    }
    cls.push(c);
  }
  const order = new Map<string, number>();
  const neighbours: number[][] = Array.from({ length: n }, () => []);
  for (const [a, b, type] of g.bonds) {
    const lo = Math.min(a, b);
    const hi = Math.max(a, b);
    order.set(`${lo},${hi}`, type === AROMATIC ? 1.5 : type);
    if (!neighbours[lo]!.includes(hi)) neighbours[lo]!.push(hi);
    if (!neighbours[hi]!.includes(lo)) neighbours[hi]!.push(lo);
  }
  for (const l of neighbours) l.sort((x, y) => x - y);
  const bo = (a: number, b: number) => order.get(a < b ? `${a},${b}` : `${b},${a}`)!;

  const atomTypes = new Map<number, number>();
  const connections = new Map<string, number>();
  const add = (key: string, v: number) => connections.set(key, (connections.get(key) ?? 0) + v);
  for (let atom = 0; atom < n; atom++) {
    atomTypes.set(g.z[atom]!, (atomTypes.get(g.z[atom]!) ?? 0) + 1);
    const hinge = cls[atom]!;
    const nb = neighbours[atom]!;
    for (let i = 0; i < nb.length; i++) {
      const ni = nb[i]!;
      const ci = cls[ni]!;
      const oi = bo(atom, ni);
      if (oi > 1 && ni > atom) add(`${Math.min(hinge, ci)},${Math.max(hinge, ci)}`, (oi * (oi - 1)) / 2);
      for (let j = i + 1; j < nb.length; j++) {
        const nj = nb[j]!;
        const cj = cls[nj]!;
        add(`${Math.min(ci, cj)},${hinge},${Math.max(ci, cj)}`, oi * bo(atom, nj));
      }
    }
  }
  const connectionList = connections.size > 0 ? [...connections.values()] : [1];
  const totConnections = connectionList.reduce((a, b) => a + b, 0);
  const connectionIE = totConnections * (infoEntropy(connectionList) + Math.log(totConnections) / Math.log(2));
  const atomTypeIE = n * infoEntropy([...atomTypes.values()]);
  return atomTypeIE + connectionIE;
}
