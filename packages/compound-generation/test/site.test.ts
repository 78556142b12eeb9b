import { test } from 'node:test';
import assert from 'node:assert/strict';
import { residueFit, siteComplementarity, type PharmacophoreFeatures } from '@evident/compound-generation';

const none: PharmacophoreFeatures = {
  donors: 0,
  acceptors: 0,
  cationic: 0,
  anionic: 0,
  aromatic_rings: 0,
  hydrophobes: 0,
};

test('residues ask for complementary features', () => {
  assert.equal(residueFit('K', none), 0);
  assert.ok(residueFit('K', { ...none, acceptors: 3 }) > 0.7);
  assert.equal(residueFit('K', { ...none, anionic: 1 }), 1);
  assert.ok(residueFit('K', { ...none, acceptors: 3, cationic: 1 }) < residueFit('K', { ...none, acceptors: 3 }));
  assert.ok(residueFit('D', { ...none, cationic: 1 }) > residueFit('D', none));
  assert.ok(residueFit('L', { ...none, hydrophobes: 12 }) > residueFit('L', { ...none, hydrophobes: 2 }));
  assert.ok(residueFit('F', { ...none, aromatic_rings: 2 }) > residueFit('F', none));
});

test('site score is the mean over residues, in 0..1', () => {
  const f = { ...none, acceptors: 4, donors: 1, hydrophobes: 10, aromatic_rings: 2 };
  const s = siteComplementarity(['K721', 'L834', 'T790'], f);
  const mean = (residueFit('K', f) + residueFit('L', f) + residueFit('T', f)) / 3;
  assert.ok(Math.abs(s - mean) < 1e-12);
  assert.ok(s > 0 && s <= 1);
});
