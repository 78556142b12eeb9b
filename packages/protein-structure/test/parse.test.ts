import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  chainNumbering,
  MAX_STRUCTURE_CHARS,
  parseStructure,
  selectChain,
  sequence,
  uniprotNumber,
} from '@evident/protein-structure';
import { fixture, fixtureText, records, thrown } from './fixtures.js';

describe('parseStructure on 2SRC (PDB)', () => {
  const s = fixture('2src.pdb');

  it('reads the entry id, one protein chain and its UniProt segment', () => {
    assert.equal(s.id, '2SRC');
    assert.equal(s.format, 'pdb');
    assert.deepEqual(
      s.chains.map((c) => c.id),
      ['A'],
    );
    // DBREF  2SRC A   83   533  UNP    P12931   SRC_HUMAN       85    535
    assert.deepEqual(s.mappings, [
      {
        chain: 'A',
        accession: 'P12931',
        author_begin: 83,
        author_begin_insertion: '',
        author_end: 533,
        author_end_insertion: '',
        uniprot_begin: 85,
        uniprot_end: 535,
        // SEQRES A holds 452 residues starting MET VAL THR; REMARK 465 lists MET 82 and VAL 83 as missing, so
        // author 83 is sequence position 2 and author 533 position 452.
        label_begin: 2,
        label_end: 452,
      },
    ]);
  });

  it('holds the modelled residues 84–533 with the phosphotyrosine in the chain', () => {
    const a = s.chains[0]!;
    // awk over ATOM records plus the HETATM PTR: 450 distinct residue numbers, first THR 84, last LEU 533.
    assert.equal(a.residues.length, 450);
    assert.equal(a.residues[0]!.author_number, 84);
    assert.equal(a.residues[0]!.name, 'THR');
    assert.equal(a.residues[0]!.label_seq, 3);
    assert.equal(a.residues.at(-1)!.label_seq, 452);
    assert.equal(a.residues.at(-1)!.author_number, 533);
    const ptr = a.residues.find((r) => r.author_number === 527)!;
    // MODRES 2SRC PTR A  527  TYR  O-PHOSPHOTYROSINE; HET PTR A 527 16 atoms.
    assert.equal(ptr.name, 'PTR');
    assert.equal(ptr.one_letter, 'Y');
    assert.equal(ptr.hetero, true);
    assert.equal(ptr.atoms.length, 16);
    // SEQRES 1 A starts MET VAL THR THR PHE...; residues 82 and 83 are in REMARK 465, so the model starts at T84.
    assert.ok(sequence(s, 'A').startsWith('TTFVALYDYESRTETDLSFKKGERLQIVNNTEGDWWLA'));
    // Residues 335-346 read from the ATOM records: TYR ILE VAL THR GLU TYR MET SER LYS GLY SER LEU.
    const seq = a.residues.filter((r) => r.author_number >= 335 && r.author_number <= 346).map((r) => r.one_letter);
    assert.equal(seq.join(''), 'YIVTEYMSKGSL');
  });

  it('keeps ANP and waters as het groups with their atoms', () => {
    const anp = s.het_groups.filter((g) => g.name === 'ANP');
    assert.equal(anp.length, 1);
    assert.equal(anp[0]!.atoms.length, 31); // HET    ANP  A   1      31
    assert.equal(s.het_groups.filter((g) => g.name === 'HOH').length, 269);
    const pg = anp[0]!.atoms[0]!;
    // HETATM ... PG  ANP A   1      10.853  19.115  59.704  1.00 86.11           P
    assert.deepEqual([pg.name, pg.element, pg.x, pg.y, pg.z], ['PG', 'P', 10.853, 19.115, 59.704]);
  });
});

describe('parseStructure: alternate locations and models', () => {
  it('keeps the first alternate location of 3PQR GLN A 64 and drops the B conformer', () => {
    const s = fixture('3pqr.pdb');
    const gln = s.chains[0]!.residues.find((r) => r.author_number === 64)!;
    // ATOM 512  N  AGLN A 64  -23.807 11.753 39.406 0.50; ATOM 513 N BGLN A 64 -23.839 ...
    const n = gln.atoms.find((a) => a.name === 'N')!;
    assert.deepEqual([n.x, n.y, n.z, n.altloc], [-23.807, 11.753, 39.406, 'A']);
    assert.equal(gln.atoms.filter((a) => a.name === 'N').length, 1);
    assert.equal(gln.atoms.length, 9); // 9 A-conformer atoms, 9 B-conformer atoms in the file
    // Chain A ATOM records with a blank or A altloc: 2592 (of 2615).
    const kept = s.chains[0]!.residues.filter((r) => !r.hetero).reduce((t, r) => t + r.atoms.length, 0);
    assert.equal(kept, 2592);
  });

  it('reads the first model only', () => {
    const atom = (serial: number, x: string) =>
      `ATOM  ${String(serial).padStart(5)}  CA  GLY A   1    ${x}   0.000   0.000  1.00  0.00           C`;
    const text = ['MODEL        1', atom(1, '  1.000'), 'ENDMDL', 'MODEL        2', atom(1, '  9.000'), 'ENDMDL'].join(
      '\n',
    );
    const s = parseStructure(text);
    assert.equal(s.chains[0]!.residues.length, 1);
    assert.equal(s.chains[0]!.residues[0]!.atoms[0]!.x, 1);
  });

  it('reads DBREF1/DBREF2 pairs and leaves non-UniProt references out', () => {
    const lines = [
      'DBREF1 1ABC A    1   100  UNP                  EGFR_HUMAN',
      'DBREF2 1ABC A     P00533                            695         794',
      'DBREF  1ABC B    1    10  PDB    1ABC     1ABC             1     10',
      'ATOM      1  CA  GLY A   1       1.000   0.000   0.000  1.00  0.00           C',
    ];
    const s = parseStructure(lines.join('\n'));
    assert.deepEqual(s.mappings, [
      {
        chain: 'A',
        author_begin: 1,
        author_begin_insertion: '',
        author_end: 100,
        author_end_insertion: '',
        accession: 'P00533',
        uniprot_begin: 695,
        uniprot_end: 794,
        label_begin: null,
        label_end: null,
      },
    ]);
  });
});

