// Sequence positions for PDB files, which carry author numbers only. SEQRES lists a chain's whole sequence and
// REMARK 465 the residues missing from the model; merged in author order with the modelled residues they should
// give SEQRES exactly. When they do, every residue gets its position (mmCIF's label_seq_id) and each DBREF segment
// its position span, so UniProt numbering works as in mmCIF even where author numbers jump. When they do not
// (no REMARK 465, a name that differs), nothing is assigned and mapping falls back to author offsets.
import type { MappingSegment } from '../model/types.js';
import type { AtomRecord } from './builder.js';

export interface MissingResidue {
  name: string;
  author_number: number;
  insertion_code: string;
}

interface Slot {
  name: string;
  author_number: number;
  insertion_code: string;
}

const keyOf = (r: { author_number: number; insertion_code: string }) => `${r.author_number}|${r.insertion_code}`;
const before = (a: Slot, b: Slot) =>
  a.author_number !== b.author_number ? a.author_number < b.author_number : a.insertion_code < b.insertion_code;

export function assignSequencePositions(
  records: AtomRecord[],
  seqres: Map<string, string[]>,
  missing: Map<string, MissingResidue[]>,
  mappings: MappingSegment[],
): void {
  const modelled = new Map<string, Slot[]>();
  const seen = new Set<string>();
  for (const r of records) {
    if (!r.polymer) continue;
    const key = `${r.chain}|${keyOf(r)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const list = modelled.get(r.chain) ?? [];
    modelled.set(r.chain, list);
    list.push({ name: r.residue_name, author_number: r.author_number, insertion_code: r.insertion_code });
  }
  for (const [chain, residues] of modelled) {
    const positions = merge(residues, missing.get(chain) ?? [], seqres.get(chain));
    if (!positions) continue;
    for (const r of records) {
      if (r.polymer && r.chain === chain) r.label_seq = positions.get(keyOf(r)) ?? null;
    }
    for (const m of mappings) {
      if (m.chain !== chain) continue;
      const begin = positions.get(`${m.author_begin}|${m.author_begin_insertion}`);
      const end = positions.get(`${m.author_end}|${m.author_end_insertion}`);
      if (begin !== undefined && end !== undefined && end - begin === m.uniprot_end - m.uniprot_begin) {
        m.label_begin = begin;
        m.label_end = end;
      }
    }
  }
}

/** Author key → 1-based SEQRES position, or undefined when the merge does not reproduce SEQRES. */
function merge(
  modelled: Slot[],
  missing: MissingResidue[],
  seqres: string[] | undefined,
): Map<string, number> | undefined {
  if (!seqres || modelled.length + missing.length !== seqres.length) return undefined;
  const positions = new Map<string, number>();
  let i = 0;
  let j = 0;
  for (let p = 0; p < seqres.length; p++) {
    const a = modelled[i];
    const b = missing[j];
    const next = a && (!b || before(a, b)) ? modelled[i++]! : missing[j++]!;
    if (next.name !== seqres[p] || positions.has(keyOf(next))) return undefined;
    positions.set(keyOf(next), p + 1);
  }
  return positions;
}
