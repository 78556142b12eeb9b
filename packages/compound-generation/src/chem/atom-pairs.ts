// Atom-pair fingerprints (Carhart, Smith and Venkataraghavan, J. Chem. Inf. Comput. Sci. 25, 64-73, 1985) as
// RDKit's GetAtomPairFingerprint computes them: a count per (atom code, atom code, topological distance) for
// every pair of atoms within [minLength, maxLength] bonds. MinimalLib only exposes the hashed, folded bit
// vector, so the codes are computed here with RDKit's layout (AtomPairs::getAtomCode, getAtomPairCode):
// atom code = degree mod 7 | (π electrons mod 3) << 3 | element index << 5, with elements
// B C N O F Si P S Cl As Se Br Sb Te I and everything else in the last slot; pair code = distance |
// min code << 5 | max code << 14. π electrons are RDKit's numPiElectrons: 1 on an aromatic atom, 0 on an sp3
// one, else the explicit valence minus the bonds (a double bond counts 1, a triple 2).
import { substructMatches, type Mol, type RDKit } from '../rdkit.js';
import { topologicalDistances } from './distance-matrix.js';
import type { MolGraph } from './graph.js';

// Deliberate likeness: named constants, which the duplicates tool pairs by shape with other files' constant runs
// (job-service's wire/json-shape.ts and kinds/td/enrichment-plot.ts); the values are unrelated, nothing to share.
const ATOM_NUMBER_TYPES = [5, 6, 7, 8, 9, 14, 15, 16, 17, 33, 34, 35, 51, 52, 53];
const NUM_TYPES = 16;
const MAX_NUM_PI = 3;
const MAX_NUM_BRANCHES = 7;
const BRANCH_BITS = 3;
const PI_BITS = 2;
const PATH_BITS = 5;
const CODE_SIZE = 9;
const AROMATIC = 12;

function elementIndex(z: number): number {
  let i = 0;
  while (i < NUM_TYPES) {
    const t = ATOM_NUMBER_TYPES[i];
    if (t === undefined || t > z) return NUM_TYPES - 1;
    if (t === z) return i;
    i++;
  }
  return NUM_TYPES - 1;
}

/** RDKit's atom-pair code of every atom (`sp3`: atoms RDKit hybridizes sp3, from the SMARTS `[^3]`). */
export function atomPairCodes(g: MolGraph, sp3: ReadonlySet<number>): number[] {
  return g.z.map((z, i) => {
    const bonds = g.adj[i]!;
    let pi = 0;
    if (g.aromaticAtom[i]) pi = 1;
    else if (!sp3.has(i)) {
      let valence = 0;
      for (const [, b] of bonds) {
        const type = g.bonds[b]![2];
        valence += type === AROMATIC ? 1.5 : type;
      }
      pi = Math.max(0, Math.round(valence) - bonds.length);
    }
    return (
      (bonds.length % MAX_NUM_BRANCHES) |
      ((pi % MAX_NUM_PI) << BRANCH_BITS) |
      (elementIndex(z) << (BRANCH_BITS + PI_BITS))
    );
  });
}

/** The sp3 atoms of a molecule as RDKit perceives them. */
export function sp3Atoms(rd: RDKit, mol: Mol): Set<number> {
  return new Set(substructMatches(rd, mol, '[^3]').map((m) => m[0]!));
}

/** Pair code → count (RDKit GetAtomPairFingerprint(mol, minLength, maxLength).GetNonzeroElements()). */
export function atomPairCounts(
  g: MolGraph,
  sp3: ReadonlySet<number>,
  maxLength = 30,
  minLength = 1,
  distances: Float64Array = topologicalDistances(g),
): Map<number, number> {
  const codes = atomPairCodes(g, sp3);
  const n = codes.length;
  const counts = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dist = Math.floor(distances[i * n + j]!);
      if (dist < minLength || dist > maxLength) continue;
      const a = codes[i]!;
      const b = codes[j]!;
      const code = (dist | (Math.min(a, b) << PATH_BITS) | (Math.max(a, b) << (PATH_BITS + CODE_SIZE))) >>> 0;
      counts.set(code, (counts.get(code) ?? 0) + 1);
    }
  }
  return counts;
}
