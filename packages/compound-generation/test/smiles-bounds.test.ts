// The cheap scan that keeps hostile SMILES away from RDKit's WebAssembly module, alone and in validateRequest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidRequestError, SMILES_LIMITS, smilesBoundsProblem, validateRequest } from '@evident/compound-generation';

const seed = { target_uniprot: 'P00533', binding_site: { residues: ['K721'] } };
const ring = (i: number) => (i < 10 ? String(i) : `%${i}`);

test('drug-like and large natural-product SMILES are within bounds', () => {
  for (const s of [
    'CCO',
    'Clc1ccc(Br)cc1',
    'CC(=O)Oc1ccccc1C(=O)O',
    'COc1cc2ncnc(Nc3ccc(F)c(Cl)c3)c2cc1OCCCN1CCOCC1', // gefitinib
    // cyclosporin A (85 heavy atoms, a macrocycle with many branches)
    'CC[C@H]1C(=O)N(CC(=O)N([C@H](C(=O)N[C@H](C(=O)N([C@H](C(=O)N[C@H](C(=O)N[C@@H](C(=O)N([C@H](C(=O)N([C@H](C(=O)N([C@H](C(=O)N([C@H](C(=O)N1)[C@@H]([C@H](C)C/C=C/C)O)C)C(C)C)C)CC(C)C)C)CC(C)C)C)C)C)CC(C)C)C)C(C)C)CC(C)C)C)C',
    `[2H]C([2H])([2H])${'C'.repeat(SMILES_LIMITS.atoms - 4)}`,
    'C%(123)CC%(123)',
  ]) {
    assert.equal(smilesBoundsProblem(s), undefined, s.slice(0, 40));
  }
});

test('atoms, length, branch depth and ring closures past the limits are named', () => {
  const { atoms, length, branch_depth, ring_closures } = SMILES_LIMITS;
  assert.match(smilesBoundsProblem('C'.repeat(atoms + 1))!, new RegExp(`more than ${atoms} atoms`));
  assert.match(smilesBoundsProblem('C'.repeat(700))!, /atoms/);
  assert.match(smilesBoundsProblem('[CH2]'.repeat(atoms + 1))!, /atoms/);
  // Cl and Br are one atom each: 250 of them are within bounds, 251 are not.
  assert.equal(smilesBoundsProblem('Cl'.repeat(atoms)), undefined);
  assert.match(smilesBoundsProblem('Br'.repeat(atoms + 1))!, /atoms/);
  assert.match(smilesBoundsProblem(`C${'.'.repeat(length)}`)!, new RegExp(`at most ${length}`));
  const nest = (n: number) => `${'C('.repeat(n)}C${')'.repeat(n)}`;
  assert.equal(smilesBoundsProblem(nest(branch_depth)), undefined);
  assert.match(smilesBoundsProblem(nest(branch_depth + 1))!, /nests branches 33 deep/);
  const rings = (n: number) => {
    let s = 'C';
    for (let i = 1; i <= n; i++) s += `C${ring(i)}`;
    s += 'CCC';
    for (let i = n; i >= 1; i--) s += `C${ring(i)}`;
    return s;
  };
  assert.equal(smilesBoundsProblem(rings(ring_closures)), undefined);
  assert.match(smilesBoundsProblem(rings(ring_closures + 1))!, /33 ring closures/);
  assert.match(smilesBoundsProblem('C[CH2')!, /never closed/);
  assert.match(smilesBoundsProblem('')!, /empty/);
});

test('validateRequest refuses an out-of-bounds reference ligand by its path, before RDKit sees it', async () => {
  // 700 and 1,000 carbons: the first made RDKit spin forever, the second trapped its module.
  for (const hostile of ['C'.repeat(700), 'C'.repeat(1000), `${'C('.repeat(40)}C${')'.repeat(40)}`]) {
    await assert.rejects(validateRequest({ ...seed, reference_ligands: ['CCO', hostile] }), (e: unknown) => {
      assert.ok(e instanceof InvalidRequestError);
      assert.equal(e.code, 'invalid_parameters');
      assert.deepEqual(
        e.problems.map((p) => p.path),
        ['/reference_ligands/1'],
      );
      return true;
    });
  }
  // The same module still works: nothing hostile reached it.
  const ok = await validateRequest({ ...seed, reference_ligands: ['OCC', 'C'.repeat(SMILES_LIMITS.atoms)] });
  assert.equal(ok.reference_ligands[0], 'CCO');
  assert.equal(ok.reference_ligands[1], 'C'.repeat(SMILES_LIMITS.atoms));
});
