// @evident/protein-structure: protein structures read from PDB or mmCIF text, and what docking needs from
// them. Pure: no network, no files, no subprocess. See README.md.
export type {
  Atom,
  Chain,
  HetGroup,
  MappingSegment,
  PointAtom,
  Residue,
  Structure,
  StructureFormat,
  Vec3,
} from './model/types.js';
export { MAX_STRUCTURE_CHARS, type ParseOptions, detectFormat, parseStructure } from './parse/parse-structure.js';
export { type SelectChainOptions, chainOf, selectChain, sequence } from './select/chain.js';
export { type ChainNumbering, chainNumbering, residueLabel, uniprotNumber } from './select/numbering.js';
export {
  MAX_LABELS,
  type ResolvedResidue,
  type ResolveOptions,
  type ResolveResult,
  resolveResidues,
} from './select/residues.js';
export {
  ADDITIVES,
  DETERGENTS_AND_LIPIDS,
  GLYCANS,
  type Ligand,
  type LigandOptions,
  findHetGroup,
  ligands,
} from './ligands/ligands.js';
export { MODIFIED_RESIDUES } from './model/residue-codes.js';
export {
  DEFAULT_MARGIN,
  MAX_MARGIN,
  MAX_POCKET_EDGE,
  MIN_POCKET_EDGE,
  type Pocket,
  type PocketOptions,
  type ResidueRef,
  checkPocket,
  inPocket,
  pocketFromLigand,
  pocketFromResidues,
  pocketResidues,
} from './pocket/pocket.js';
export { ligandPdb, receptorPdb } from './write/pdb-writer.js';
export {
  type ContactOptions,
  type ResidueContact,
  ContactIndex,
  contactResidues,
  DEFAULT_CONTACT_CUTOFF,
} from './contacts/contacts.js';
export { PROTEIN_STRUCTURE_ERRORS } from './errors.js';
