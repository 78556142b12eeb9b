// Reading Vina's outputs and checking inputs, without running the tools.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DockingSession,
  dock,
  elementOfType,
  parseScoreOnly,
  bestPoseUnboundAffinities,
  parseVinaOutput,
  poseAtoms,
  prepareReceptor,
  splitModels,
} from '../src/index.js';

const atom = (n: number, x: number, type: string) =>
  `ATOM  ${String(n).padStart(5)}  C   UNL     1    ${x.toFixed(3).padStart(8)}   1.000   2.000  0.00  0.00    +0.000 ${type}`;

const model = (aff: number, lb: number, ub: number, inter: number, intra: number, unbound: number, types: string[]) =>
  [
    `REMARK VINA RESULT: ${aff.toFixed(3).padStart(9)} ${lb.toFixed(3).padStart(10)} ${ub.toFixed(3).padStart(10)}`,
    `REMARK INTER + INTRA:  ${(inter + intra).toFixed(3)}`,
    `REMARK INTER:          ${inter.toFixed(3)}`,
    `REMARK INTRA:          ${intra.toFixed(3)}`,
    `REMARK UNBOUND:        ${unbound.toFixed(3)}`,
    'ROOT',
    ...types.map((t, i) => atom(i + 1, i * 1.5, t)),
    'ENDROOT',
    'TORSDOF 0',
  ].join('\n');

test('parseVinaOutput reads every model with its energies, in file order', () => {
  const a = model(-7.25, 0, 0, -9.5, -0.75, -0.5, ['A', 'OA', 'HD']);
  const b = model(-6.5, 1.25, 3.75, -8.75, -0.5, -0.5, ['C', 'NA']);
  const poses = parseVinaOutput(`MODEL 1\n${a}\nENDMDL\nMODEL 2\n${b}\nENDMDL\n`);
  assert.equal(poses.length, 2);
  assert.deepEqual(
    poses.map(({ pdbqt: _, affinity_corrected: __, ...rest }) => rest),
    [
      { affinity: -7.25, rmsd_lb: 0, rmsd_ub: 0, intermolecular: -9.5, intramolecular: -0.75, unbound: -0.5 },
      { affinity: -6.5, rmsd_lb: 1.25, rmsd_ub: 3.75, intermolecular: -8.75, intramolecular: -0.5, unbound: -0.5 },
    ],
  );
  assert.deepEqual(
    poses.map((p) => p.affinity_corrected),
    bestPoseUnboundAffinities(poses),
  );
  assert.doesNotMatch(poses[0]!.pdbqt, /MODEL|ENDMDL/);
  assert.throws(() => parseVinaOutput('MODEL 1\nROOT\nENDROOT\nENDMDL\n'), /REMARK VINA RESULT/);
});

test("bestPoseUnboundAffinities: the best pose's INTRA as the unbound reference, f recovered from Vina's figures", () => {
  const round3 = (x: number) => Math.round(x * 1000) / 1000;
  for (const f of [1, 0.8954, 0.7]) {
    const energies = [
      { intermolecular: -10.704, intramolecular: -0.576 },
      { intermolecular: -10.057, intramolecular: -0.689 },
      { intermolecular: -8.335, intramolecular: -0.632 },
    ];
    // Vina 1.2.3: the unbound reference from a strained pose the output does not hold.
    const printed = energies.map((e) => ({
      ...e,
      unbound: 3.167,
      affinity: round3(f * (e.intermolecular + e.intramolecular - 3.167)),
    }));
    const corrected = bestPoseUnboundAffinities(printed);
    energies.forEach((e, i) => {
      const expected = f * (e.intermolecular + e.intramolecular - energies[0]!.intramolecular);
      assert.ok(Math.abs(corrected[i]! - expected) < 0.002, `pose ${i}, f ${f}: ${corrected[i]} vs ${expected}`);
    });
    // The best pose scores f·INTER, what --score_only gives it; the ranking is unchanged.
    assert.ok(Math.abs(corrected[0]! - f * energies[0]!.intermolecular) < 0.002);
    assert.ok(corrected[0]! > printed[0]!.affinity + 3 * f);
    // A run whose reference is already the best pose's INTRA is left as printed.
    const right = energies.map((e) => ({
      ...e,
      unbound: -0.576,
      affinity: round3(f * (e.intermolecular + e.intramolecular + 0.576)),
    }));
    bestPoseUnboundAffinities(right).forEach((a, i) => {
      assert.ok(Math.abs(a - right[i]!.affinity) < 0.002);
    });
  }
  assert.deepEqual(bestPoseUnboundAffinities([]), []);
});

