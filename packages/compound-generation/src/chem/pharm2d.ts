// 2D pharmacophore fingerprints with Gobbi and Poppinger's features (Biotechnol. Bioeng. 61, 47-54, 1998), as
// RDKit's Generate.Gen2DFingerprint(mol, Gobbi_Pharm2D.factory) builds them (rdkit/Chem/Pharm2D: Generate.py,
// SigFactory.py, Utils.py; GuacaMol's "PHCO" fingerprint): 2- and 3-point pharmacophores of the eight feature
// families, each point one atom, distances in bonds binned [2,3) [3,4) … [7,8) [8,100); a bit per proto-
// pharmacophore (a sorted choice of families) and binned scaffold, triangles put in RDKit's canonical order
// (Utils.OrderTriangle). RDKit numbers the bits through its signature layout; only their identity matters for
// Tanimoto similarity, so a bit here is keyed by (families, bins) directly, one-to-one with RDKit's bit index.
import { substructMatches, type Mol, type RDKit } from '../rdkit.js';
import type { MolGraph } from './graph.js';
import { topologicalDistances } from './distance-matrix.js';

/** The families in RDKit's (sorted) order, with the fdef's SMARTS (each feature is one atom). */
export const GOBBI_FAMILIES: ReadonlyArray<readonly [string, string]> = [
  ['AG', '[$([C,S](=[O,S,P])-[O;H1])]'],
  ['AR', '[$([a;D3](@*)(@*)*)]'],
  [
    'BG',
    '[$([N;H2&+0][$([C,a]);!$([C,a](=O))]),$([N;H1&+0]([$([C,a]);!$([C,a](=O))])[$([C,a]);!$([C,a](=O))]),$([N;H0&+0]([C;!$(C(=O))])([C;!$(C(=O))])[C;!$(C(=O))]),$([N,n;X2;+0])]',
  ],
  [
    'HA',
    '[$([O,S;H1;v2]-[!$(*=[O,N,P,S])]),$([O,S;H0;v2]),$([O,S;-]),$([N&v3;H1,H2]-[!$(*=[O,N,P,S])]),$([N;v3;H0]),$([n,o,s;+0]),F]',
  ],
  ['HD', '[$([N;!H0;v3]),$([N;!H0;+1;v4]),$([O,S;H1;+0]),$([n;H1;+0])]'],
  ['LH', '[$([C;H2,H1](!=*)[C;H2,H1][C;H2,H1][$([C;H1,H2,H3]);!$(C=*)]),$(C([C;H2,H3])([C;H2,H3])[C;H2,H3])]'],
  ['RR', '[$([A;D3](@*)(@*)*)]'],
  ['X', '[!#1;!#6;!#7;!#8;!#9;!#16;!#17;!#35;!#53]'],
];

const N_FAMILIES = GOBBI_FAMILIES.length;
const MIN_DIST = 2;
const MAX_DIST = 100;
/** Bin of a distance in [2, 100): [2,3)…[7,8) are bins 0-5, [8,100) is bin 6. */
const bin = (d: number) => Math.min(d, 8) - 2;

/** Utils.OrderTriangle: the canonical order of a triangle's distances (d01, d02, d12) given its families. */
function orderTriangle(f: readonly number[], d: readonly number[]): number[] {
  if (f[0] !== f[1] && f[1] !== f[2] && f[0] !== f[2]) return [...d];
  const s = [d[0]! + d[1]!, d[0]! + d[2]!, d[1]! + d[2]!];
  const max = Math.max(...s);
  let order: readonly number[];
  if (f[0] === f[1] && f[1] === f[2]) {
    if (s[0] === max) order = d[0]! > d[1]! ? [0, 1, 2] : [1, 0, 2];
    else if (s[1] === max) order = d[0]! > d[2]! ? [0, 2, 1] : [2, 0, 1];
    else order = d[1]! > d[2]! ? [1, 2, 0] : [2, 1, 0];
  } else if (f[0] === f[1]) order = d[1]! > d[2]! ? [0, 1, 2] : [0, 2, 1];
  else if (f[0] === f[2]) order = d[0]! > d[2]! ? [0, 1, 2] : [2, 1, 0];
  else order = d[0]! > d[1]! ? [0, 1, 2] : [1, 0, 2];
  return order.map((i) => d[i]!);
}

/** Which atoms carry each family's feature. */
export function gobbiFeatures(rd: RDKit, mol: Mol, molFp?: Uint32Array): number[][] {
  return GOBBI_FAMILIES.map(([, smarts]) =>
    substructMatches(rd, mol, smarts, molFp)
      .map((m) => m[0]!)
      .sort((a, b) => a - b),
  );
}

/**
 * The set bits of the Gobbi 2D pharmacophore fingerprint, as integers: families × 1000 + bins, where families
 * is the proto-pharmacophore's sorted family indices in base 8 (plus 512 for 3 points) and bins the binned
 * (canonically ordered) distances in base 7.
 */
export function gobbiPharm2D(
  features: readonly number[][],
  g: MolGraph,
  distances: Float64Array = topologicalDistances(g),
): Set<number> {
  const n = g.z.length;
  const dist = (a: number, b: number) => distances[a * n + b]!;
  const ok = (d: number) => d >= MIN_DIST && d < MAX_DIST;
  const bits = new Set<number>();
  for (let f0 = 0; f0 < N_FAMILIES; f0++) {
    for (let f1 = f0; f1 < N_FAMILIES; f1++) {
      const A = features[f0]!;
      const B = features[f1]!;
      // Deliberate likeness: the three-point loops below repeat this pair walk inline (the innermost loops).
      // Two points: one atom per family, distinct atoms, and a set of atoms counted once when the families agree.
      for (let i = 0; i < A.length; i++) {
        for (let j = f0 === f1 ? i + 1 : 0; j < B.length; j++) {
          const a = A[i]!;
          const b = B[j]!;
          if (a === b) continue;
          const d = Math.floor(dist(a, b));
          if (!ok(d)) continue;
          bits.add((f0 * 8 + f1) * 1000 + bin(d));
        }
      }
      // Deliberate likeness: the pair walk of the two-point loops above, inline, with a third atom inside.
      for (let f2 = f1; f2 < N_FAMILIES; f2++) {
        const C = features[f2]!;
        const fam = [f0, f1, f2];
        const key = (512 + f0 * 64 + f1 * 8 + f2) * 1000;
        for (let i = 0; i < A.length; i++) {
          for (let j = f0 === f1 ? i + 1 : 0; j < B.length; j++) {
            const a = A[i]!;
            const b = B[j]!;
            if (a === b) continue;
            const dab = Math.floor(dist(a, b));
            if (!ok(dab)) continue;
            for (let k = f1 === f2 ? j + 1 : 0; k < C.length; k++) {
              const c = C[k]!;
              if (c === a || c === b) continue;
              const dac = Math.floor(dist(a, c));
              const dbc = Math.floor(dist(b, c));
              if (!ok(dac) || !ok(dbc)) continue;
              const [x, y, z] = orderTriangle(fam, [dab, dac, dbc]);
              bits.add(key + bin(x!) * 49 + bin(y!) * 7 + bin(z!));
            }
          }
        }
      }
    }
  }
  return bits;
}
