// UniProt numbering of a chain's residues. Within a mapping segment the offset is constant (DBREF and
// _struct_ref_seq describe ungapped stretches): uniprot = uniprot_begin + (author − author_begin). A chain with
// no UniProt segment at all is taken to be numbered as UniProt already (AlphaFold DB models carry UniProt
// numbering as their author numbering and, from some sources, no DBREF).
import type { Chain, MappingSegment, Residue, Structure } from '../model/types.js';

export interface ChainNumbering {
  /** 'mapped': by segments; 'identity': author numbers are UniProt numbers; 'none': no UniProt numbering known. */
  kind: 'mapped' | 'identity' | 'none';
  segments: MappingSegment[];
  /** Why the kind is 'none' (the chain maps to other accessions). */
  note?: string;
}

export function chainNumbering(structure: Structure, chain: Chain, uniprot?: string): ChainNumbering {
  const segments = structure.mappings.filter((m) => m.chain === chain.id);
  if (segments.length === 0) return { kind: 'identity', segments };
  if (!uniprot) return { kind: 'mapped', segments };
  const acc = uniprot.toUpperCase();
  const matching = segments.filter((m) => m.accession.toUpperCase() === acc);
  if (matching.length) return { kind: 'mapped', segments: matching };
  const others = [...new Set(segments.map((m) => m.accession))].join(', ');
  return {
    kind: 'none',
    segments: [],
    note: `chain ${chain.id} is mapped to ${others}, not ${uniprot}: its UniProt numbering for ${uniprot} is unknown`,
  };
}

/** The residue's UniProt number, null when unmapped (outside every segment, or carrying an insertion code). */
export function uniprotNumber(numbering: ChainNumbering, residue: Residue): number | null {
  if (residue.insertion_code) return null; // an inserted residue breaks the constant offset
  const n = residue.author_number;
  if (numbering.kind === 'identity') return n;
  for (const s of numbering.segments) {
    if (n >= s.author_begin && n <= s.author_end) {
      const u = s.uniprot_begin + (n - s.author_begin);
      return u <= s.uniprot_end ? u : null;
    }
  }
  return null;
}

/** The author number a UniProt number falls on, null when no segment covers it. */
export function authorNumberOf(numbering: ChainNumbering, uniprot: number): number | null {
  if (numbering.kind === 'identity') return uniprot;
  for (const s of numbering.segments) {
    if (uniprot >= s.uniprot_begin && uniprot <= s.uniprot_end) {
      const a = s.author_begin + (uniprot - s.uniprot_begin);
      return a <= s.author_end ? a : null;
    }
  }
  return null;
}

/** `K721` in UniProt numbering where the residue is mapped, in author numbering (with insertion code) otherwise. */
export function residueLabel(numbering: ChainNumbering, residue: Residue): string {
  const u = uniprotNumber(numbering, residue);
  return u !== null
    ? `${residue.one_letter}${u}`
    : `${residue.one_letter}${residue.author_number}${residue.insertion_code}`;
}
