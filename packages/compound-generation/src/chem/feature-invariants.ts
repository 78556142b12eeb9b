// Feature invariants for Morgan fingerprints (FCFP; RDKit GetMorganFingerprint(useFeatures=True)): each atom's
// invariant is a 6-bit mask of the pharmacophore classes it belongs to (donor, acceptor, aromatic, halogen,
// basic, acidic), with RDKit's patterns (after Gobbi and Poppinger, Biotechnol. Bioeng. 61, 47-54, 1998).
import { substructMatches, type Mol, type RDKit } from '../rdkit.js';

/** RDKit's default feature patterns, in the order of their bits (MorganFingerprints::smartsPatterns). */
export const FEATURE_INVARIANT_SMARTS: readonly string[] = [
  '[$([N;!H0;v3,v4&+1]),$([O,S;H1;+0]),n&H1&+0]', // donor
  '[$([O,S;H1;v2;!$(*-*=[O,N,P,S])]),$([O,S;H0;v2]),$([O,S;-]),$([N;v3;!$(N-*=[O,N,P,S])]),n&H0&+0,$([o,s;+0;!$([o,s]:n);!$([o,s]:c:n)])]', // acceptor
  '[a]', // aromatic
  '[F,Cl,Br,I]', // halogen
  '[#7;+,$([N;H2&+0][$([C,a]);!$([C,a](=O))]),$([N;H1&+0]([$([C,a]);!$([C,a](=O))])[$([C,a]);!$([C,a](=O))]),$([N;H0&+0]([C;!$(C(=O))])([C;!$(C(=O))])[C;!$(C(=O))])]', // basic
  '[$([C,S](=[O,S,P])-[O;H1,-1])]', // acidic
];

/** Per atom, the mask of feature classes it matches (0 for none); `molFp` screens the patterns (rdkit.ts). */
export function featureInvariants(rd: RDKit, mol: Mol, nAtoms: number, molFp?: Uint32Array): number[] {
  const invariants = new Array<number>(nAtoms).fill(0);
  FEATURE_INVARIANT_SMARTS.forEach((smarts, bit) => {
    for (const match of substructMatches(rd, mol, smarts, molFp)) for (const a of match) invariants[a]! |= 1 << bit;
  });
  return invariants;
}
