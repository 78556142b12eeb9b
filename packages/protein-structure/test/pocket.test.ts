import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkPocket,
  findHetGroup,
  inPocket,
  MAX_POCKET_EDGE,
  MIN_POCKET_EDGE,
  pocketFromLigand,
  pocketFromResidues,
  pocketResidues,
  resolveResidues,
} from '@evident/protein-structure';
import { fixture, thrown } from './fixtures.js';

describe('pocketFromLigand', () => {
  const s = fixture('2src.pdb');

  it('holds every ANP atom, with the margin on each side', () => {
    const pocket = pocketFromLigand(s, 'ANP A 1');
    assert.equal(pocket.source, 'ligand');
    for (const a of findHetGroup(s, 'ANP').atoms) assert.ok(inPocket(pocket, a), `${a.name} outside the box`);
    // ANP's coordinates (awk over its HETATM lines): x 10.076–22.724, y 16.248–25.689, z 56.304–61.154.
    const expected = [22.724 - 10.076 + 10, 25.689 - 16.248 + 10, 61.154 - 56.304 + 10];
    for (const [k, e] of pocket.size.entries()) assert.ok(Math.abs(e - expected[k]!) < 1e-9, `size ${k}: ${e}`);
    assert.ok(Math.abs(pocket.center[0] - (10.076 + 22.724) / 2) < 1e-9);
  });

  it('clamps a small derived box up to the minimum edge', () => {
    const pocket = pocketFromLigand(s, 'ANP', { margin: 0 });
    // z extent 4.85 Å < 10 → 10; x extent 12.648 Å stays.
    assert.equal(pocket.size[2], MIN_POCKET_EDGE);
    assert.ok(Math.abs(pocket.size[0] - 12.648) < 1e-9);
    for (const a of findHetGroup(s, 'ANP').atoms) assert.ok(inPocket(pocket, a));
  });

  it('rejects a margin out of bounds', () => {
    assert.equal(thrown(() => pocketFromLigand(s, 'ANP', { margin: -1 })).problems[0]!.path, '/margin');
    assert.equal(thrown(() => pocketFromLigand(s, 'ANP', { margin: Number.NaN })).problems[0]!.path, '/margin');
  });
});

describe('pocketFromResidues', () => {
  const s = fixture('2src.pdb');

  it("boxes the named residues' atoms", () => {
    const { residues } = resolveResidues(s, 'A', ['K297', 'T340', 'M343'], { uniprot: 'P12931' });
    const pocket = pocketFromResidues(s, residues);
    assert.equal(pocket.source, 'residues');
    const chain = s.chains[0]!;
    for (const n of [295, 338, 341]) {
      for (const a of chain.residues.find((r) => r.author_number === n)!.atoms) assert.ok(inPocket(pocket, a));
    }
    // Those residues line the ATP site: the box holds most of ANP.
    const anp = findHetGroup(s, 'ANP').atoms;
    assert.ok(anp.filter((a) => inPocket(pocket, a)).length >= anp.length / 2);
    assert.ok(pocketResidues(s, 'A', pocket).some((r) => r.author_number === 338));
  });

  it('refuses residues spread wider than a pocket, naming the field', () => {
    // Author 84 and 533: their CA atoms lie at z 54.583 and 94.493 (ATOM records), 40 Å apart.
    const { residues } = resolveResidues(s, 'A', ['T84', 'L533']);
    const e = thrown(() => pocketFromResidues(s, residues));
    assert.equal(e.problems[0]!.path, '/binding_site/residues');
    assert.match(e.problems[0]!.message, new RegExp(`at most ${MAX_POCKET_EDGE} Å`));
  });
});

describe('checkPocket', () => {
  it('accepts a box within the bounds', () => {
    assert.deepEqual(checkPocket({ center: [1, 2, 3], size: [20, 20, 25] }), {
      center: [1, 2, 3],
      size: [20, 20, 25],
      source: 'request',
    });
  });

  it('names every edge that is too small or too large', () => {
    const e = thrown(() => checkPocket({ center: [0, 0, 0], size: [5, 20, 60] }));
    assert.equal(e.code, 'invalid_parameters');
    assert.deepEqual(
      e.problems.map((p) => p.path),
      ['/pocket/size/0', '/pocket/size/2'],
    );
    assert.match(e.problems[0]!.message, /too small/);
    assert.match(e.problems[1]!.message, /too large/);
  });

  it('rejects non-finite numbers and wrong shapes under the caller-given field', () => {
    const e = thrown(() => checkPocket({ center: [0, Number.NaN, 0], size: [20, 20] }, 'target.pocket'));
    assert.deepEqual(
      e.problems.map((p) => p.path),
      ['/target/pocket/center/1', '/target/pocket/size'],
    );
    assert.equal(thrown(() => checkPocket(null)).problems[0]!.path, '/pocket');
    assert.equal(
      thrown(() => checkPocket({ center: [0, 0, 0], size: [20, 'x', 20] })).problems[0]!.path,
      '/pocket/size/1',
    );
  });
});
