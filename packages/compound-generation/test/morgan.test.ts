// The unhashed Morgan ids (needed by the SA score) are reproduced in TypeScript; folding them must give
// exactly the bits RDKit's own Morgan fingerprint sets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { referencePath } from '@evident/testkit';
import { loadRDKit, parseSmiles } from '../src/rdkit.js';
import { molGraph } from '../src/chem/graph.js';
import { morganCounts } from '../src/chem/morgan.js';

test('folded Morgan radius-2 ids equal RDKit get_morgan_fp bits (2048 and 1021 bits)', async () => {
  const rd = await loadRDKit();
  const smiles = readFileSync(referencePath('chemistry', 'nci_public_ref.csv'), 'utf8')
    .trim()
    .split(/\r?\n/)
    .slice(1, 401)
    .map((l) => l.split(',')[1]!);
  let compared = 0;
  for (const s of smiles) {
    const mol = parseSmiles(rd, s);
    if (!mol) continue;
    const ids = [...morganCounts(molGraph(mol), 2).keys()];
    for (const nBits of [2048, 1021]) {
      const bits = mol.get_morgan_fp(JSON.stringify({ radius: 2, nBits }));
      const want = new Set<number>();
      for (let i = 0; i < bits.length; i++) if (bits[i] === '1') want.add(i);
      const got = new Set(ids.map((id) => id % nBits));
      assert.deepEqual(
        [...got].sort((a, b) => a - b),
        [...want].sort((a, b) => a - b),
        `${s} at ${nBits} bits`,
      );
    }
    mol.delete();
    compared++;
  }
  assert.ok(compared >= 399);
});

test('Morgan counts: symmetric environments are counted, redundant ones are not', async () => {
  const rd = await loadRDKit();
  const mol = parseSmiles(rd, 'CCC')!;
  const counts = morganCounts(molGraph(mol), 2);
  mol.delete();
  // radius 0: CH3 x2, CH2 x1; radius 1: CH3 env x2, CH2 env x1; radius 2 adds nothing new (whole molecule seen)
  assert.equal(
    [...counts.values()].reduce((a, b) => a + b, 0),
    6,
  );
  assert.equal(counts.size, 4);
});
