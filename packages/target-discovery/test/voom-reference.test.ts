// filterByExpr + TMM + voom + limma on the simulated counts against R (limma 3.54.1, edgeR 3.40.2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discoverTargets, TABLE_COLUMNS } from '@evident/target-discovery';
import { at, compare, ref, refTable, refValue } from './helpers.js';

test('voom pipeline matches R: same filterByExpr genes, TMM 1e-6, voom t 1e-4 rel', () => {
  const result = discoverTargets({
    expression_matrix: ref('sim_rnaseq_counts.csv'),
    metadata: ref('sim_rnaseq_meta.csv'),
    condition_column: 'condition',
    case_value: 'tumor',
    control_value: 'control',
    options: { include_druggability: false },
  });
  const s = result.summary;
  assert.equal(s.pipeline.name, 'limma-voom');
  assert.equal(s.pipeline.data_type, 'counts');
  const expected = refTable('sim_rnaseq_voom_limma.csv');
  const ids = result.table.rows.map((r) => r[0]);
  assert.deepEqual(ids, [...expected.keys()], 'filterByExpr keeps exactly the genes R keeps');
  assert.equal(s.pipeline.features_removed.low_expression, 10000 - 7680);

  const tmm = refTable('sim_rnaseq_tmm.csv');
  const norm = s.pipeline.normalization!.samples;
  for (const smp of norm) {
    const libSize = refValue(tmm, smp.sample_id, 'lib.size');
    const normFactor = refValue(tmm, smp.sample_id, 'norm.factors');
    assert.equal(smp.lib_size, libSize);
    const msg = `${smp.sample_id} TMM ${smp.norm_factor} vs ${normFactor}`;
    assert.ok(Math.abs(smp.norm_factor - normFactor) < 1e-6, msg);
  }
  const col = (name: (typeof TABLE_COLUMNS)[number]) => TABLE_COLUMNS.indexOf(name);
  const rows = result.table.rows;
  const pick = (refCol: string, ourCol: (typeof TABLE_COLUMNS)[number]) =>
    compare(
      rows.map((r) => r[col(ourCol)] as number),
      rows.map((r) => refValue(expected, r[0], refCol)),
    );
  const d = {
    logFC: pick('logFC', 'log2_fold_change'),
    AveExpr: pick('AveExpr', 'average_expression'),
    t: pick('t', 't'),
    p: pick('P.Value', 'p_value'),
    B: pick('B', 'b'),
  };
  const tmmDiff = Math.max(...norm.map((x) => Math.abs(x.norm_factor - refValue(tmm, x.sample_id, 'norm.factors'))));
  console.log('# sim counts vs R voom max differences', JSON.stringify({ ...d, tmm: tmmDiff }));
  assert.ok(d.t.maxRel < 1e-4, `t ${d.t.maxRel}`);
  assert.ok(d.logFC.maxAbs < 1e-6);
  assert.ok(d.p.maxRel < 1e-4);
});

test('covariates enter the design additively', () => {
  const result = discoverTargets({
    expression_matrix: ref('sim_rnaseq_counts.csv'),
    metadata: ref('sim_rnaseq_meta.csv'),
    condition_column: 'condition',
    case_value: 'tumor',
    control_value: 'control',
    options: { include_druggability: false, covariates: ['batch'] },
  });
  assert.equal(result.summary.design.formula, '~ condition + batch');
  assert.deepEqual(result.summary.design.columns, ['(Intercept)', 'condition: tumor vs control', 'batchb2']);
  // One more coefficient: one fewer residual df per gene, so the statistics differ from the no-batch fit.
  const expected = refTable('sim_rnaseq_voom_limma.csv');
  const t = result.table.rows.map((r) => r[5]);
  const tRef = result.table.rows.map((r) => refValue(expected, r[0], 't'));
  const d = compare(t, tRef);
  let meanAbs = 0;
  t.forEach((v, i) => {
    meanAbs += Math.abs(v - at(tRef, i)) / t.length;
  });
  assert.ok(d.maxAbs > 1e-3, `t should move with a batch term (${d.maxAbs})`);
  assert.ok(meanAbs < 0.5, `but only a little: the simulated batch has no effect (${meanAbs})`);
});
