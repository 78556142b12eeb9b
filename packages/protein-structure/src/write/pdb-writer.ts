// PDB text for the docking step: the receptor chain's polymer atoms (no water, no ligand, no ion; the kept
// alternate location written without its flag) and a co-crystallised ligand's atoms, in the fixed columns
// Open Babel and Vina's tools read.
import { inputError } from '../errors.js';
import { findHetGroup, type Ligand } from '../ligands/ligands.js';
import type { Atom, Chain, Structure } from '../model/types.js';
import { chainOf } from '../select/chain.js';

/** ATOM/HETATM records of the chain's polymer residues (modified residues such as PTR stay, as HETATM), TER, END. */
export function receptorPdb(structure: Structure, chain: Chain | string): string {
  const c = chainOf(structure, chain);
  const lines: string[] = [];
  let serial = 0;
  let last: { name: string; number: number; icode: string } | undefined;
  for (const r of c.residues) {
    for (const a of r.atoms) {
      lines.push(atomLine(r.hetero ? 'HETATM' : 'ATOM', ++serial, a, r.name, c.id, r.author_number, r.insertion_code));
    }
    last = { name: r.name, number: r.author_number, icode: r.insertion_code };
  }
  if (last) {
    const ter = `TER   ${field(++serial % 100000, 5)}      ${resName(last.name)} ${chainId(c.id)}${field(last.number, 4)}${last.icode || ' '}`;
    lines.push(ter);
  }
  lines.push('END');
  return `${lines.join('\n')}\n`;
}

/** HETATM records of one co-crystallised ligand, END. Bonds are left to the reader's perception (no CONECT). */
export function ligandPdb(structure: Structure, ligand: Ligand | string): string {
  const g = findHetGroup(structure, ligand);
  const lines = g.atoms.map((a, i) => atomLine('HETATM', i + 1, a, g.name, g.chain, g.author_number, g.insertion_code));
  lines.push('END');
  return `${lines.join('\n')}\n`;
}

function atomLine(
  record: 'ATOM' | 'HETATM',
  serial: number,
  a: Atom,
  residue: string,
  chain: string,
  number: number,
  icode: string,
): string {
  for (const v of [a.x, a.y, a.z]) {
    if (Math.abs(v) >= 10000)
      throw inputError('structure', `coordinate ${v} does not fit PDB's columns (|x| < 10000 Å)`);
  }
  return (
    record.padEnd(6) +
    field(serial % 100000, 5) +
    ' ' +
    atomName(a.name, a.element) +
    ' ' + // the kept alternate location is written as the only one
    resName(residue) +
    ' ' +
    chainId(chain) +
    field(number, 4) +
    (icode || ' ') +
    '   ' +
    field(a.x.toFixed(3), 8) +
    field(a.y.toFixed(3), 8) +
    field(a.z.toFixed(3), 8) +
    field(a.occupancy.toFixed(2), 6) +
    field(a.b_factor.toFixed(2), 6) +
    '          ' +
    field(a.element.toUpperCase(), 2)
  );
}

const field = (v: string | number, width: number) => String(v).padStart(width).slice(-width);

/** PDB alignment: a one-letter element's name starts in column 14 (` CA `), a two-letter one's in 13 (`FE  `). */
function atomName(name: string, element: string): string {
  if (name.length >= 4) return name.slice(0, 4);
  if (element.length === 2 && name.toUpperCase().startsWith(element.toUpperCase())) return name.padEnd(4);
  return ` ${name}`.padEnd(4);
}

/** Component ids longer than PDB's three columns (new five-character CCD ids) are written as LIG. */
const resName = (name: string) => (name.length > 3 ? 'LIG' : name.padStart(3));

/** mmCIF chain ids can be longer than PDB's one column: such a chain is written as A. */
const chainId = (id: string) => (id.length === 1 ? id : 'A');
