import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Atom, findHetGroup, ligandPdb, ligands, parseStructure } from '@evident/protein-structure';
import { fixture, fixtureText, records, thrown } from './fixtures.js';

describe('ligands', () => {
  it('finds ANP in 2SRC and not the phosphotyrosine of the chain or the waters', () => {
    const found = ligands(fixture('2src.pdb'));
    // HET lines: PTR A 527 (MODRES: part of the chain), ANP A 1 (31 atoms); the rest is HOH.
    assert.deepEqual(
      found.map((l) => [l.id, l.name, l.chain, l.author_number, l.atom_count]),
      [['ANP A 1', 'ANP', 'A', 1, 31]],
    );
  });

  it('does not offer PTR as a ligand even when a file lacks MODRES and SEQRES', () => {
    const text = fixtureText('2src.pdb')
      .split('\n')
      .filter((l) => !l.startsWith('MODRES') && !l.startsWith('SEQRES'))
      .join('\n');
    assert.deepEqual(
      ligands(parseStructure(text)).map((l) => l.name),
      ['ANP'],
    );
  });

  it('finds R36 in 1LEE', () => {
    assert.deepEqual(
      ligands(fixture('1lee.pdb')).map((l) => [l.id, l.atom_count]),
      [['R36 A 500', 39]], // HET    R36  A 500      39
    );
  });

  it('keeps retinal and leaves glycans, detergent, palmitate, sulfate, acetate and trehalose of 3PQR out', () => {
    // HET lines of 3PQR: RET, NAG ×3, BMA, MAN, BOG ×2, PLM, SO4, ACT ×2, TRE.
    assert.deepEqual(
      ligands(fixture('3pqr.pdb')).map((l) => l.id),
      ['RET A 401'],
    );
    assert.deepEqual(
      ligands(fixture('3PQR.cif')).map((l) => l.id),
      ['RET A 401'],
    );
    const withBog = ligands(fixture('3pqr.pdb'), { include: ['BOG'], exclude: ['RET'] }).map((l) => l.id);
    assert.deepEqual(withBog, ['BOG A 601', 'BOG A 602']);
  });

  it('keeps, with `near`, only ligands within 4 Å of that chain', () => {
    const s = fixture('3pqr.pdb');
    const heavy = (atoms: Atom[]) => atoms.filter((a) => a.element !== 'H');
    const touches = (name: string, chain: string) => {
      const ligand = heavy(findHetGroup(s, name).atoms);
      const protein = s.chains.find((c) => c.id === chain)!.residues.flatMap((r) => heavy(r.atoms));
      return ligand.some((a) => protein.some((b) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z) <= 4));
    };
    assert.equal(touches('RET', 'A'), true);
    assert.deepEqual(
      ligands(s, { near: 'A' }).map((l) => l.name),
      ['RET'],
    );
    assert.deepEqual(
      ligands(s, { near: 'B' }).map((l) => l.name),
      touches('RET', 'B') ? ['RET'] : [],
    );
  });

  it("gives the centroid of the ligand's heavy atoms", () => {
    const anp = ligands(fixture('2src.pdb'))[0]!;
    const lines = records(fixtureText('2src.pdb'), 'HETATM').filter((l) => l.slice(17, 20) === 'ANP');
    const mean = (from: number) => lines.reduce((t, l) => t + Number(l.slice(from, from + 8)), 0) / lines.length;
    assert.equal(anp.heavy_atom_count, 31);
    for (const [k, from] of [30, 38, 46].entries()) assert.ok(Math.abs(anp.centroid[k]! - mean(from)) < 1e-9);
  });

  it('names the field when a ligand is not in the structure', () => {
    const e = thrown(() => findHetGroup(fixture('2src.pdb'), 'STI', 'reference_ligand'));
    assert.equal(e.problems[0]!.path, '/reference_ligand');
    assert.match(e.problems[0]!.message, /no het group "STI".*ligands: ANP A 1/);
  });

  it('writes a ligand as HETATM records that read back to the same atoms', () => {
    const s = fixture('1lee.pdb');
    const text = ligandPdb(s, 'R36');
    const back = parseStructure(
      `${text.replace(/END\n$/, '')}ATOM      1  CA  GLY B   1       0.000   0.000   0.000  1.00  0.00           C\n`,
    );
    const original = findHetGroup(s, 'R36').atoms;
    const read = findHetGroup(back, 'R36').atoms;
    assert.deepEqual(
      read.map((a) => [a.name, a.element, a.x, a.y, a.z]),
      original.map((a) => [a.name, a.element, a.x, a.y, a.z]),
    );
    assert.equal(records(text, 'HETATM').length, 39);
  });
});
