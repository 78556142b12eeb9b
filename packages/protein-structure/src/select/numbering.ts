// UniProt numbering of a chain's residues. A mapping segment is an ungapped alignment of the entity's sequence
// to UniProt, so the offset is constant in sequence positions (mmCIF label_seq_id; for PDB files, positions
// from SEQRES and REMARK 465 when they agree with the model): residues with a position are mapped by it, exactly.
// Otherwise a segment whose author and UniProt spans have the same length maps by
// uniprot = uniprot_begin + (author − author_begin); one whose spans differ (author numbering that jumps, as in
// 3SN6's Gαs) maps nothing, and a note says so.
// A chain with no UniProt segment at all is taken to be numbered as UniProt already (AlphaFold DB models carry
// UniProt numbering as their author numbering and, from some sources, no DBREF).
import type { Chain, MappingSegment, Residue, Structure } from '../model/types.js';

export interface ChainNumbering {
  /** 'mapped': by segments; 'identity': author numbers are UniProt numbers; 'none': no UniProt numbering known. */
  kind: 'mapped' | 'identity' | 'none';
  segments: MappingSegment[];
  /** What the caller should know about the numbering (another accession, a segment that cannot be mapped). */
  note?: string;
}

const byLabel = (s: MappingSegment) => s.label_begin !== null && s.label_end !== null;
const constantAuthorOffset = (s: MappingSegment) =>
  s.author_end - s.author_begin === s.uniprot_end - s.uniprot_begin &&
  !s.author_begin_insertion &&
  !s.author_end_insertion;

export function chainNumbering(structure: Structure, chain: Chain, uniprot?: string): ChainNumbering {
  const all = structure.mappings.filter((m) => m.chain === chain.id);
  if (all.length === 0) return { kind: 'identity', segments: all };
  let segments = all;
  if (uniprot) {
    const acc = uniprot.toUpperCase();
    segments = all.filter((m) => m.accession.toUpperCase() === acc);
    if (segments.length === 0) {
      const others = [...new Set(all.map((m) => m.accession))].join(', ');
      return {
        kind: 'none',
        segments,
        note: `chain ${chain.id} is mapped to ${others}, not ${uniprot}: its UniProt numbering for ${uniprot} is unknown`,
      };
    }
  }
  const unmappable = segments.filter((s) => !byLabel(s) && !constantAuthorOffset(s));
  const note = unmappable.length
    ? unmappable
        .map(
          (s) =>
            `the UniProt segment of chain ${chain.id} author ${s.author_begin}–${s.author_end} ↔ ${s.accession} ` +
            `${s.uniprot_begin}–${s.uniprot_end} has no constant author-number offset and the file gives no ` +
            'sequence positions (mmCIF label_seq_id, or PDB SEQRES with REMARK 465): its residues get no UniProt number',
        )
        .join('; ')
    : undefined;
  return note ? { kind: 'mapped', segments, note } : { kind: 'mapped', segments };
}

/** The residue's UniProt number, null when no segment maps it. */
export function uniprotNumber(numbering: ChainNumbering, residue: Residue): number | null {
  const n = residue.author_number;
  if (numbering.kind === 'identity') return residue.insertion_code ? null : n;
  for (const s of numbering.segments) {
    if (byLabel(s) && residue.label_seq !== null) {
      if (residue.label_seq >= s.label_begin! && residue.label_seq <= s.label_end!) {
        const u = s.uniprot_begin + (residue.label_seq - s.label_begin!);
        return u <= s.uniprot_end ? u : null;
      }
      continue;
    }
    // By author number: an inserted residue breaks the constant offset.
    if (!constantAuthorOffset(s) || residue.insertion_code) continue;
    if (n >= s.author_begin && n <= s.author_end) return s.uniprot_begin + (n - s.author_begin);
  }
  return null;
}

/** Whether a segment (or the identity numbering) covers a UniProt number, modelled or not. */
export function coversUniprot(numbering: ChainNumbering, uniprot: number): boolean {
  if (numbering.kind === 'identity') return true;
  return numbering.segments.some((s) => uniprot >= s.uniprot_begin && uniprot <= s.uniprot_end);
}

/** The author number a UniProt number falls on, by a constant author offset; null when unknown. */
export function authorNumberOf(numbering: ChainNumbering, uniprot: number): number | null {
  if (numbering.kind === 'identity') return uniprot;
  for (const s of numbering.segments) {
    if (uniprot >= s.uniprot_begin && uniprot <= s.uniprot_end && constantAuthorOffset(s)) {
      return s.author_begin + (uniprot - s.uniprot_begin);
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
