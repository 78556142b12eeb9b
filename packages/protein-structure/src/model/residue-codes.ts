// Residue names → one-letter codes. A file's own MODRES (PDB) or _pdbx_struct_mod_residue (mmCIF) parent wins;
// this table covers the standard amino acids, force-field protonation names, and modified residues common in
// kinase and GPCR entries whose files omit MODRES.

// Deliberate copy in job-service/test/structures/fake-sources.ts: the tests' fake keeps its own, independent table.
const STANDARD: Record<string, string> = {
  ALA: 'A',
  ARG: 'R',
  ASN: 'N',
  ASP: 'D',
  CYS: 'C',
  GLN: 'Q',
  GLU: 'E',
  GLY: 'G',
  HIS: 'H',
  ILE: 'I',
  LEU: 'L',
  LYS: 'K',
  MET: 'M',
  PHE: 'F',
  PRO: 'P',
  SER: 'S',
  THR: 'T',
  TRP: 'W',
  TYR: 'Y',
  VAL: 'V',
  SEC: 'U',
  PYL: 'O',
};

/** Modified or renamed amino acids → the standard parent. */
const MODIFIED_PARENT: Record<string, string> = {
  MSE: 'MET',
  FME: 'MET',
  PTR: 'TYR',
  TYS: 'TYR',
  SEP: 'SER',
  TPO: 'THR',
  CSO: 'CYS',
  CSD: 'CYS',
  CME: 'CYS',
  OCS: 'CYS',
  CAS: 'CYS',
  CSS: 'CYS',
  SCH: 'CYS',
  SMC: 'CYS',
  SNC: 'CYS',
  CYX: 'CYS',
  CYM: 'CYS',
  HID: 'HIS',
  HIE: 'HIS',
  HIP: 'HIS',
  HSD: 'HIS',
  HSE: 'HIS',
  HSP: 'HIS',
  NEP: 'HIS',
  LYN: 'LYS',
  MLY: 'LYS',
  M3L: 'LYS',
  MLZ: 'LYS',
  ALY: 'LYS',
  KCX: 'LYS',
  LLP: 'LYS',
  ASH: 'ASP',
  PHD: 'ASP',
  GLH: 'GLU',
  CGU: 'GLU',
  HYP: 'PRO',
  MEN: 'ASN',
};

/** Names a modified residue of the polymer carries, so that `ligands` never offers one as a ligand. */
export const MODIFIED_RESIDUES: ReadonlySet<string> = new Set(Object.keys(MODIFIED_PARENT));

/** The parent standard amino acid of `name` (itself when standard), or undefined. */
export function parentAminoAcid(name: string, modresParent?: string): string | undefined {
  if (STANDARD[name]) return name;
  if (modresParent && STANDARD[modresParent]) return modresParent;
  const parent = MODIFIED_PARENT[name];
  return parent && STANDARD[parent] ? parent : undefined;
}

/** One-letter code, 'X' when neither the file nor the table knows the residue. */
export function oneLetter(name: string, modresParent?: string): string {
  const parent = parentAminoAcid(name, modresParent);
  return parent ? STANDARD[parent]! : 'X';
}

export const WATER_NAMES: ReadonlySet<string> = new Set(['HOH', 'WAT', 'DOD', 'H2O', 'SOL', 'TIP', 'TIP3']);
