import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_LABELS, parseStructure, resolveResidues, selectChain } from '@evident/protein-structure';
import { fixture, fixtureText, thrown } from './fixtures.js';

// 2SRC: DBREF A 83–533 ↔ P12931 85–535, so UniProt = author + 2. From the ATOM records (read by hand):
// author 336 ILE, 337 VAL, 338 THR (the gatekeeper, chicken-Src numbering), 339 GLU, 340 TYR, 341 MET,
// 295 LYS (catalytic lysine). Hence UniProt 340 is THR, 341 is GLU, 338 is ILE, 297 is LYS.
describe('selectChain', () => {
  const s = fixture('2src.pdb');

  it('takes the chain mapped to the accession, the named chain, or the first protein chain', () => {
    assert.equal(selectChain(s, { uniprot: 'P12931' }).id, 'A');
    assert.equal(selectChain(s, { chain: 'A' }).id, 'A');
    assert.equal(selectChain(s).id, 'A');
    const rhodopsin = fixture('3pqr.pdb');
    // DBREF 3PQR B 340 350 UNP P04695 (transducin peptide): the accession picks chain B over the first chain A.
    assert.equal(selectChain(rhodopsin, { uniprot: 'P04695' }).id, 'B');
    assert.equal(selectChain(rhodopsin, { uniprot: 'Q99999' }).id, 'A');
  });

  it('rejects a chain that is absent, naming `chain`', () => {
    const e = thrown(() => selectChain(s, { chain: 'Z' }));
    assert.equal(e.code, 'invalid_parameters');
    assert.equal(e.problems[0]!.path, '/chain');
    assert.match(e.problems[0]!.message, /"Z" is not in the structure; protein chains: A/);
  });

  it('rejects a chain that holds no protein', () => {
    const text = [
      'ATOM      1  CA  GLY A   1       1.000   0.000   0.000  1.00  0.00           C',
      'ATOM      2  P    DA B   1       5.000   0.000   0.000  1.00  0.00           P',
    ].join('\n');
    const e = thrown(() => selectChain(parseStructure(text), { chain: 'B', field: 'target.chain' }));
    assert.equal(e.problems[0]!.path, '/target/chain');
    assert.match(e.problems[0]!.message, /chain B holds no protein/);
  });
});

