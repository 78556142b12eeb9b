// A plain molecular graph read from RDKit's JSON export: what our own algorithms (Morgan environment ids,
// QED's aromatic ring count, pharmacophore features) need, without further WASM calls.
import type { Mol } from '../rdkit.js';

const BOND_AROMATIC = 12; // RDKit's Bond::AROMATIC enum value (SINGLE=1, DOUBLE=2, TRIPLE=3)

export interface MolGraph {
  /** Atomic numbers. */
  z: number[];
  /** Total hydrogen count on each atom (implicit + explicit, not H atoms in the graph). */
  hs: number[];
  charge: number[];
  isotope: number[];
  aromaticAtom: boolean[];
  inRing: boolean[];
  /** Bonds as [a, b, type] with RDKit bond type numbers (aromatic = 12). */
  bonds: Array<[number, number, number]>;
  /** Per atom: [neighbour atom, bond index]. */
  adj: Array<Array<[number, number]>>;
  /** RDKit's ring perception (SSSR) as atom index lists. */
  rings: number[][];
  /** Total radical electrons. */
  radicals: number;
}

interface RDKitJson {
  defaults: { atom: Record<string, unknown>; bond: Record<string, unknown> };
  molecules: Array<{
    atoms: Array<{ z?: number; impHs?: number; chg?: number; isotope?: number; nRad?: number }>;
    bonds: Array<{ bo?: number; atoms: [number, number] }>;
    extensions?: Array<{ name: string; aromaticAtoms?: number[]; aromaticBonds?: number[]; atomRings?: number[][] }>;
  }>;
}

export function molGraph(mol: Mol): MolGraph {
  const doc = JSON.parse(mol.get_json()) as RDKitJson;
  const m = doc.molecules[0]!;
  const da = doc.defaults.atom as { z: number; impHs: number; chg: number; isotope: number };
  const db = doc.defaults.bond as { bo: number };
  const ext = m.extensions?.find((e) => e.name === 'rdkitRepresentation');
  const n = m.atoms.length;
  const z = m.atoms.map((a) => a.z ?? da.z);
  const hs = m.atoms.map((a) => a.impHs ?? da.impHs);
  const charge = m.atoms.map((a) => a.chg ?? da.chg);
  const isotope = m.atoms.map((a) => a.isotope ?? da.isotope);
  const aromaticAtom = new Array<boolean>(n).fill(false);
  for (const i of ext?.aromaticAtoms ?? []) aromaticAtom[i] = true;
  const aromaticBond = new Set(ext?.aromaticBonds ?? []);
  const rings = ext?.atomRings ?? [];
  const inRing = new Array<boolean>(n).fill(false);
  for (const r of rings) for (const i of r) inRing[i] = true;
  const adj: Array<Array<[number, number]>> = Array.from({ length: n }, () => []);
  const bonds = m.bonds.map((b, i): [number, number, number] => {
    const [a, c] = b.atoms;
    adj[a]!.push([c, i]);
    adj[c]!.push([a, i]);
    return [a, c, aromaticBond.has(i) ? BOND_AROMATIC : (b.bo ?? db.bo)];
  });
  const radicals = m.atoms.reduce((s, a) => s + (a.nRad ?? 0), 0);
  return { z, hs, charge, isotope, aromaticAtom, inRing, bonds, adj, rings, radicals };
}
