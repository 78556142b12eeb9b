// MERGE-PENDING: replaced by the stereo enumeration of src/chem/stereo.ts when that lands.
import type { RDKit } from '../rdkit.js';
export function enumerateIsomers(_rd: RDKit, smiles: string, _max: number): { isomers: string[]; capped: boolean } {
  return { isomers: [smiles], capped: false };
}
