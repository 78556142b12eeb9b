// The PDB format's fixed columns (wwPDB format 3.3): ATOM/HETATM up to the first ENDMDL, HEADER's id,
// DBREF/DBREF1/DBREF2 UniProt segments, MODRES parents, SEQRES (to tell a modified residue of the chain from a
// ligand, and with REMARK 465's missing residues to number sequence positions).
import { inputError } from '../errors.js';
import { MODIFIED_RESIDUES, WATER_NAMES, parentAminoAcid } from '../model/residue-codes.js';
import type { MappingSegment } from '../model/types.js';
import { type AtomRecord, normalizeElement, StructureBuilder } from './builder.js';
import { assignSequencePositions, type MissingResidue } from './pdb-seqres.js';

const col = (line: string, from: number, to: number) => line.slice(from - 1, to).trim();

export function readPdb(text: string, field: string): StructureBuilder {
  const b = new StructureBuilder('pdb');
  const modres = new Set<string>();
  const seqres = new Map<string, string[]>();
  const missing = new Map<string, MissingResidue[]>();
  let missingHeader = false;
  let missingModel: string | undefined;
  const atoms: AtomRecord[] = [];
  const dbref1 = new Map<
    string,
    Omit<MappingSegment, 'accession' | 'uniprot_begin' | 'uniprot_end' | 'label_begin' | 'label_end'>
  >();
  let lineNo = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
    start = end + 1;
    lineNo++;
    const rec = line.slice(0, 6).trimEnd();
    if (rec === 'ATOM' || rec === 'HETATM') {
      atoms.push(atomRecord(line, rec === 'HETATM', lineNo, field));
    } else if (rec === 'ENDMDL' && atoms.length > 0) {
      break; // first model only
    } else if (rec === 'HEADER') {
      b.id = col(line, 63, 66) || null;
    } else if (rec === 'DBREF') {
      if (col(line, 27, 32) !== 'UNP') continue;
      b.mappings.push({
        chain: col(line, 13, 13),
        accession: col(line, 34, 41),
        author_begin: int(col(line, 15, 18), lineNo, field),
        author_begin_insertion: col(line, 19, 19),
        author_end: int(col(line, 21, 24), lineNo, field),
        author_end_insertion: col(line, 25, 25),
        uniprot_begin: int(col(line, 56, 60), lineNo, field),
        uniprot_end: int(col(line, 63, 67), lineNo, field),
        label_begin: null,
        label_end: null,
      });
      // Deliberate likeness: DBREF, DBREF1 and DBREF2 read their columns alike; the column positions differ.
    } else if (rec === 'DBREF1') {
      if (col(line, 27, 32) !== 'UNP') continue;
      dbref1.set(col(line, 13, 13), {
        chain: col(line, 13, 13),
        author_begin: int(col(line, 15, 18), lineNo, field),
        author_begin_insertion: col(line, 19, 19),
        author_end: int(col(line, 21, 24), lineNo, field),
        author_end_insertion: col(line, 25, 25),
      });
    } else if (rec === 'DBREF2') {
      const first = dbref1.get(col(line, 13, 13));
      if (!first) continue; // its DBREF1 named another database
      dbref1.delete(first.chain);
      b.mappings.push({
        ...first,
        accession: col(line, 19, 40),
        uniprot_begin: int(col(line, 46, 55), lineNo, field),
        uniprot_end: int(col(line, 58, 67), lineNo, field),
        label_begin: null,
        label_end: null,
      });
    } else if (rec === 'MODRES') {
      const key = `${col(line, 17, 17)}|${col(line, 19, 22)}|${col(line, 23, 23)}`;
      modres.add(key);
      const parent = col(line, 25, 27);
      if (parentAminoAcid(parent)) b.modifiedParents.set(key, parent);
    } else if (rec === 'SEQRES') {
      const chain = col(line, 12, 12);
      const names = seqres.get(chain) ?? [];
      seqres.set(chain, names);
      for (const n of col(line, 20, 70).split(/\s+/)) if (n) names.push(n);
    } else if (rec === 'REMARK' && col(line, 8, 10) === '465') {
      // REMARK 465: a header line `M RES C SSSEQI`, then one missing residue per line (first model only).
      if (/^\s*M RES C SSSEQI/.test(line.slice(10))) missingHeader = true;
      else if (missingHeader && col(line, 16, 18) && /^-?\d+$/.test(col(line, 22, 26))) {
        const model = col(line, 14, 14);
        missingModel ??= model;
        if (model !== missingModel) continue;
        const chain = col(line, 20, 20);
        const list = missing.get(chain) ?? [];
        missing.set(chain, list);
        list.push({
          name: col(line, 16, 18),
          author_number: Number(col(line, 22, 26)),
          insertion_code: col(line, 27, 27),
        });
      }
    }
  }
  for (const record of atoms) if (record.hetero) record.polymer = polymerHetatm(record, modres, seqres);
  assignSequencePositions(atoms, seqres, missing, b.mappings);
  for (const record of atoms) b.add(record);
  return b;
}

/**
 * A HETATM residue belongs to the chain when MODRES names it, when it is a known modified amino acid, or when
 * SEQRES lists its (non-standard) name; a standard amino acid as HETATM is a free ligand (glutamate in a
 * glutamate receptor), as is anything else.
 */
function polymerHetatm(r: AtomRecord, modres: Set<string>, seqres: Map<string, string[]>): boolean {
  if (WATER_NAMES.has(r.residue_name)) return false;
  if (modres.has(`${r.chain}|${r.author_number}|${r.insertion_code}`)) return true;
  if (MODIFIED_RESIDUES.has(r.residue_name)) return true;
  if (parentAminoAcid(r.residue_name) === r.residue_name) return false;
  return seqres.get(r.chain)?.includes(r.residue_name) ?? false;
}

function atomRecord(line: string, hetero: boolean, lineNo: number, field: string): AtomRecord {
  const num = (from: number, to: number, what: string) => {
    const s = col(line, from, to);
    const v = Number(s);
    if (s === '' || !Number.isFinite(v)) throw inputError(field, `line ${lineNo}: the ${what} "${s}" is not a number`);
    return v;
  };
  const name = col(line, 13, 16);
  const occ = col(line, 55, 60);
  const bf = col(line, 61, 66);
  return {
    hetero,
    polymer: !hetero,
    chain: col(line, 22, 22),
    residue_name: col(line, 18, 20),
    author_number: int(col(line, 23, 26), lineNo, field),
    insertion_code: col(line, 27, 27),
    label_seq: null,
    atom: {
      name,
      element: normalizeElement(col(line, 77, 78), line.slice(12, 16), hetero),
      x: num(31, 38, 'x coordinate'),
      y: num(39, 46, 'y coordinate'),
      z: num(47, 54, 'z coordinate'),
      altloc: col(line, 17, 17),
      occupancy: occ === '' ? 1 : Number(occ) || 0,
      b_factor: bf === '' ? 0 : Number(bf) || 0,
    },
  };
}

function int(s: string, lineNo: number, field: string): number {
  if (!/^-?\d+$/.test(s)) throw inputError(field, `line ${lineNo}: the residue number "${s}" is not an integer`);
  return Number(s);
}