describe('resolveResidues on 2SRC', () => {
  const s = fixture('2src.pdb');
  const resolve = (labels: string[]) => resolveResidues(s, 'A', labels, { uniprot: 'P12931' });

  it('accepts T340 in UniProt numbering (author 338) without a warning', () => {
    const r = resolve(['T340']);
    assert.deepEqual(r.warnings, []);
    assert.deepEqual(r.residues, [
      {
        label: 'T340',
        chain: 'A',
        author_number: 338,
        insertion_code: '',
        uniprot_number: 340,
        name: 'THR',
        numbering: 'uniprot',
      },
    ]);
  });

  it('accepts T338 (the gatekeeper in chicken numbering) by author numbering only, warning with UniProt T340', () => {
    const r = resolve(['T338']);
    assert.equal(r.residues[0]!.author_number, 338);
    assert.equal(r.residues[0]!.uniprot_number, 340);
    assert.equal(r.residues[0]!.numbering, 'author');
    assert.equal(r.warnings.length, 1);
    assert.match(r.warnings[0]!, /^T338 matches the structure's author numbering \(UniProt T340\)/);
    assert.match(r.warnings[0]!, /UniProt 338 is I \(ILE, author 336\)/);
  });

  it('rejects T341: UniProt 341 is GLU (author 339) and author 341 is MET', () => {
    const e = thrown(() => resolve(['K297', 'T341']));
    assert.equal(e.problems.length, 1);
    assert.equal(e.problems[0]!.path, '/binding_site/residues/1');
    assert.match(
      e.problems[0]!.message,
      /^T341 does not match chain A: UniProt 341 is E \(GLU, author 339\); author 341 is M \(MET\)/,
    );
  });

  it('lists every bad label at its index under the caller-given field', () => {
    const e = thrown(() =>
      resolveResidues(s, 'A', ['K297', 'W340', 'nonsense', 'T790M'], { field: 'target.residues' }),
    );
    assert.deepEqual(
      e.problems.map((p) => p.path),
      ['/target/residues/1', '/target/residues/2', '/target/residues/3'],
    );
    assert.match(e.problems[0]!.message, /W340 does not match chain A: UniProt 340 is T \(THR, author 338\)/);
    assert.match(e.problems[1]!.message, /"nonsense" is not a residue label like K721/);
    assert.match(e.problems[2]!.message, /insertion code; a mutation is not a residue label/);
  });

  it('reports a residue outside the modelled range as not in the chain', () => {
    const e = thrown(() => resolve(['L900']));
    assert.match(
      e.problems[0]!.message,
      /L900 is not in chain A: UniProt 900 is outside .*author 900 is outside the modelled residues 84–533/,
    );
  });

  it('refuses more labels than a binding site names', () => {
    const e = thrown(() => resolve(Array(MAX_LABELS + 1).fill('T340')));
    assert.equal(e.problems[0]!.path, '/binding_site/residues');
    assert.match(e.problems[0]!.message, new RegExp(`at most ${MAX_LABELS}`));
  });

  it('accepts three-letter labels', () => {
    assert.equal(resolve(['Thr340']).residues[0]!.author_number, 338);
  });
});

describe('resolveResidues: unresolved residues and numbering without a mapping', () => {
  it('names a residue the model does not resolve (3PQR: REMARK 465 lists ASP A 330)', () => {
    const s = fixture('3pqr.pdb');
    const e = thrown(() => resolveResidues(s, 'A', ['K296', 'D330']));
    assert.equal(e.problems.length, 1);
    assert.equal(e.problems[0]!.path, '/binding_site/residues/1');
    assert.match(e.problems[0]!.message, /D330 is not resolved in chain A of the model \(no coordinates/);
    // K296 (the retinal Schiff-base lysine; DBREF 1–348 ↔ 1–348, so both numberings agree) resolves.
    assert.equal(resolveResidues(s, 'A', ['K296']).residues[0]!.numbering, 'uniprot');
  });

  it('takes author numbering as UniProt numbering when the chain has no DBREF (AlphaFold models)', () => {
    const text = fixtureText('2src.pdb')
      .split('\n')
      .filter((l) => !l.startsWith('DBREF'))
      .join('\n');
    const s = parseStructure(text);
    const r = resolveResidues(s, 'A', ['T338'], { uniprot: 'P12931' });
    assert.deepEqual(r.warnings, []);
    assert.equal(r.residues[0]!.uniprot_number, 338);
    assert.equal(r.residues[0]!.numbering, 'uniprot');
  });

  it('warns when the chain is mapped to another accession than the one asked for', () => {
    const s = fixture('2src.pdb');
    const r = resolveResidues(s, 'A', ['T338'], { uniprot: 'P00533' });
    assert.match(r.warnings[0]!, /chain A is mapped to P12931, not P00533/);
    assert.equal(r.residues[0]!.numbering, 'author');
    assert.equal(r.residues[0]!.uniprot_number, null);
  });

  it('reads 1LEE mature-plasmepsin numbering as author numbering (DBREF -1–329 ↔ 123–453)', () => {
    // ATOM records: ASP A 34 and ASP A 214 are the catalytic aspartates; UniProt = author + 124.
    const s = fixture('1lee.pdb');
    const r = resolveResidues(s, 'A', ['D158', 'D34', 'D338'], { uniprot: 'P46925' });
    assert.deepEqual(
      r.residues.map((x) => [x.author_number, x.uniprot_number, x.numbering]),
      [
        [34, 158, 'uniprot'],
        [34, 158, 'author'],
        [214, 338, 'uniprot'],
      ],
    );
    assert.equal(r.warnings.length, 1);
    assert.match(r.warnings[0]!, /^D34 matches the structure's author numbering \(UniProt D158\)/);
  });
});
