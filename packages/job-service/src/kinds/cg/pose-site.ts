// The pocket residues the poses page draws as sticks (over a cartoon of the protein): those within 4 Å of the
// pose shown, and the binding-site residues the request named. Computed here, in the author numbering of the
// page's PDB text, so the viewer only selects them: the molecule's `contacts` use UniProt numbering, which the
// viewer cannot map, and 3Dmol.js's `within` selection does not reach across models (pose and protein).
import type { GenerationResult } from '@evident/compound-generation';
import { ContactIndex, type PointAtom, parseStructure } from '@evident/protein-structure';

/** Contacts as the results define them (`contacts`: residues within 4 Å of the pose's heavy atoms). */
export const SITE_CUTOFF = 4;

export interface SiteResidue {
  chain: string;
  /** Author residue number, as in the page's PDB text (3Dmol.js's `resi`). */
  resi: number;
  /** Residue name (LYS). */
  resn: string;
  /** A residue the request named in `binding_site.residues`. */
  named: boolean;
}

/**
 * The atoms of the first molecule of an SDF (V2000 fixed columns: coordinates in 0-30, the element in 31-34).
 * A dozen lines by hand: the pose is the engine's own output, and parsing it with RDKit would load WebAssembly in
 * the thread that renders a page.
 */
export function sdfAtoms(sdf: string): PointAtom[] {
  const lines = sdf.split(/\r?\n/);
  const count = Number.parseInt(lines[3]?.slice(0, 3) ?? '', 10);
  if (!Number.isInteger(count) || count <= 0) return [];
  const atoms: PointAtom[] = [];
  for (const l of lines.slice(4, 4 + count)) {
    const [x, y, z] = [l.slice(0, 10), l.slice(10, 20), l.slice(20, 30)].map(Number) as [number, number, number];
    const element = l.slice(31, 34).trim();
    if ([x, y, z].every(Number.isFinite) && element !== '') atoms.push({ x, y, z, element });
  }
  return atoms;
}

/** Finds the pocket residues of each pose over one reading of the result's pocket PDB. */
export function siteResidueFinder(result: GenerationResult): (poseSdf: string) => SiteResidue[] {
  const pdb = result.target.pocket_pdb ?? '';
  const structure = pdb.trim() === '' ? null : parseStructure(pdb, { format: 'pdb', field: 'target/pocket_pdb' });
  const chain = structure?.chains.find((c) => c.id === result.target.structure?.chain) ?? structure?.chains[0];
  if (!structure || !chain) return () => [];
  const index = new ContactIndex(structure, chain, { cutoff: SITE_CUTOFF });
  const named = new Set((result.target.resolved_residues ?? []).map((r) => r.author_number));
  const residue = (r: { author_number: number; name: string }) => ({
    chain: chain.id,
    resi: r.author_number,
    resn: r.name,
    named: named.has(r.author_number),
  });
  const namedHere = chain.residues.filter((r) => named.has(r.author_number)).map(residue);
  return (poseSdf) => {
    const near = index.contacts(sdfAtoms(poseSdf)).map(residue);
    const seen = new Set(near.map((r) => r.resi));
    return [...near, ...namedHere.filter((r) => !seen.has(r.resi))].sort((a, b) => a.resi - b.resi);
  };
}
