// The 'cg' job kind driven directly: schema, prepare (validation -> JSON-pointer problems), estimate, run, CSV.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { cgKind } from '../../src/kinds/cg/index.js';
import { EvidentError } from '@evident/contract';
import type { JobRunContext } from '../../src/kinds/job-kind.js';
import type { GenerationInput, GenerationResult } from '@evident/compound-generation';

const seed = {
  target_uniprot: 'P00533',
  binding_site: { residues: ['K721', 'L834', 'T790'] },
  constraints: { mw_range: [300, 500], logp_range: [1, 5], hbd_max: 3, hba_max: 7 },
  num_molecules: 100,
};

test('request schema: the seed body validates; unknown fields and wrong shapes are refused', () => {
  const check = TypeCompiler.Compile(cgKind.requestSchema);
  assert.equal(cgKind.id, 'cg');
  assert.equal(cgKind.route, '/v1/compounds/generate');
  assert.ok(check.Check(seed));
  assert.ok(
    check.Check({
      ...seed,
      callback_url: 'https://example.org/hook',
      reference_ligands: ['c1ccccc1'],
      options: { seed: 3, similarity_cap: 0.5, max_evaluations: 1000 },
    }),
  );
  assert.equal(check.Check({ ...seed, extra: 1 }), false);
  assert.equal(check.Check({ ...seed, options: { temperature: 1 } }), false);
  // chemfilters: covalent design is an option of the engine, so the schema passes it through
  assert.ok(check.Check({ ...seed, options: { covalent_design: true } }));
  assert.equal(check.Check({ ...seed, options: { covalent_design: 'yes' } }), false);
  assert.equal(check.Check({ ...seed, constraints: { mw_range: [300] } }), false);
  assert.equal(check.Check({ ...seed, num_molecules: 1001 }), false);
  const { target_uniprot: _, ...missing } = seed;
  assert.equal(check.Check(missing), false);
});

async function problems(body: unknown): Promise<Array<{ path: string; message: string }>> {
  try {
    await cgKind.prepare(body as never);
  } catch (e) {
    assert.ok(e instanceof EvidentError, String(e));
    assert.equal(e.code, 'invalid_parameters');
    assert.equal(e.status, 400);
    return [...(e.problems ?? [])];
  }
  assert.fail('expected an EvidentError');
}

test('prepare: semantic problems name the field by JSON pointer', async () => {
  const cases: Array<[unknown, string]> = [
    [{ ...seed, target_uniprot: 'EGFR_HUMAN' }, '/target_uniprot'],
    [{ ...seed, binding_site: { residues: ['K721', 'Lys834'] } }, '/binding_site/residues/1'],
    [{ ...seed, constraints: { mw_range: [500, 300] } }, '/constraints/mw_range'],
    [{ ...seed, constraints: { logp_range: [-50, 5] } }, '/constraints/logp_range'],
    [{ ...seed, reference_ligands: ['CCO', 'C1CC'] }, '/reference_ligands/1'],
  ];
  for (const [body, path] of cases) {
    const p = await problems(body);
    assert.ok(
      p.some((x) => x.path === path),
      `${path}: ${JSON.stringify(p)}`,
    );
  }
  const bad = await problems({ ...seed, reference_ligands: ['not-a-smiles'] });
  assert.match(bad[0]!.message, /not-a-smiles/);
});

test('prepare stores a JSON-serialisable input with defaults; estimate is a sane interval', async () => {
  const input = (await cgKind.prepare({
    ...seed,
    callback_url: 'https://example.org/hook',
  } as never)) as GenerationInput;
  assert.deepEqual(JSON.parse(JSON.stringify(input)), input);
  assert.equal(input.num_molecules, 100);
  assert.equal(input.options.seed, 42);
  const [lo, hi] = cgKind.estimateSeconds(input);
  // 100 molecules docked at Vina's default exhaustiveness: hours on a small machine, as the seed's '2-3 hours' says
  assert.ok(lo > 0 && lo < hi && hi < 48 * 3600, `${lo}..${hi}`);
  const small = await cgKind.prepare({ ...seed, num_molecules: 5 } as never);
  assert.ok(cgKind.estimateSeconds(small)[1] <= hi);
  // docking is what costs: the same request without it is estimated in seconds to minutes
  const surrogate = await cgKind.prepare({ ...seed, options: { docking: false } } as never);
  const [, shi] = cgKind.estimateSeconds(surrogate);
  assert.ok(shi < 3600 && shi < lo, `without docking ${shi} s; with docking from ${lo} s`);
  const cheaper = await cgKind.prepare({ ...seed, options: { docking_exhaustiveness: 1 } } as never);
  assert.ok(cgKind.estimateSeconds(cheaper)[1] < hi, 'a lower exhaustiveness is estimated cheaper');
});

function context(signal = new AbortController().signal) {
  const seen: Array<[string, number]> = [];
  const ctx: JobRunContext = { progress: (stage, percent) => seen.push([stage, percent]), signal };
  return { ctx, seen };
}

test('run: a small job returns the results document; toCsv gives the molecules table', async () => {
  const input = await cgKind.prepare({
    ...seed,
    num_molecules: 4,
    // the surrogate path (the docked path runs over HTTP in cg-target.test.ts)
    options: { seed: 11, max_evaluations: 400, population_size: 30, docking: false },
  } as never);
  const { ctx, seen } = context();
  const result = (await cgKind.run(input, ctx)) as GenerationResult;
  assert.equal(result.target.uniprot, 'P00533');
  assert.deepEqual(result.target.residues, ['K721', 'L834', 'T790']);
  assert.deepEqual(result.constraints, { mw_range: [300, 500], logp_range: [1, 5], hbd_max: 3, hba_max: 7 });
  assert.ok(result.molecules.length >= 1);
  for (const m of result.molecules) {
    assert.ok(m.properties.mw >= 300 && m.properties.mw <= 500);
    assert.ok(m.properties.hbd <= 3 && m.properties.hba <= 7);
    assert.match(m.svg, /^<\?xml|^<svg/);
  }
  for (const k of [
    'requested',
    'returned',
    'evaluations',
    'runtime_s',
    'stop_reason',
    'validity',
    'uniqueness',
    'novelty',
    'internal_diversity',
    'constraint_pass_rate',
    'mean_qed',
    'mean_sa',
  ]) {
    assert.ok(k in result.summary, k);
  }
  assert.ok(seen.length > 0 && seen.every(([, p]) => p >= 0 && p <= 100));
  assert.equal(seen.at(-1)![1], 100);
  const csv = cgKind.toCsv(result).trim().split('\n');
  assert.match(csv[0]!, /^rank,smiles,inchikey,mw,/);
  assert.equal(csv.length, result.molecules.length + 1);
});

test('run honours cancellation', async () => {
  const input = await cgKind.prepare({ ...seed, options: { max_evaluations: 100000, docking: false } } as never);
  const ac = new AbortController();
  const ctx: JobRunContext = {
    progress: (stage) => {
      if (stage === 'evolving') ac.abort(new Error('cancelled by test'));
    },
    signal: ac.signal,
  };
  await assert.rejects(cgKind.run(input, ctx), /cancelled by test/);
});
