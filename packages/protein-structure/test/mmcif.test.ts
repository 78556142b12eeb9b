import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseStructure, receptorPdb, resolveResidues } from '@evident/protein-structure';
import { thrown } from './fixtures.js';

// A small hand-written mmCIF: a chain of four residues whose author numbers jump (1, 2, 10, 11) while the
// sequence runs on (label_seq_id 1–4), aligned to UniProt 101–104 as 3SN6's Gαs chain is; CIF syntax the
// reader must handle (quotes inside quoted values, a ;-text field, comments, `.` and `?`); a second model and a
// second data block that must be ignored; a modified residue named in _pdbx_struct_mod_residue.
const CIF = `data_TEST
# a comment
_entry.id   1XYZ
_struct.title
;A title on its own
lines; with 'quotes'
;
_struct_keywords.text "it's 'quoted' here"
loop_
_struct_ref.id
_struct_ref.db_name
_struct_ref.pdbx_db_accession
1 UNP P99999
loop_
_struct_ref_seq.align_id
_struct_ref_seq.ref_id
_struct_ref_seq.pdbx_strand_id
_struct_ref_seq.seq_align_beg
_struct_ref_seq.seq_align_end
_struct_ref_seq.pdbx_db_accession
_struct_ref_seq.db_align_beg
_struct_ref_seq.db_align_end
_struct_ref_seq.pdbx_auth_seq_align_beg
_struct_ref_seq.pdbx_auth_seq_align_end
1 1 A 1 4 P99999 101 104 1 11
loop_
_pdbx_struct_mod_residue.auth_asym_id
_pdbx_struct_mod_residue.auth_seq_id
_pdbx_struct_mod_residue.PDB_ins_code
_pdbx_struct_mod_residue.parent_comp_id
A 11 ? TYR
loop_
_atom_site.group_PDB
_atom_site.type_symbol
_atom_site.label_atom_id
_atom_site.label_alt_id
_atom_site.label_comp_id
_atom_site.label_asym_id
_atom_site.label_seq_id
_atom_site.pdbx_PDB_ins_code
_atom_site.Cartn_x
_atom_site.Cartn_y
_atom_site.Cartn_z
_atom_site.auth_seq_id
_atom_site.auth_asym_id
_atom_site.pdbx_PDB_model_num
ATOM   N N   . LYS A 1 ? 1.0 2.0 3.0 1  A 1
ATOM   C CA  . LYS A 1 ? 2.0 2.0 3.0 1  A 1
ATOM   C CA  A GLY A 2 ? 3.0 2.0 3.0 2  A 1
ATOM   C CA  B GLY A 2 ? 3.5 2.0 3.0 2  A 1
ATOM   C CA  . THR A 3 ? 4.0 2.0 3.0 10 A 1
HETATM C CA  . "X'Y" A 4 ? 5.0 2.0 3.0 11 A 1
HETATM C C1  . LIG B . ? 9.0 9.0 9.0 500 A 1
HETATM O O   . HOH C . ? 7.0 7.0 7.0 600 A 1
ATOM   C CA  . LYS A 1 ? 99.0 2.0 3.0 1  A 2
#
data_SECOND
_entry.id 2XYZ
`;

describe('mmCIF reading', () => {
  const s = parseStructure(CIF);

  it('reads the first model of the first block, first altloc, quoted component ids', () => {
    assert.equal(s.id, '1XYZ');
    assert.equal(s.format, 'mmcif');
    const a = s.chains[0]!;
    assert.deepEqual(
      a.residues.map((r) => [r.name, r.author_number, r.label_seq, r.one_letter, r.atoms.length]),
      [
        ['LYS', 1, 1, 'K', 2],
        ['GLY', 2, 2, 'G', 1],
        ['THR', 10, 3, 'T', 1],
        ["X'Y", 11, 4, 'Y', 1],
      ],
    );
    assert.equal(a.residues[0]!.atoms[0]!.x, 1); // not model 2's 99.0
    assert.equal(a.residues[1]!.atoms[0]!.x, 3); // altloc A, not B
    assert.deepEqual(
      s.het_groups.map((g) => [g.name, g.author_number]),
      [
        ['LIG', 500],
        ['HOH', 600],
      ],
    );
  });

  it('maps by label_seq_id where author numbers jump', () => {
    const r = resolveResidues(s, 'A', ['T103', 'Y104', 'K101'], { uniprot: 'P99999' });
    assert.deepEqual(
      r.residues.map((x) => [x.author_number, x.uniprot_number, x.numbering]),
      [
        [10, 103, 'uniprot'],
        [11, 104, 'uniprot'],
        [1, 101, 'uniprot'],
      ],
    );
    assert.deepEqual(r.warnings, []);
  });

  it('maps nothing from the same chain as a PDB file with its DBREF, and says why', () => {
    const dbref = 'DBREF  1XYZ A    1    11  UNP    P99999   TEST_HUMAN     101    104';
    const pdb = parseStructure(`${dbref}\n${receptorPdb(s, 'A')}`);
    const r = resolveResidues(pdb, 'A', ['T10'], { uniprot: 'P99999' });
    assert.equal(r.residues[0]!.uniprot_number, null);
    assert.match(r.warnings[0]!, /author 1–11 ↔ P99999 101–104 has no constant author-number offset/);
    assert.match(r.warnings[1]!, /T10 matches the structure's author numbering \(no UniProt equivalent\)/);
  });

  it('maps the same chain from a PDB file by SEQRES and REMARK 465 positions', () => {
    // The same four residues, plus an unmodelled ALA 0 before them, written as PDB with the records that give
    // sequence positions: SEQRES (ALA LYS GLY THR TYR) and REMARK 465 (ALA A 0).
    const dbref = 'DBREF  1XYZ A    0    11  UNP    P99999   TEST_HUMAN     100    104';
    const seqres = 'SEQRES   1 A    5  ALA LYS GLY THR TYR';
    const remark = ['REMARK 465   M RES C SSSEQI', 'REMARK 465     ALA A     0'];
    const atoms = receptorPdb(s, 'A').replace(/HETATM(.*)X'Y/, 'ATOM  $1TYR');
    const pdb = parseStructure([dbref, seqres, ...remark, atoms].join('\n'));
    assert.deepEqual(
      pdb.chains[0]!.residues.map((r) => r.label_seq),
      [2, 3, 4, 5],
    );
    const r = resolveResidues(pdb, 'A', ['K101', 'T103', 'Y104'], { uniprot: 'P99999' });
    assert.deepEqual(
      r.residues.map((x) => [x.author_number, x.numbering]),
      [
        [1, 'uniprot'],
        [10, 'uniprot'],
        [11, 'uniprot'],
      ],
    );
    assert.deepEqual(r.warnings, []);
    // SEQRES that disagrees with the residues (a wrong name) assigns no positions: back to author offsets.
    const wrong = parseStructure([dbref, seqres.replace('GLY', 'SER'), ...remark, atoms].join('\n'));
    assert.deepEqual(
      wrong.chains[0]!.residues.map((x) => x.label_seq),
      [null, null, null, null],
    );
  });

  it('rejects malformed CIF with the reason', () => {
    const bad = (text: string) => thrown(() => parseStructure(text)).problems[0]!.message;
    assert.match(bad('data_X\nloop_\n_atom_site.id\n_atom_site.type_symbol\n1\n'), /not a multiple of its fields/);
    assert.match(bad('data_X\n_struct.title\n;never closed\n'), /text field is never closed/);
    assert.match(bad('data_X\n_entry.id 1ABC\n'), /holds no atom records/);
  });
});
