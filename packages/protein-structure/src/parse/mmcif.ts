// mmCIF categories a structure needs: _entry.id, _atom_site (first model; author chain, number and atom names,
// falling back to the label ones), _struct_ref + _struct_ref_seq (UniProt segments in author numbering) and
// _pdbx_struct_mod_residue (parents of modified residues). A polymer residue is one with a label_seq_id.
import { inputError } from '../errors.js';
import { parentAminoAcid } from '../model/residue-codes.js';
import { normalizeElement, StructureBuilder } from './builder.js';
import { type CifValue, readCif } from './cif-reader.js';

type Row = readonly CifValue[];

/** Field name → index, for one category's loop. */
function indexer(fields: readonly string[]) {
  const at = new Map(fields.map((f, i) => [f, i]));
  return (row: Row, ...names: string[]): CifValue => {
    for (const n of names) {
      const i = at.get(n);
      if (i !== undefined && row[i] !== null) return row[i]!;
    }
    return null;
  };
}

interface RefSeq {
  ref_id: string;
  chain: string;
  accession: string | null;
  begin: string | null;
  begin_ins: string | null;
  end: string | null;
  end_ins: string | null;
  db_begin: string | null;
  db_end: string | null;
  label_begin: string | null;
  label_end: string | null;
}

export function readMmcif(text: string, field: string): StructureBuilder {
  const b = new StructureBuilder('mmcif');
  const refs = new Map<string, { db: string | null; accession: string | null }>();
  const refSeqs: RefSeq[] = [];
  let model: string | null | undefined;
  let modelDone = false;
  let rowNo = 0;

  readCif(text, (category, fields) => {
    const get = indexer(fields);
    switch (category) {
      case 'entry':
        return {
          row: (r) => {
            b.id = b.id ?? get(r, 'id');
          },
        };
      case 'struct_ref':
        return {
          row: (r) => {
            const id = get(r, 'id');
            if (id !== null) refs.set(id, { db: get(r, 'db_name'), accession: get(r, 'pdbx_db_accession') });
          },
        };
      case 'struct_ref_seq':
        return {
          row: (r) =>
            void refSeqs.push({
              ref_id: get(r, 'ref_id') ?? '',
              chain: get(r, 'pdbx_strand_id') ?? '',
              accession: get(r, 'pdbx_db_accession'),
              begin: get(r, 'pdbx_auth_seq_align_beg', 'seq_align_beg'),
              begin_ins: get(r, 'pdbx_seq_align_beg_ins_code'),
              end: get(r, 'pdbx_auth_seq_align_end', 'seq_align_end'),
              end_ins: get(r, 'pdbx_seq_align_end_ins_code'),
              db_begin: get(r, 'db_align_beg'),
              db_end: get(r, 'db_align_end'),
              label_begin: get(r, 'seq_align_beg'),
              label_end: get(r, 'seq_align_end'),
            }),
        };
      case 'pdbx_struct_mod_residue':
        return {
          row: (r) => {
            const parent = get(r, 'parent_comp_id');
            const key = `${get(r, 'auth_asym_id')}|${get(r, 'auth_seq_id')}|${get(r, 'pdbx_pdb_ins_code') ?? ''}`;
            if (parent && parentAminoAcid(parent)) b.modifiedParents.set(key, parent);
          },
        };
      case 'atom_site':
        return {
          row: (r) => {
            rowNo++;
            if (modelDone) return;
            const m = get(r, 'pdbx_pdb_model_num');
            if (model === undefined) model = m;
            else if (m !== model) {
              modelDone = true; // first model only
              return;
            }
            const group = get(r, 'group_pdb');
            const hetero = group === 'HETATM';
            const name = get(r, 'auth_atom_id', 'label_atom_id') ?? '';
            const coord = (f: string) => {
              const v = Number(get(r, f));
              if (!Number.isFinite(v) || get(r, f) === null) {
                throw inputError(field, `_atom_site row ${rowNo}: ${f} "${get(r, f)}" is not a number`);
              }
              return v;
            };
            const seq = get(r, 'auth_seq_id', 'label_seq_id');
            if (seq === null || !/^-?\d+$/.test(seq)) {
              throw inputError(field, `_atom_site row ${rowNo}: the residue number "${seq}" is not an integer`);
            }
            const labelSeq = get(r, 'label_seq_id');
            b.add({
              hetero,
              polymer: labelSeq !== null,
              label_seq: labelSeq !== null && /^\d+$/.test(labelSeq) ? Number(labelSeq) : null,
              chain: get(r, 'auth_asym_id', 'label_asym_id') ?? '',
              residue_name: get(r, 'auth_comp_id', 'label_comp_id') ?? '',
              author_number: Number(seq),
              insertion_code: get(r, 'pdbx_pdb_ins_code') ?? '',
              atom: {
                name,
                element: normalizeElement(get(r, 'type_symbol') ?? '', name, hetero),
                x: coord('cartn_x'),
                y: coord('cartn_y'),
                z: coord('cartn_z'),
                altloc: get(r, 'label_alt_id') ?? '',
                occupancy: Number(get(r, 'occupancy') ?? 1) || 0,
                b_factor: Number(get(r, 'b_iso_or_equiv') ?? 0) || 0,
              },
            });
          },
        };
      default:
        return undefined;
    }
  });

  addUniprotMappings(b, refs, refSeqs);
  return b;
}

/** The UniProt segments (struct_ref_seq rows of a UNP struct_ref) with all four numbers, as the builder's mappings. */
function addUniprotMappings(
  b: StructureBuilder,
  refs: Map<string, { db: string | null; accession: string | null }>,
  refSeqs: RefSeq[],
): void {
  for (const s of refSeqs) {
    const ref = refs.get(s.ref_id);
    if (ref?.db !== 'UNP') continue;
    const nums = [s.begin, s.end, s.db_begin, s.db_end].map(toInt);
    if (nums.some((n) => n === null)) continue; // a segment without numbers maps nothing
    b.mappings.push({
      chain: s.chain,
      accession: s.accession ?? ref.accession ?? '',
      author_begin: nums[0]!,
      author_begin_insertion: s.begin_ins ?? '',
      author_end: nums[1]!,
      author_end_insertion: s.end_ins ?? '',
      uniprot_begin: nums[2]!,
      uniprot_end: nums[3]!,
      label_begin: toInt(s.label_begin),
      label_end: toInt(s.label_end),
    });
  }
}

const toInt = (v: string | null): number | null => (v !== null && /^-?\d+$/.test(v) ? Number(v) : null);
