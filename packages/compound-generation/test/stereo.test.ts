import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadRDKit, parseSmiles } from '../src/rdkit.js';
import { enumerateStereoisomers, unspecifiedStereo } from '../src/chem/stereo.js';
import { InvalidRequestError, InvalidSmilesError } from '../src/errors.js';

const rd = await loadRDKit();

/** Standard InChI of a SMILES: an identity independent of RDKit's canonical SMILES. */
function inchi(smiles: string): string {
  const m = parseSmiles(rd, smiles)!;
  try {
    return m.get_inchi();
  } finally {
    m.delete();
  }
}

/** Every returned isomer is fully specified, distinct as a molecule, and has the input's constitution. */
function assertIsomers(input: string, isomers: string[]) {
  const skeleton = (s: string) => inchi(s).split('/').slice(0, 4).join('/'); // formula, connections, H
  const ids = isomers.map(inchi);
  assert.equal(new Set(ids).size, isomers.length, `distinct molecules: ${isomers.join(' ')}`);
  for (const s of isomers) assert.equal(skeleton(s), skeleton(input), `${s} is a stereoisomer of ${input}`);
  for (const s of isomers) {
    const m = parseSmiles(rd, s)!;
    const counts = unspecifiedStereo(rd, m);
    m.delete();
    assert.equal(counts.tetrahedral_unspecified + counts.double_bond_unspecified, 0, `${s} leaves nothing open`);
  }
}

test('two unspecified centres give four stereoisomers', () => {
  const r = enumerateStereoisomers(rd, 'CC(O)C(N)CC');
  assert.equal(r.isomers.length, 4);
  assert.equal(r.capped, false);
  assert.deepEqual(r.stereo, {
    tetrahedral_unspecified: 2,
    tetrahedral_specified: 0,
    double_bond_unspecified: 0,
    double_bond_specified: 0,
  });
  assertIsomers('CC(O)C(N)CC', r.isomers);
});

test('meso forms and pseudo-asymmetric centres collapse (tartaric acid 3, trihydroxyglutaric acid 4)', () => {
  const tartaric = enumerateStereoisomers(rd, 'OC(=O)C(O)C(O)C(=O)O');
  assert.equal(tartaric.isomers.length, 3); // (R,R), (S,S), meso
  assertIsomers('OC(=O)C(O)C(O)C(=O)O', tartaric.isomers);
  // three centres, 8 combinations, 4 stereoisomers: two meso forms (C3 pseudo-asymmetric) and one enantiomer pair
  const glutaric = enumerateStereoisomers(rd, 'OC(=O)C(O)C(O)C(O)C(=O)O');
  assert.equal(glutaric.isomers.length, 4);
  assertIsomers('OC(=O)C(O)C(O)C(O)C(=O)O', glutaric.isomers);
});

test('ring cis/trans centres are seen, and the nine inositols are found from 64 combinations', () => {
  const dimethyl = enumerateStereoisomers(rd, 'CC1CCC(C)CC1');
  assert.equal(dimethyl.isomers.length, 2); // cis and trans: RDKit's legacy perception misses these centres
  assertIsomers('CC1CCC(C)CC1', dimethyl.isomers);
  const inositol = enumerateStereoisomers(rd, 'OC1C(O)C(O)C(O)C(O)C1O', { max: 16 });
  assert.equal(inositol.isomers.length, 9);
  assert.equal(inositol.capped, false);
  assertIsomers('OC1C(O)C(O)C(O)C(O)C1O', inositol.isomers);
});

test('a fully specified molecule gives itself', () => {
  for (const s of ['C[C@H](O)CC', 'C/C=C/C', 'CC(=O)Nc1ccc(O)cc1']) {
    const r = enumerateStereoisomers(rd, s);
    assert.equal(r.isomers.length, 1);
    assert.equal(inchi(r.isomers[0]!), inchi(s));
    assert.equal(r.capped, false);
  }
  assert.equal(enumerateStereoisomers(rd, 'C[C@H](O)CC').stereo.tetrahedral_specified, 1);
});

