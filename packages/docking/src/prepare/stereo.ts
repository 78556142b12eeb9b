// Does a 3D structure keep the stereochemistry its SMILES specified? RDKit assigns tetrahedral and double-bond
// stereo from the 3D coordinates when it reads a mol block; a substructure match of the SMILES onto it with
// chirality on succeeds only if every specified centre and double bond agrees (unspecified ones match either).
import type { MainModule } from '@rdkit/rdkit';
import { parseMol, withMol } from './rdkit.js';

export type StereoVerdict = { ok: true } | { ok: false; reason: string };

export function stereoKept(rd: MainModule, smiles: string, molBlock3d: string): StereoVerdict {
  const query = parseMol(rd, smiles);
  if (!query) return { ok: false, reason: `RDKit cannot read the SMILES ${smiles}` };
  return withMol(query, (q) => {
    const built = parseMol(rd, molBlock3d, { removeHs: true });
    if (!built) return { ok: false, reason: 'RDKit cannot read the 3D structure' };
    return withMol(built, (m) => {
      const nq = q.get_num_atoms(true);
      const nm = m.get_num_atoms(true);
      if (nq !== nm) return { ok: false, reason: `the 3D structure has ${nm} heavy atoms, the SMILES ${nq}` };
      const match = m.get_substruct_match(q, JSON.stringify({ useChirality: true }));
      if (match === '{}' || match === '') {
        return { ok: false, reason: 'its stereocentres or double-bond geometry differ from the SMILES' };
      }
      return { ok: true };
    });
  });
}
