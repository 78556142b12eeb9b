import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  generateCompounds,
  resultToCsv,
  GenerationAbortedError,
  describeMolecule,
  CSV_COLUMNS,
} from '@evident/compound-generation';
import { tanimotoOfSmiles } from './helpers.js';

const request = {
  target_uniprot: 'P00533',
  binding_site: { residues: ['K721', 'L834', 'T790'] },
  constraints: { mw_range: [300, 450], logp_range: [1, 4], hbd_max: 2, hba_max: 6 },
  num_molecules: 6,
  // the surrogate search alone: the docked search is target.test.ts
  options: { seed: 7, max_evaluations: 600, population_size: 30, similarity_cap: 0.5, docking: false },
};

test('a small run returns valid, unique, diverse molecules that meet every constraint, reproducibly', async () => {
  const a = await generateCompounds(request);
  assert.equal(a.summary.requested, 6);
  assert.ok(a.molecules.length >= 1 && a.molecules.length <= 6);
  assert.ok(['num_molecules_reached', 'evaluation_budget', 'no_progress'].includes(a.summary.stop_reason));
  assert.ok(a.summary.evaluations <= 600);
  const seen = new Set<string>();
  for (const m of a.molecules) {
    // re-derive the properties independently of the run
    const p = await describeMolecule(m.smiles);
    assert.ok(p.mw >= 300 && p.mw <= 450, `${m.smiles} mw ${p.mw}`);
    assert.ok(p.logp >= 1 && p.logp <= 4, `${m.smiles} logp ${p.logp}`);
    assert.ok(p.hbd <= 2 && p.hba <= 6, `${m.smiles} hbd/hba`);
    assert.deepEqual(m.alerts, []);
    assert.match(m.inchikey, /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/);
    assert.match(m.svg, /<svg[\s\S]*<\/svg>/);
    assert.ok(!seen.has(m.smiles));
    seen.add(m.smiles);
    assert.ok(m.scores.total > 0 && m.scores.total <= 1);
  }
  for (let i = 0; i < a.molecules.length; i++)
    for (let j = i + 1; j < a.molecules.length; j++)
      assert.ok((await tanimotoOfSmiles(a.molecules[i]!.smiles, a.molecules[j]!.smiles)) <= 0.5);
  assert.deepEqual(
    a.molecules.map((m) => m.rank),
    a.molecules.map((_, i) => i + 1),
  );
  assert.equal(a.summary.constraint_pass_rate, 1);

  const b = await generateCompounds(request);
  assert.deepEqual(
    b.molecules.map((m) => m.smiles),
    a.molecules.map((m) => m.smiles),
    'same seed, same molecules',
  );
  const c = await generateCompounds({ ...request, options: { ...request.options, seed: 8 } });
  assert.notDeepEqual(
    c.molecules.map((m) => m.smiles),
    a.molecules.map((m) => m.smiles),
  );

  const csv = resultToCsv(a).trim().split('\n');
  assert.equal(csv[0], CSV_COLUMNS.join(','));
  assert.equal(csv.length, a.molecules.length + 1);
  assert.ok(csv[1]!.startsWith(`1,${a.molecules[0]!.smiles},`));
});

test('reference ligands add similarity and novelty terms', async () => {
  const erlotinib = 'COCCOc1cc2ncnc(Nc3cccc(C#C)c3)c2cc1OCCOC';
  const r = await generateCompounds({
    ...request,
    constraints: { mw_range: [250, 500], logp_range: [0, 5] },
    num_molecules: 3,
    reference_ligands: [erlotinib],
    options: { ...request.options, max_evaluations: 300 },
  });
  for (const m of r.molecules) {
    assert.equal(typeof m.scores.reference_similarity, 'number');
    assert.ok(Math.abs(m.scores.novelty! + m.scores.reference_similarity! - 1) < 1e-3);
    assert.notEqual(m.smiles, erlotinib);
  }
});

test('an aborted run stops with a typed error', async () => {
  const ac = new AbortController();
  const p = generateCompounds(
    { ...request, options: { ...request.options, max_evaluations: 100000 } },
    {
      signal: ac.signal,
      progress: (stage) => {
        if (stage === 'evolving') ac.abort();
      },
    },
  );
  await assert.rejects(p, (e: unknown) => e instanceof GenerationAbortedError && e.code === 'aborted');
});

test('infeasible constraints end at the evaluation budget with what passed, and say so', async () => {
  const r = await generateCompounds({
    ...request,
    constraints: { mw_range: [100, 130], logp_range: [4.5, 5], hbd_max: 0, hba_max: 0 },
    num_molecules: 5,
    options: { ...request.options, max_evaluations: 150 },
  });
  assert.equal(r.summary.stop_reason, 'evaluation_budget');
  assert.ok(r.summary.evaluations >= 150);
  assert.ok(r.molecules.length < 5);
  assert.equal(r.summary.returned, r.molecules.length);
});

test('CSV quotes fields that need it (alert SMARTS contain commas)', async () => {
  const r = await generateCompounds({
    ...request,
    num_molecules: 2,
    options: { ...request.options, max_evaluations: 150, allow_alerts: true },
  });
  const fake = {
    ...r,
    molecules: r.molecules
      .slice(0, 1)
      .map((m) => ({ ...m, alerts: ['unwanted:[S,C](=[O,S])[F,Br,Cl,I]', 'pains:x"y'] })),
  };
  const line = resultToCsv(fake).trim().split('\n')[1]!;
  assert.ok(line.endsWith(',"unwanted:[S,C](=[O,S])[F,Br,Cl,I];pains:x""y"'), line);
});
