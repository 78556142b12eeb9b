// Co-crystallised ligands: the het groups left once water, single ions, crystallisation additives, glycans,
// detergents and modified residues of the polymer are set aside. The lists name what crystallographers add or
// what grows on the protein, not what binds the pocket; a caller can force a name in or out.
import { inputError } from '../errors.js';
import { MODIFIED_RESIDUES, WATER_NAMES } from '../model/residue-codes.js';
import { ContactIndex } from '../contacts/contacts.js';
import { centroid, isHeavy } from '../model/atoms.js';
import type { Chain, HetGroup, Structure, Vec3 } from '../model/types.js';

/** Buffers, salts, cryoprotectants and precipitants (polyatomic; single atoms are dropped as ions anyway). */
export const ADDITIVES: readonly string[] = (
  'SO4 PO4 NO3 CO3 BCT SCN AZI NH4 ACT ACY ACE FMT GOL EDO PEG PGE PG4 1PE P6G PE4 PE8 2PE MPD MRD ' +
  'DMS DMF TRS EPE MES BME DTT IPA EOH MOH IMD CIT FLC TAR TLA MLI MLA MAL SUC TRE BTB B3P ' +
  'CAC IOD BU3 PDO NHE CXS MLT SIN POP 2HP PI ACN URE GAI UNX UNL UNK'
).split(' ');

/** Detergents and lipid anchors of membrane-protein crystals (palmitoylation, lipidic cubic phase). */
export const DETERGENTS_AND_LIPIDS: readonly string[] =
  'BOG LDA LMT LMU DDM C8E HTG SOG OLC OLA OLB PLM MYR Y01 CPS DMU UMQ LFA D10 D12 HEX OCT PEF PGW'.split(' ');

/** Sugars of N- and O-glycans. */
export const GLYCANS: readonly string[] = 'NAG NDG BMA MAN FUC FUL GAL GLA SIA XYP BGC GLC'.split(' ');

const EXCLUDED = new Set([...ADDITIVES, ...DETERGENTS_AND_LIPIDS, ...GLYCANS]);

export interface Ligand {
  /** `ANP A 1` (name, chain, author number and insertion code): unique within a structure. */
  id: string;
  name: string;
  chain: string;
  author_number: number;
  insertion_code: string;
  atom_count: number;
  heavy_atom_count: number;
  /** Mean of the heavy atoms' coordinates (Å). */
  centroid: Vec3;
}

export interface LigandOptions {
  /** Names to treat as ligands even when a list excludes them. */
  include?: readonly string[];
  /** More names to leave out. */
  exclude?: readonly string[];
  /** Only ligands with a heavy atom within 4 Å of this chain (a ligand's own chain id need not be its site's). */
  near?: Chain | string;
}

/** Plausible co-crystallised ligands, the most heavy atoms first (file order among equals). */
export function ligands(structure: Structure, options: LigandOptions = {}): Ligand[] {
  const include = new Set((options.include ?? []).map((n) => n.toUpperCase()));
  const exclude = new Set((options.exclude ?? []).map((n) => n.toUpperCase()));
  const index = options.near === undefined ? undefined : new ContactIndex(structure, options.near, { cutoff: 4 });
  const out: Ligand[] = [];
  for (const g of structure.het_groups) {
    const heavy = g.atoms.filter((a) => isHeavy(a.element));
    if (!include.has(g.name)) {
      if (WATER_NAMES.has(g.name) || heavy.length <= 1) continue;
      if (EXCLUDED.has(g.name) || MODIFIED_RESIDUES.has(g.name) || exclude.has(g.name)) continue;
    }
    if (heavy.length === 0) continue;
    if (index && index.contacts(heavy).length === 0) continue;
    out.push({
      id: ligandId(g),
      name: g.name,
      chain: g.chain,
      author_number: g.author_number,
      insertion_code: g.insertion_code,
      atom_count: g.atoms.length,
      heavy_atom_count: heavy.length,
      centroid: centroid(heavy),
    });
  }
  return out.sort((a, b) => b.heavy_atom_count - a.heavy_atom_count);
}

export function ligandId(g: { name: string; chain: string; author_number: number; insertion_code: string }): string {
  return `${g.name} ${g.chain} ${g.author_number}${g.insertion_code}`;
}

/**
 * The het group a ligand reference names: a Ligand, its id (`ANP A 1`), or a bare name (`ANP`, the first group
 * of that name). Unknown → error naming `field`.
 */
export function findHetGroup(structure: Structure, ligand: Ligand | string, field = 'ligand'): HetGroup {
  const ref = typeof ligand === 'string' ? ligand.trim() : ligand.id;
  const group =
    structure.het_groups.find((g) => ligandId(g) === ref) ??
    structure.het_groups.find((g) => g.name === ref.toUpperCase());
  if (!group) {
    const known = ligands(structure).map((l) => l.id);
    throw inputError(
      field,
      `no het group ${JSON.stringify(ref)} in the structure; ligands: ${known.join(', ') || 'none'}`,
    );
  }
  return group;
}
