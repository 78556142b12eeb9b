import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  validateRequest,
  InvalidRequestError,
  DEFAULT_CONSTRAINTS,
  defaultMaxEvaluations,
} from '@evident/compound-generation';

const seed = {
  target_uniprot: 'P00533',
  binding_site: { residues: ['K721', 'L834', 'T790'] },
  constraints: { mw_range: [300, 500], logp_range: [1, 5], hbd_max: 3, hba_max: 7 },
  num_molecules: 100,
};

async function problems(body: unknown): Promise<Array<{ path: string; message: string }>> {
  try {
    await validateRequest(body);
  } catch (e) {
    assert.ok(e instanceof InvalidRequestError);
    assert.equal(e.code, 'invalid_parameters');
    return [...e.problems];
  }
  assert.fail('expected InvalidRequestError');
}

test('the seed request is accepted and defaults are filled in', async () => {
  const input = await validateRequest(seed);
  assert.deepEqual(input.constraints, { mw_range: [300, 500], logp_range: [1, 5], hbd_max: 3, hba_max: 7 });
  assert.equal(input.num_molecules, 100);
  assert.equal(input.options.max_evaluations, defaultMaxEvaluations(100));
  const minimal = await validateRequest({ target_uniprot: 'A0A024R161', binding_site: { residues: ['D855'] } });
  assert.deepEqual(minimal.constraints, DEFAULT_CONSTRAINTS);
  assert.equal(minimal.num_molecules, 20);
});

test('bad fields are named by JSON pointer', async () => {
  const cases: Array<[unknown, string, RegExp]> = [
    [{ ...seed, target_uniprot: 'EGFR' }, '/target_uniprot', /UniProtKB accession/],
    [{ ...seed, binding_site: { residues: ['K721', 'X12'] } }, '/binding_site/residues/1', /one-letter/],
    [{ ...seed, binding_site: { residues: ['K0'] } }, '/binding_site/residues/0', /positive position/],
    [{ ...seed, binding_site: { residues: [] } }, '/binding_site/residues', /1 to 50/],
    [{ ...seed, constraints: { mw_range: [500, 300] } }, '/constraints/mw_range', /must not exceed/],
    [{ ...seed, constraints: { mw_range: [-10, 300] } }, '/constraints/mw_range', /within/],
    [{ ...seed, constraints: { mw_range: [10, 50] } }, '/constraints/mw_range', /below 100/],
    [{ ...seed, constraints: { logp_range: [1] } }, '/constraints/logp_range', /two numbers/],
    [{ ...seed, constraints: { hbd_max: -1 } }, '/constraints/hbd_max', /non-negative integer/],
    [{ ...seed, constraints: { hba_max: 2.5 } }, '/constraints/hba_max', /non-negative integer/],
    [{ ...seed, num_molecules: 0 }, '/num_molecules', /between 1 and 1000/],
    [{ ...seed, num_molecules: 1001 }, '/num_molecules', /between 1 and 1000/],
    [{ ...seed, reference_ligands: ['c1ccccc1', 'C1CC'] }, '/reference_ligands/1', /invalid SMILES "C1CC"/],
    [{ ...seed, options: { similarity_cap: 1.5 } }, '/options/similarity_cap', /\(0, 1\]/],
    [{ ...seed, options: { seed: -1 } }, '/options/seed', /integer/],
    [{ ...seed, colour: 'blue' }, '/colour', /unknown field/],
  ];
  for (const [body, path, message] of cases) {
    const p = await problems(body);
    const hit = p.find((x) => x.path === path);
    assert.ok(hit, `${path} not reported for ${JSON.stringify(body)}: ${JSON.stringify(p)}`);
    assert.match(hit.message, message);
  }
});

test('several problems are reported together', async () => {
  const p = await problems({
    target_uniprot: 'x',
    binding_site: { residues: ['K721'] },
    num_molecules: -3,
    constraints: { hbd_max: 'two' },
  });
  assert.deepEqual(p.map((x) => x.path).sort(), ['/constraints/hbd_max', '/num_molecules', '/target_uniprot']);
});
