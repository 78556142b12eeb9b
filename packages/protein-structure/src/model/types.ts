// The structure as read from a file: the first model only, first alternate location only. Field names are
// snake_case because resolved residues, ligands and pockets cross the job API as they are.

export type StructureFormat = 'pdb' | 'mmcif';

export interface Atom {
  name: string;
  /** Capitalised element symbol ('C', 'Fe'); from the element column, else guessed from the atom name. */
  element: string;
  x: number;
  y: number;
  z: number;
  /** The alternate location kept ('' when the atom has none). */
  altloc: string;
  occupancy: number;
  b_factor: number;
}

export interface Residue {
  /** Author residue number (PDB resSeq, mmCIF auth_seq_id). */
  author_number: number;
  /** '' when none. */
  insertion_code: string;
  /** Position in the entity's sequence (mmCIF label_seq_id; PDB: from SEQRES and REMARK 465, else null). */
  label_seq: number | null;
  /** Three-letter (or up to five-character) component id: 'LYS', 'PTR'. */
  name: string;
  /** One-letter code of the amino acid (of the parent for a modified residue), 'X' when unknown. */
  one_letter: string;
  /** Standard or modified amino acid with a CA atom. */
  amino_acid: boolean;
  /** Written as HETATM in the file (modified residues are). */
  hetero: boolean;
  atoms: Atom[];
}

export interface Chain {
  /** Author chain id (PDB chainID, mmCIF auth_asym_id). */
  id: string;
  /** Polymer residues in file order. */
  residues: Residue[];
  /** Holds at least one amino acid with a CA atom. */
  protein: boolean;
}

/** A non-polymer group (ligand, ion, water, additive) as one residue of the file. */
export interface HetGroup {
  name: string;
  chain: string;
  author_number: number;
  insertion_code: string;
  atoms: Atom[];
}

/** One stretch of a chain aligned to a UniProt entry (PDB DBREF/DBREF1/DBREF2, mmCIF _struct_ref_seq). */
export interface MappingSegment {
  chain: string;
  accession: string;
  author_begin: number;
  author_begin_insertion: string;
  author_end: number;
  author_end_insertion: string;
  uniprot_begin: number;
  uniprot_end: number;
  /** The same stretch in sequence positions (mmCIF seq_align_beg/end; PDB: as residues' label_seq, else null). */
  label_begin: number | null;
  label_end: number | null;
}

export interface Structure {
  /** The entry id ('2SRC'), null when the file names none. */
  id: string | null;
  format: StructureFormat;
  chains: Chain[];
  het_groups: HetGroup[];
  /** UniProt mapping segments only (other databases are dropped). */
  mappings: MappingSegment[];
}

export type Vec3 = [number, number, number];

/** A point with an element, as a docked pose's atoms are given. */
export interface PointAtom {
  x: number;
  y: number;
  z: number;
  element: string;
}

/** A residue as the selection and contact calls name it: its chain, numbers and name ('LYS'). */
export interface NamedResidue {
  chain: string;
  author_number: number;
  insertion_code: string;
  uniprot_number: number | null;
  name: string;
}
