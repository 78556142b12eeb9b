import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeMolecule, InvalidSmilesError, CompoundGenerationError } from '@evident/compound-generation';

test('describeMolecule reports the documented properties (aspirin)', async () => {
  const p = await describeMolecule('CC(=O)Oc1ccccc1C(=O)O');
  assert.equal(p.mw, 180.159);
  assert.ok(Math.abs(p.exact_mw - 180.04226) < 1e-4);
  assert.ok(Math.abs(p.logp - 1.3101) < 1e-3);
  assert.equal(p.hbd, 1);
  assert.equal(p.lipinski_hbd, 1);
  assert.equal(p.lipinski_hba, 4);
  assert.ok(Math.abs(p.tpsa - 63.6) < 0.01);
  assert.equal(p.rotatable_bonds, 2);
  assert.equal(p.lipinski_violations, 0);
  // RDKit's QED of aspirin is 0.5501 (weighted QED with mean weights)
  assert.ok(Math.abs(p.qed - 0.5501) < 0.001, `qed ${p.qed}`);
  assert.ok(p.sa_score > 1 && p.sa_score < 2.5, `sa ${p.sa_score}`);
});

test('harder molecules score as harder to make; Lipinski violations are counted', async () => {
  const simple = await describeMolecule('c1ccccc1O');
  const complex = await describeMolecule(
    'C[C@H]1C[C@@H]2[C@H]3CC[C@](O)(C(=O)CO)[C@@]3(C)C[C@H](O)[C@@H]2[C@@]2(C)C=CC(=O)C=C12',
  );
  assert.ok(complex.sa_score > simple.sa_score + 1);
  assert.ok(complex.stereocentres >= 7);
  const big = await describeMolecule('CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC(=O)O');
  assert.ok(big.lipinski_violations >= 2, `${big.lipinski_violations}`);
});

test('an invalid SMILES raises a typed error with a stable code', async () => {
  for (const bad of ['C1CC', 'not a molecule', 'C(C)(C)(C)(C)C', '']) {
    await assert.rejects(describeMolecule(bad), (e: unknown) => {
      assert.ok(e instanceof InvalidSmilesError);
      assert.ok(e instanceof CompoundGenerationError);
      assert.equal(e.code, 'invalid_smiles');
      return true;
    });
  }
});