describe('parseStructure: the same entry as PDB and as mmCIF', () => {
  const pdb = fixture('3pqr.pdb');
  const cif = fixture('3PQR.cif');

  it('detects each format', () => {
    assert.equal(pdb.format, 'pdb');
    assert.equal(cif.format, 'mmcif');
    assert.equal(cif.id, '3PQR');
  });

  it('gives the same chains, residues, atoms, coordinates, het groups and mapping', () => {
    // The PDB reader's sequence positions (SEQRES with REMARK 465) equal mmCIF's label_seq_id.
    assert.deepEqual(cif.mappings, pdb.mappings);
    assert.deepEqual(
      cif.mappings.map((m) => [m.chain, m.label_begin, m.label_end]),
      [
        ['A', 1, 348],
        ['B', 1, 11],
      ],
    );
    assert.deepEqual(
      cif.chains.map((c) => [c.id, c.protein, c.residues.length]),
      pdb.chains.map((c) => [c.id, c.protein, c.residues.length]),
    );
    for (let ci = 0; ci < pdb.chains.length; ci++) {
      const a = pdb.chains[ci]!.residues;
      const b = cif.chains[ci]!.residues;
      const strip = (r: (typeof a)[number]) => ({
        ...r,
        atoms: r.atoms.map((x) => [x.name, x.element, x.x, x.y, x.z]),
      });
      for (let i = 0; i < a.length; i++) {
        assert.deepEqual(strip(b[i]!), strip(a[i]!), `chain ${pdb.chains[ci]!.id} residue ${a[i]!.author_number}`);
      }
      // Both formats give every residue the same UniProt number (mmCIF by label_seq_id, PDB by author offset).
      const numbers = (s: typeof pdb) =>
        s.chains[ci]!.residues.map((r) => uniprotNumber(chainNumbering(s, s.chains[ci]!), r));
      assert.deepEqual(numbers(cif), numbers(pdb));
    }
    const hets = (s: typeof pdb) =>
      s.het_groups.map((g) => `${g.name} ${g.chain} ${g.author_number} ${g.atoms.length}`).sort();
    assert.deepEqual(hets(cif), hets(pdb));
    assert.equal(sequence(cif, selectChain(cif)), sequence(pdb, selectChain(pdb)));
  });

  it('agrees with the file: 3PQR chain A holds rhodopsin 1–326 (REMARK 465 lists 327–348 as missing)', () => {
    const a = pdb.chains.find((c) => c.id === 'A')!;
    assert.equal(a.residues[0]!.author_number, 1);
    assert.equal(a.residues.at(-1)!.author_number, 326);
    assert.equal(a.residues.length, 326);
    // SEQRES of chain A begins MET ASN GLY THR GLU GLY PRO ASN PHE TYR; struct_ref gives MNGTEGPNFY too.
    assert.ok(sequence(pdb, a).startsWith('MNGTEGPNFY'));
  });
});

describe('parseStructure: line endings', () => {
  it('reads CRLF files as LF ones', () => {
    for (const name of ['2src.pdb', '3PQR.cif'] as const) {
      const crlf = parseStructure(fixtureText(name).replace(/\n/g, '\r\n'));
      assert.deepEqual(crlf, fixture(name), name);
    }
  });
});

describe('parseStructure: bad input names the field', () => {
  it('rejects garbage text', () => {
    const e = thrown(() => parseStructure('this is not a structure\nat all\n', { field: 'structure' }));
    assert.equal(e.code, 'invalid_parameters');
    assert.equal(e.status, 400);
    assert.equal(e.problems[0]!.path, '/structure');
    assert.match(e.problems[0]!.message, /no atom records/);
  });

  it('rejects a file that holds only waters, naming a caller-given field', () => {
    const waters = records(fixtureText('2src.pdb'), 'HETATM')
      .filter((l) => l.slice(17, 20) === 'HOH')
      .join('\n');
    const e = thrown(() => parseStructure(waters, { field: 'target.structure' }));
    assert.equal(e.problems[0]!.path, '/target/structure');
    assert.match(e.problems[0]!.message, /no protein atoms.*HOH/);
  });

  it('rejects unreadable mmCIF and broken coordinates', () => {
    const cif = thrown(() => parseStructure("data_X\nloop_\n_atom_site.id\n_atom_site.type_symbol\n1 'C\n"));
    assert.equal(cif.problems[0]!.path, '/structure');
    assert.match(cif.problems[0]!.message, /not readable mmCIF.*quoted value is never closed/);
    const line = 'ATOM      1  CA  GLY A   1       1.000   abc     0.000  1.00  0.00           C';
    const pdb = thrown(() => parseStructure(line));
    assert.match(pdb.problems[0]!.message, /line 1: the y coordinate "abc" is not a number/);
  });

  it('refuses text above the documented bound before reading it', () => {
    const e = thrown(() => parseStructure('ATOM'.padEnd(1001, ' '), { maxChars: 1000 }));
    assert.match(e.problems[0]!.message, /is 1001 characters; at most 1000/);
    assert.ok(MAX_STRUCTURE_CHARS >= 10_000_000);
    assert.match(thrown(() => parseStructure('')).problems[0]!.message, /is empty/);
    assert.match(thrown(() => parseStructure('ATOM\u0000')).problems[0]!.message, /NUL/);
  });
});
