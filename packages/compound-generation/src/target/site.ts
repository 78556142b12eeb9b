// The target as a structure: which chain, where the named residues are, and the pocket box docking searches.
// Pure: structure text in, a description and closures out (@evident/protein-structure does the reading).
import { InvalidParametersError } from '@evident/contract';
import {
  checkPocket,
  ContactIndex,
  findHetGroup,
  ligands,
  parseStructure,
  pocketFromLigand,
  pocketFromResidues,
  pocketResidues,
  receptorPdb,
  resolveResidues,
  selectChain,
  type Pocket,
} from '@evident/protein-structure';
import type { TargetSummary } from './port.js';
import type { TargetRequest, Vec3 } from './request-target.js';

export interface StructureOrigin {
  id: string;
  source: 'request' | 'pdb' | 'alphafold';
}

export interface TargetSite {
  summary: TargetSummary;
  /** The chain's protein atoms as PDB text: what receptor preparation starts from. */
  receptorPdb: string;
  box: { center: Vec3; size: Vec3 };
  /** Residues of the chain within 4 Å of the given heavy atoms (a docked pose), UniProt numbering where mapped. */
  contacts(atoms: Array<{ x: number; y: number; z: number; element: string }>): string[];
}

/** Residues with an atom this far outside the box still show in the viewer's pocket. */
const POCKET_VIEW_MARGIN = 4;

/** The ATOM records of every residue with an atom inside the box grown by `margin` (fixed PDB columns). */
export function pocketResiduesPdb(pdb: string, box: { center: Vec3; size: Vec3 }, margin: number): string {
  const lines = pdb.split('\n').filter((l) => l.startsWith('ATOM') || l.startsWith('HETATM'));
  const key = (l: string) => l.slice(21, 27);
  const inside = new Set<string>();
  for (const l of lines) {
    const xyz = [Number(l.slice(30, 38)), Number(l.slice(38, 46)), Number(l.slice(46, 54))];
    if (xyz.every((v, i) => Math.abs(v - box.center[i]!) <= box.size[i]! / 2 + margin)) inside.add(key(l));
  }
  return `${lines.filter((l) => inside.has(key(l))).join('\n')}\nEND\n`;
}

/** A co-crystallised ligand defines the pocket when one of its atoms lies this close to a named residue. */
const LIGAND_CONTACT = 4.5;

/**
 * Reads the structure and places the request on it. Throws InvalidParametersError (problems by JSON pointer:
 * /structure, /chain, /binding_site/residues/i, /pocket/size) for what does not fit.
 */
export function analyseTarget(
  text: string,
  request: { uniprot: string; residues: string[]; target: TargetRequest },
  origin: StructureOrigin,
): TargetSite {
  const structure = parseStructure(text);
  const chain = selectChain(structure, {
    ...(request.target.chain ? { chain: request.target.chain } : {}),
    uniprot: request.uniprot,
  });
  const resolved = resolveResidues(structure, chain, request.residues, { uniprot: request.uniprot });
  const warnings = [...resolved.warnings];
  const receptor = receptorPdb(structure, chain);
  let pocket: Pocket;
  if (request.target.pocket) {
    pocket = checkPocket(request.target.pocket);
    if (pocketResidues(structure, chain, pocket).length === 0)
      throw new InvalidParametersError([
        { path: '/pocket', message: `the box holds no atom of chain ${chain.id}: check its center and size` },
      ]);
  } else {
    // A co-crystallised ligand touching a named residue marks the pocket better than the residues' own extent.
    const named = new Set(resolved.residues.map((r) => `${r.author_number}${r.insertion_code}`));
    const near = new ContactIndex(structure, chain, { cutoff: LIGAND_CONTACT });
    const touching = ligands(structure, { near: chain }).filter((l) =>
      near.contacts(findHetGroup(structure, l).atoms).some((c) => named.has(`${c.author_number}${c.insertion_code}`)),
    );
    touching.sort((a, b) => b.heavy_atom_count - a.heavy_atom_count);
    pocket = touching.length
      ? pocketFromLigand(structure, touching[0]!)
      : pocketFromResidues(structure, resolved.residues, { field: '/binding_site/residues' });
    if (touching.length)
      warnings.push(`pocket: the box around co-crystallised ${touching[0]!.name} ${touching[0]!.id}`);
  }
  const contacts = new ContactIndex(structure, chain, { cutoff: 4, uniprot: request.uniprot });
  return {
    summary: {
      uniprot: request.uniprot,
      structure: { id: origin.id, source: origin.source, format: structure.format, chain: chain.id },
      residues: resolved.residues.map((r) => ({
        label: r.label,
        author_number: r.author_number,
        uniprot_number: r.uniprot_number,
        name: r.name,
      })),
      pocket: { center: pocket.center, size: pocket.size, source: pocket.source },
      pocket_pdb: pocketResiduesPdb(receptor, pocket, POCKET_VIEW_MARGIN),
      warnings,
    },
    receptorPdb: receptor,
    box: { center: pocket.center, size: pocket.size },
    contacts: (atoms) => contacts.contacts(atoms).map((c) => c.label),
  };
}
