// Both readers hand atom records to one builder, so the two formats cannot disagree on what a residue, a chain,
// a het group or the kept alternate location is.
import { oneLetter, parentAminoAcid } from '../model/residue-codes.js';
import type { Atom, Chain, HetGroup, MappingSegment, Residue, Structure, StructureFormat } from '../model/types.js';

export interface AtomRecord {
  /** Written as HETATM. */
  hetero: boolean;
  /** Part of the polymer: decided by the reader (mmCIF label_seq_id, PDB ATOM/MODRES). */
  polymer: boolean;
  chain: string;
  residue_name: string;
  author_number: number;
  insertion_code: string;
  label_seq: number | null;
  atom: Atom;
}

interface Group {
  polymer: boolean;
  chain: string;
  name: string;
  author_number: number;
  insertion_code: string;
  hetero: boolean;
  label_seq: number | null;
  /** The first non-blank altloc seen; atoms of other altlocs are dropped. */
  altloc: string;
  atoms: Atom[];
  names: Set<string>;
}

export class StructureBuilder {
  private readonly groups = new Map<string, Group>();
  private readonly chainOrder: string[] = [];
  readonly mappings: MappingSegment[] = [];
  /** `chain|number|icode` → the standard parent a MODRES-like record gives. */
  readonly modifiedParents = new Map<string, string>();
  id: string | null = null;
  atomCount = 0;

  constructor(private readonly format: StructureFormat) {}

  add(r: AtomRecord): void {
    this.atomCount++;
    const key = `${r.polymer ? 'p' : 'h'}|${r.chain}|${r.author_number}|${r.insertion_code}`;
    let g = this.groups.get(key);
    if (!g) {
      g = {
        polymer: r.polymer,
        chain: r.chain,
        name: r.residue_name,
        author_number: r.author_number,
        insertion_code: r.insertion_code,
        hetero: r.hetero,
        label_seq: r.label_seq,
        altloc: '',
        atoms: [],
        names: new Set(),
      };
      this.groups.set(key, g);
      if (r.polymer && !this.chainOrder.includes(r.chain)) this.chainOrder.push(r.chain);
    }
    const alt = r.atom.altloc;
    if (alt) {
      if (!g.altloc) g.altloc = alt;
      else if (alt !== g.altloc) return;
    }
    // A blank-altloc duplicate of an atom name, or a second conformer named differently: keep the first.
    if (g.names.has(r.atom.name) || (alt && r.residue_name !== g.name)) return;
    g.names.add(r.atom.name);
    g.atoms.push(r.atom);
  }

  build(): Structure {
    const chains = new Map<string, Chain>(this.chainOrder.map((id) => [id, { id, residues: [], protein: false }]));
    const hetGroups: HetGroup[] = [];
    for (const g of this.groups.values()) {
      if (!g.polymer) {
        const { name, chain, author_number, insertion_code, atoms } = g;
        hetGroups.push({ name, chain, author_number, insertion_code, atoms });
        continue;
      }
      const parent = this.modifiedParents.get(`${g.chain}|${g.author_number}|${g.insertion_code}`);
      const residue: Residue = {
        author_number: g.author_number,
        insertion_code: g.insertion_code,
        label_seq: g.label_seq,
        name: g.name,
        one_letter: oneLetter(g.name, parent),
        amino_acid: parentAminoAcid(g.name, parent) !== undefined && g.names.has('CA'),
        hetero: g.hetero,
        atoms: g.atoms,
      };
      const chain = chains.get(g.chain)!;
      chain.residues.push(residue);
      if (residue.amino_acid) chain.protein = true;
    }
    return {
      id: this.id,
      format: this.format,
      chains: [...chains.values()],
      het_groups: hetGroups,
      mappings: this.mappings,
    };
  }
}

const TWO_LETTER = new Set(['FE', 'ZN', 'MG', 'MN', 'CL', 'BR', 'NA', 'CU', 'CO', 'NI', 'SE', 'HG', 'CD', 'LI', 'AL']);

/** 'FE' → 'Fe'; a blank element is guessed from the atom name (the element column is optional in old files). */
export function normalizeElement(element: string, atomName: string, hetero: boolean): string {
  let e = element.trim().replace(/[^A-Za-z]/g, '');
  if (!e) {
    const letters = atomName.trim().replace(/[^A-Za-z]/g, '');
    const two = letters.slice(0, 2).toUpperCase();
    e = hetero && TWO_LETTER.has(two) && letters.length === 2 ? two : letters.slice(0, 1);
  }
  return e.length > 1 ? e[0]!.toUpperCase() + e.slice(1).toLowerCase() : e.toUpperCase();
}
