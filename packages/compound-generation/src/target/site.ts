// The target as a structure: which chain, where the named residues are, and the pocket box docking searches.
// Pure: structure text in, a description and closures out (@evident/protein-structure does the reading).
import {
  checkPocket,
  contactResidues,
  ligands,
  parseStructure,
  pocketFromLigand,
  pocketFromResidues,
  receptorPdb,
  resolveResidues,
  selectChain,
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
  const chain = selectChain(structure, { chain: request.target.chain ?? undefined, uniprot: request.uniprot });
  const resolved = resolveResidues(structure, chain, request.residues, { uniprot: request.uniprot });
  const warnings = [...resolved.warnings];
  const receptor = receptorPdb(structure, chain);
  let box: { center: Vec3; size: Vec3; source: string };
  if (request.target.pocket) {
    checkPocket(request.target.pocket);
    box = { ...request.target.pocket, source: 'request' };
  } else {
    const named = resolved.residues;
    const near = ligands(structure).filter(
      (l) => contactResidues(structure, chain, l.atoms, { cutoff: LIGAND_CONTACT }).length > 0 &&
        named.some((r) => contactResidues(structure, chain, l.atoms, { cutoff: LIGAND_CONTACT }).includes(r.label)),
    );
    box = near.length ? pocketFromLigand(structure, near[0]!) : pocketFromResidues(structure, named);
  }
  return {
    summary: {
      uniprot: request.uniprot,
      structure: { id: origin.id, source: origin.source, format: structure.format, chain },
      residues: resolved.residues.map((r) => ({
        label: r.label,
        author_number: r.author_number,
        uniprot_number: r.uniprot_number,
        name: r.name,
      })),
      pocket: { center: box.center, size: box.size, source: box.source },
      pocket_pdb: pocketResiduesPdb(receptor, box, POCKET_VIEW_MARGIN),
      warnings,
    },
    receptorPdb: receptor,
    box: { center: box.center, size: box.size },
    contacts: (atoms) => contactResidues(structure, chain, atoms, { cutoff: 4 }),
  };
}
