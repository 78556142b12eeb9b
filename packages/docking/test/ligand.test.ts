// Ligand preparation from SMILES: 3D structures keep specified stereo (checked by RDKit reading stereo back from
// the coordinates, and by the PDBQT carrying the same heavy-atom coordinates), protonation at pH 7.4, and typed
// errors for SMILES that are not molecules.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidSmilesError, loadRDKit, poseAtoms, prepareLigand, stereoKept } from '../src/index.js';
import { toolsOrSkip } from './helpers.js';

const { tools, skip } = await toolsOrSkip();

/** RDKit's canonical isomeric SMILES of a mol block, stereo perceived from its 3D coordinates. */
async function smilesFrom3d(sdf: string): Promise<string> {
  const rd = await loadRDKit();
  const m = rd.get_mol(sdf, JSON.stringify({ removeHs: true }));
  if (!m?.is_valid()) throw new Error(`RDKit cannot read the 3D structure:\n${sdf}`);
  try {
    return m.get_smiles();
  } finally {
    m.delete();
  }
}

async function canonical(smiles: string): Promise<string> {
  const rd = await loadRDKit();
  const m = rd.get_mol(smiles);
  if (!m?.is_valid()) throw new Error(`RDKit cannot read ${smiles}`);
  try {
    return m.get_smiles();
  } finally {
    m.delete();
  }
}

/** Heavy-atom coordinates of a mol block, as sorted strings (to compare with the PDBQT's). */
function sdfHeavyCoords(sdf: string): number[][] {
  const lines = sdf.split('\n');
  const n = Number(lines[3]!.slice(0, 3));
  const out: number[][] = [];
  for (let i = 4; i < 4 + n; i++) {
    const l = lines[i]!;
    if (l.slice(31, 34).trim() === 'H') continue;
    out.push([l.slice(0, 10), l.slice(10, 20), l.slice(20, 30)].map(Number));
  }
  return out;
}

/**
 * Whether two atom lists hold the same points in any order, each coordinate within `tol`: PDBQT rounds to
 * 3 decimals from the 4 of the SDF, so a coordinate such as -1.0625 may be written -1.063 where toFixed(3) of
 * the SDF's gives -1.062.
 */
function samePoints(a: number[][], b: number[][], tol = 0.0011): boolean {
  if (a.length !== b.length) return false;
  const used = new Array<boolean>(b.length).fill(false);
  return a.every((p) => {
    const j = b.findIndex((q, k) => !used[k] && q.every((v, d) => Math.abs(v - p[d]!) <= tol));
    if (j < 0) return false;
    used[j] = true;
    return true;
  });
}

const STEREO_PAIRS: Array<[string, string, string]> = [
  // Neutral at pH 7.4, so the protonated SMILES is the input: stereo can be compared directly.
  ['tetrahedral centre', 'C[C@H](O)c1ccccc1', 'C[C@@H](O)c1ccccc1'],
  ['E/Z double bond', 'C/C=C/C(=O)OC', 'C/C=C\\C(=O)OC'],
  ['two ring centres', 'O[C@@H]1CCCC[C@H]1O', 'O[C@@H]1CCCC[C@@H]1O'],
];

for (const [what, a, b] of STEREO_PAIRS) {
  test(`3D structures keep the SMILES stereo: ${what}`, { skip }, async () => {
    const [la, lb] = [await prepareLigand(a, { tools }), await prepareLigand(b, { tools })];
    const [sa, sb] = [await smilesFrom3d(la.sdf), await smilesFrom3d(lb.sdf)];
    assert.equal(sa, await canonical(a), `${a} built as ${sa}`);
    assert.equal(sb, await canonical(b), `${b} built as ${sb}`);
    assert.notEqual(sa, sb, 'the two stereoisomers give different 3D structures');
    for (const l of [la, lb]) {
      // The PDBQT Vina docks is that same conformer: the same heavy-atom coordinates.
      const fromPdbqt = poseAtoms(l.pdbqt).map((x) => [x.x, x.y, x.z]);
      const fromSdf = sdfHeavyCoords(l.sdf);
      assert.ok(samePoints(fromPdbqt, fromSdf), `PDBQT ${JSON.stringify(fromPdbqt)} vs SDF ${JSON.stringify(fromSdf)}`);
    }
  });
}

