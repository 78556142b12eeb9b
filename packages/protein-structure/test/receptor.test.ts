import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseStructure, receptorPdb } from '@evident/protein-structure';
import { fixture, records } from './fixtures.js';

describe('receptorPdb', () => {
  it("writes 2SRC chain A's protein atoms only: no water, no ANP; PTR stays in the chain", () => {
    const text = receptorPdb(fixture('2src.pdb'), 'A');
    const atoms = [...records(text, 'ATOM'), ...records(text, 'HETATM')];
    // The file's ATOM records plus PTR's 16 HETATM records: 3615 atoms (awk).
    assert.equal(atoms.length, 3615);
    const names = new Set(atoms.map((l) => l.slice(17, 20)));
    assert.ok(!names.has('HOH') && !names.has('ANP'));
    assert.deepEqual(
      records(text, 'HETATM').map((l) => l.slice(17, 26)),
      Array(16).fill('PTR A 527'),
    );
    assert.equal(records(text, 'TER').length, 1);
    assert.ok(text.endsWith('END\n'));
  });

  it('keeps the columns: the first line matches the original record apart from the serial number', () => {
    const text = receptorPdb(fixture('2src.pdb'), 'A');
    // ATOM      1  N   THR A  84      33.954  62.803  55.198  1.00 38.76           N
    assert.equal(text.split('\n')[0], 'ATOM      1  N   THR A  84      33.954  62.803  55.198  1.00 38.76           N');
  });

  it('writes one conformer without altloc flags, and reads back to the same chain', () => {
    const s = fixture('3pqr.pdb');
    const text = receptorPdb(s, 'A');
    const atoms = records(text, 'ATOM');
    assert.equal(atoms.length, 2592); // chain A ATOM records with a blank or A altloc
    assert.ok(atoms.every((l) => l[16] === ' '));
    const back = parseStructure(text);
    const strip = (c: (typeof s.chains)[number]) =>
      c.residues.map((r) => [r.author_number, r.name, r.atoms.map((a) => [a.name, a.element, a.x, a.y, a.z])]);
    assert.deepEqual(strip(back.chains[0]!), strip(s.chains[0]!));
    assert.deepEqual(back.het_groups, []);
  });

  it('writes the mmCIF entry as the PDB one', () => {
    assert.equal(receptorPdb(fixture('3PQR.cif'), 'A'), receptorPdb(fixture('3pqr.pdb'), 'A'));
  });
});
