// Identifiers that end up in URLs and file names. Every id from a request or from a service's answer passes one
// of these before it is used: only letters, digits, `_` and `-` survive, so no id can climb out of a base URL
// or out of the cache directory.
import { canonicalPdbId, RESIDUE_LABEL, UNIPROT_ACCESSION } from '@evident/compound-generation';
import { InvalidParametersError, type Problem } from '@evident/contract';

// PDB ids, classic (1ABC) or extended (pdb_00001abc), are read as the engine reads a request's pdb_id.
export { canonicalPdbId };

/** The accession without an isoform suffix: RCSB and AlphaFold DB index canonical sequences. */
export function canonicalAccession(raw: string): string | undefined {
  return UNIPROT_ACCESSION.test(raw) ? raw.replace(/-[0-9]+$/, '') : undefined;
}

// AlphaFold DB entry ids: AF-<accession>-F<fragment>.
const ALPHAFOLD_ENTRY_ID = /^AF-[A-Z0-9]{6,10}-F[0-9]{1,3}$/;
export const isAlphaFoldEntryId = (id: string) => ALPHAFOLD_ENTRY_ID.test(id);

export interface StructureQuery {
  uniprot: string;
  pdb_id?: string | undefined;
  residues: readonly string[];
}

/** Checked and canonical ids of a query; throws 400 `invalid_parameters` naming the request field. */
export function checkQuery(q: StructureQuery): { accession: string; pdbId: string | undefined } {
  const problems: Problem[] = [];
  const accession = typeof q.uniprot === 'string' ? canonicalAccession(q.uniprot) : undefined;
  if (!accession) problems.push({ path: '/target_uniprot', message: 'is not a UniProtKB accession (e.g. P00533)' });
  let pdbId: string | undefined;
  if (q.pdb_id !== undefined) {
    pdbId = typeof q.pdb_id === 'string' ? canonicalPdbId(q.pdb_id) : undefined;
    if (!pdbId)
      problems.push({ path: '/pdb_id', message: 'is not a PDB id (four characters such as 2SRC, or pdb_00002src)' });
  }
  if (!Array.isArray(q.residues)) problems.push({ path: '/residues', message: 'must be a list of residue labels' });
  else
    q.residues.forEach((r, i) => {
      if (typeof r !== 'string' || !RESIDUE_LABEL.test(r))
        problems.push({ path: `/residues/${i}`, message: 'is not a residue label such as K721' });
    });
  if (problems.length) throw new InvalidParametersError(problems);
  return { accession: accession!, pdbId };
}