test('stereo survives protonation: a chiral amine is built as its ammonium with the same configuration', {
  skip,
}, async () => {
  for (const smi of ['C[C@H](N)c1ccccc1', 'C[C@@H](N)c1ccccc1']) {
    const l = await prepareLigand(smi, { tools });
    assert.match(l.protonated_smiles, /NH3\+/, `the amine is protonated at pH 7.4: ${l.protonated_smiles}`);
    assert.equal(await smilesFrom3d(l.sdf), await canonical(l.protonated_smiles));
    // The protonated SMILES keeps the input's configuration: with its charge removed it is the input.
    assert.equal(await canonical(l.protonated_smiles.replace('[NH3+]', 'N')), await canonical(smi));
  }
});

test('stereoKept rejects a 3D structure of the other enantiomer or the other double-bond isomer', {
  skip,
}, async () => {
  const rd = await loadRDKit();
  const r = await prepareLigand('C[C@H](O)c1ccccc1', { tools });
  assert.deepEqual(stereoKept(rd, 'C[C@H](O)c1ccccc1', r.sdf), { ok: true });
  assert.equal(stereoKept(rd, 'C[C@@H](O)c1ccccc1', r.sdf).ok, false);
  assert.deepEqual(stereoKept(rd, 'CC(O)c1ccccc1', r.sdf), { ok: true }, 'an unspecified centre matches either');
  const e = await prepareLigand('C/C=C/C(=O)OC', { tools });
  assert.equal(stereoKept(rd, 'C/C=C\\C(=O)OC', e.sdf).ok, false);
});

test('protonation at pH 7.4: acids deprotonated, aliphatic amines protonated, torsions counted', { skip }, async () => {
  const l = await prepareLigand('NCCCC(=O)O', { tools }); // GABA: a zwitterion at pH 7.4
  assert.match(l.protonated_smiles, /\[O-\]/);
  assert.match(l.protonated_smiles, /\[NH3\+\]/);
  assert.equal(l.heavy_atoms, 7);
  assert.ok(l.torsions >= 3, `GABA has rotatable bonds: ${l.torsions}`);
  assert.match(l.pdbqt, /^ROOT/m);
  const neutral = await prepareLigand('NCCCC(=O)O', { tools, ph: 1 });
  assert.doesNotMatch(neutral.protonated_smiles, /\[O-\]/, `pH 1: ${neutral.protonated_smiles}`);
});

test('a SMILES that is not a molecule is a typed 400 naming the field', { skip }, async () => {
  const bad = ['C1CC', 'CC(C)(C', 'C(C)(C)(C)(C)C', 'c1cccc1', 'Xx'];
  for (const smi of bad) {
    await assert.rejects(prepareLigand(smi, { tools }), (e: unknown) => {
      assert.ok(e instanceof InvalidSmilesError, `${smi}: ${e}`);
      assert.equal(e.code, 'invalid_smiles');
      assert.equal(e.status, 400);
      assert.equal(e.problems?.[0]?.path, '/smiles');
      return true;
    });
  }
  await assert.rejects(prepareLigand('CCO.[Na+]', { tools }), /more than one fragment/);
  await assert.rejects(prepareLigand('C'.repeat(501), { tools }), (e: unknown) => {
    assert.equal((e as { code: string }).code, 'invalid_parameters');
    assert.match((e as Error).message, /at most 500/);
    return true;
  });
  await assert.rejects(prepareLigand('C'.repeat(121), { tools }), /121 heavy atoms/);
});