test('double bonds: E/Z enumerated where they are stereogenic, never in small rings or with equal ends', () => {
  const butene = enumerateStereoisomers(rd, 'CC=CC');
  assert.equal(butene.isomers.length, 2);
  assert.ok(butene.isomers.includes('C/C=C/C') && butene.isomers.includes('C/C=C\\C'));
  const both = enumerateStereoisomers(rd, 'CC=CC(C)O'); // one E/Z bond and one centre
  assert.equal(both.isomers.length, 4);
  assert.equal(both.stereo.double_bond_unspecified, 1);
  assertIsomers('CC=CC(C)O', both.isomers);
  assert.equal(enumerateStereoisomers(rd, 'CC=NO').isomers.length, 2); // oxime E/Z
  // a specified double bond is kept while the open centre is enumerated
  const kept = enumerateStereoisomers(rd, 'C/C=C/C(O)CC');
  assert.equal(kept.isomers.length, 2);
  for (const s of kept.isomers) assert.ok(s.includes('/C=C/'), s);
  for (const s of ['CC(C)=CC', 'C1=CCCCC1', 'C=Cc1ccccc1', 'c1ccccc1']) {
    const r = enumerateStereoisomers(rd, s);
    assert.equal(r.isomers.length, 1, s);
    assert.equal(r.stereo.double_bond_unspecified, 0, s);
  }
});

test('the cap: at most max isomers, flagged when more exist', () => {
  // hexane-2,3,4,5-tetrol: 4 centres, 16 combinations, 10 stereoisomers
  const all = enumerateStereoisomers(rd, 'CC(O)C(O)C(O)C(O)C', { max: 16 });
  assert.equal(all.isomers.length, 10);
  assert.equal(all.capped, false);
  const capped = enumerateStereoisomers(rd, 'CC(O)C(O)C(O)C(O)C', { max: 4 });
  assert.equal(capped.isomers.length, 4);
  assert.equal(capped.capped, true);
  assert.deepEqual(capped.isomers, all.isomers.slice(0, 4), 'the order is fixed');
  // exactly max: not capped
  assert.equal(enumerateStereoisomers(rd, 'OC(=O)C(O)C(O)C(=O)O', { max: 3 }).capped, false);
  // default 8 for a molecule with 2^10 combinations
  const many = enumerateStereoisomers(rd, 'CC(O)C(O)C(O)C(O)C(O)C(O)C(O)C(O)C(O)C(O)C');
  assert.equal(many.isomers.length, 8);
  assert.equal(many.capped, true);
});

test('unspecifiedStereo counts open elements of a parsed molecule and leaves perception as it was', () => {
  const m = parseSmiles(rd, 'CC1CCC(C)CC1')!;
  const before = rd.use_legacy_stereo_perception(true);
  rd.use_legacy_stereo_perception(before);
  assert.deepEqual(unspecifiedStereo(rd, m), {
    tetrahedral_unspecified: 2,
    tetrahedral_specified: 0,
    double_bond_unspecified: 0,
    double_bond_specified: 0,
  });
  m.delete();
  // the engine's own perception (legacy) is restored: it does not report the ring pair
  const again = parseSmiles(rd, 'CC1CCC(C)CC1')!;
  assert.equal(JSON.parse(again.get_stereo_tags()).CIP_atoms.length, 0);
  again.delete();
  const rosuva = parseSmiles(rd, 'CC(C)c1nc(N(C)S(C)(=O)=O)nc(-c2ccc(F)cc2)c1C=C[C@@H](O)C[C@@H](O)CC(=O)O')!;
  assert.deepEqual(unspecifiedStereo(rd, rosuva), {
    tetrahedral_unspecified: 0,
    tetrahedral_specified: 2,
    double_bond_unspecified: 1,
    double_bond_specified: 0,
  });
  rosuva.delete();
});

test('bad input is refused with the error contract', () => {
  assert.throws(() => enumerateStereoisomers(rd, 'C1CC'), InvalidSmilesError);
  assert.throws(
    () => enumerateStereoisomers(rd, 'CC(O)CC', { max: 0 }),
    (e: unknown) => e instanceof InvalidRequestError && e.problems[0]!.path === '/max',
  );
});