test('poseAtoms: heavy atoms of the first model, elements from AutoDock types', () => {
  const text = `MODEL 1\n${model(-7, 0, 0, -9, -1, -1, ['A', 'OA', 'HD', 'Cl', 'NA', 'SA'])}\nENDMDL\nMODEL 2\n${model(-6, 1, 2, -8, -1, -1, ['C'])}\nENDMDL\n`;
  const atoms = poseAtoms(text);
  assert.deepEqual(
    atoms.map((a) => a.element),
    ['C', 'O', 'Cl', 'N', 'S'],
  );
  assert.deepEqual(
    atoms.map((a) => a.x),
    [0, 1.5, 4.5, 6, 7.5],
  );
  assert.equal(splitModels(text).length, 2);
  assert.equal(splitModels('ROOT\nENDROOT\n').length, 1);
  assert.deepEqual(['A', 'C', 'OA', 'N', 'Br', 'Zn', 'Mg', 'HD', 'H', 'F'].map(elementOfType), [
    'C',
    'C',
    'O',
    'N',
    'Br',
    'Zn',
    'Mg',
    'H',
    'H',
    'F',
  ]);
});

test('parseScoreOnly reads the energy report; a report without it is undefined', () => {
  const report = [
    'Estimated Free Energy of Binding   : -10.370 (kcal/mol) [=(1)+(2)+(3)+(4)]',
    '(1) Final Intermolecular Energy    : -14.613 (kcal/mol)',
    '(2) Final Total Internal Energy    : -0.962 (kcal/mol)',
    '(3) Torsional Free Energy          : 4.243 (kcal/mol)',
    "(4) Unbound System's Energy        : -0.962 (kcal/mol)",
  ].join('\n');
  assert.deepEqual(parseScoreOnly(report), {
    affinity: -10.37,
    intermolecular: -14.613,
    intramolecular: -0.962,
    torsional: 4.243,
    unbound: -0.962,
  });
  assert.equal(parseScoreOnly(report.split('\n').slice(0, 3).join('\n')), undefined);
});

test('dock() refuses bad input before running anything, naming each field', async () => {
  const ligand = model(0, 0, 0, 0, 0, 0, ['C']);
  await assert.rejects(
    dock({
      receptor: 'REMARK nothing\n',
      ligand: `MODEL 1\n${ligand}\nENDMDL\n`,
      box: { center: [0, 0, Number.NaN], size: [2, 20, 100] },
      exhaustiveness: 0,
      numModes: 2.5,
      seed: -1,
    }),
    (e: unknown) => {
      const err = e as { code: string; status: number; problems: Array<{ path: string }> };
      assert.equal(err.code, 'invalid_parameters');
      assert.equal(err.status, 400);
      assert.deepEqual(
        err.problems.map((p) => p.path),
        [
          '/receptor',
          '/ligand',
          '/box/center/2',
          '/box/size/0',
          '/box/size/2',
          '/seed',
          '/exhaustiveness',
          '/numModes',
        ],
      );
      return true;
    },
  );
  await assert.rejects(
    dock({ receptor: atom(1, 0, 'C'), ligand: 'ATOM\u0000', box: { center: [0, 0, 0], size: [20, 20, 20] } }),
    /ligand: contains control characters/,
  );
});

test('receptor and session inputs are checked before any tool runs', async () => {
  const water = 'HETATM    1  O   HOH A   1       0.000   0.000   0.000  1.00  0.00           O\nEND\n';
  await assert.rejects(prepareReceptor(water), (e: unknown) => {
    const err = e as { code: string; problems: Array<{ path: string; message: string }> };
    assert.equal(err.code, 'invalid_parameters');
    assert.deepEqual(err.problems, [{ path: '/receptor', message: 'has no ATOM records (no protein atoms)' }]);
    return true;
  });
  await assert.rejects(prepareReceptor(`ATOM  ${'x'.repeat(80)}`, { ph: 15 }), /\/ph: must be a number from 0 to 14/);
  await assert.rejects(
    DockingSession.open({
      receptor: { pdb: water, pdbqt: water } as unknown as { pdb: string },
      box: { center: [0, 0, 0], size: [41, 20, 20] },
      concurrency: 0,
    }),
    (e: unknown) => {
      const paths = (e as { problems: Array<{ path: string }> }).problems.map((p) => p.path);
      assert.deepEqual(paths, ['/receptor', '/box/size/0', '/concurrency']);
      return true;
    },
  );
});
