// Binding-site complementarity: a HEURISTIC from the residues' side-chain chemistry, not a binding affinity and
// not a docking score. Each residue asks for pharmacophore features a ligand could offer it; the score is the
// mean over residues of how well (saturating, 1 - exp(-count/k)) the molecule's feature counts meet those demands (0..1).
//   K, R (cationic)      -> H-bond acceptors, or an anionic group (a cationic group halves the term)
//   D, E (anionic)       -> H-bond donors, or a cationic group (an anionic group halves the term)
//   H                    -> acceptors and aromatic rings
//   S, T, N, Q, Y, C, W  -> polar contacts (donors + acceptors)
//   F, Y, W, H           -> aromatic rings (stacking)
//   A, V, L, I, M, P, F, W, C, T -> hydrophobic atoms
//   G                    -> backbone polar contacts
import { hasSubstructMatch, type Mol, type RDKit } from '../rdkit.js';
import type { MolGraph } from '../chem/graph.js';

export interface PharmacophoreFeatures {
  donors: number;
  acceptors: number;
  cationic: number;
  anionic: number;
  aromatic_rings: number;
  hydrophobes: number;
}

// Basic amines (protonated at physiological pH): aliphatic, not amide/sulfonamide/aniline/N-hetero-substituted.
const CATIONIC = [
  '[NX3;H2,H1,H0;!$(N-[#6]=[O,S,N]);!$(N-S(=O)=O);!$(N-a);!$(N-[#7,#8]);!$(N-C#N);!$(N-C=C)]',
  '[NX3][CX3]=[NX2;!$(N-[#8,#7])]',
  '[#7+;!$([#7+]-[O-]);!$([#7+]=O)]',
];
const ANIONIC = [
  '[CX3](=O)[OX2H1,OX1-]',
  'c1nn[nH]n1',
  '[#6]S(=O)(=O)[NH]C=O',
  '[SX4](=O)(=O)[OX2H1,OX1-]',
  '[PX4](=O)[OX2H1,OX1-]',
];

function countMatching(rd: RDKit, mol: Mol, patterns: string[], molFp?: Uint32Array): number {
  let n = 0;
  for (const p of patterns) if (hasSubstructMatch(rd, mol, p, molFp)) n++;
  return n;
}

export function pharmacophoreFeatures(
  rd: RDKit,
  mol: Mol,
  g: MolGraph,
  donors: number,
  acceptors: number,
  aromaticRings: number,
  molFp?: Uint32Array,
): PharmacophoreFeatures {
  // hydrophobic atoms: C not bonded to N or O, and Cl, Br, I
  let hydrophobes = 0;
  for (let i = 0; i < g.z.length; i++) {
    const z = g.z[i]!;
    if (z === 17 || z === 35 || z === 53) hydrophobes++;
    else if (z === 6 && g.adj[i]!.every(([j]) => g.z[j] !== 7 && g.z[j] !== 8)) hydrophobes++;
  }
  return {
    donors,
    acceptors,
    cationic: countMatching(rd, mol, CATIONIC, molFp),
    anionic: countMatching(rd, mol, ANIONIC, molFp),
    aromatic_rings: aromaticRings,
    hydrophobes,
  };
}

// Saturating: the first features matter most; more keep helping a little (1 - e^(-x/k)).
const sat = (x: number, k: number) => 1 - Math.exp(-x / k);

/** Per residue one-letter code, the satisfaction 0..1 of its demands by the features. */
export function residueFit(code: string, f: PharmacophoreFeatures): number {
  const terms: number[] = [];
  const polar = sat(f.donors + f.acceptors, 3);
  const aromatic = sat(f.aromatic_rings, 2);
  const hydrophobic = sat(f.hydrophobes, 8);
  // like charges repel: a cationic group halves a K/R term, an anionic one a D/E term
  if (code === 'K' || code === 'R')
    terms.push(Math.max(sat(f.acceptors, 2), f.anionic > 0 ? 1 : 0) * (f.cationic > 0 ? 0.5 : 1));
  if (code === 'D' || code === 'E')
    terms.push(Math.max(sat(f.donors, 1), f.cationic > 0 ? 1 : 0) * (f.anionic > 0 ? 0.5 : 1));
  if (code === 'H') terms.push(sat(f.acceptors, 2));
  if ('STNQYCW'.includes(code)) terms.push(polar);
  if ('FYWH'.includes(code)) terms.push(aromatic);
  if ('AVLIMPFWCT'.includes(code)) terms.push(hydrophobic);
  if (code === 'G') terms.push(sat(f.donors + f.acceptors, 2));
  return terms.length ? terms.reduce((a, b) => a + b, 0) / terms.length : 0;
}

export function siteComplementarity(residues: string[], f: PharmacophoreFeatures): number {
  if (residues.length === 0) return 0;
  return residues.reduce((s, r) => s + residueFit(r[0]!, f), 0) / residues.length;
}
