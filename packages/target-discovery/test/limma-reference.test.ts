// limma on ALL BCR/ABL vs NEG against R limma 3.54.1 (tolerances from the issue).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discoverTargets, TABLE_COLUMNS } from '@evident/target-discovery';
import { compare, ref, refTable, refValue } from './helpers.js';

test('limma on ALL matches R: logFC/AveExpr 1e-8 abs, t/B/p 1e-6 rel', () => {
  const result = discoverTargets({
    expression_matrix: ref('all_bcrabl_expr.csv'),
    metadata: ref('all_bcrabl_meta.csv'),
    condition_column: 'mol.biol',
    case_value: 'BCR/ABL',
    control_value: 'NEG',
    options: { include_druggability: false },
  });
  const s = result.summary;
  assert.equal(s.pipeline.name, 'limma');
  // The reference files hold 37 BCR/ABL and 74 NEG samples (111 columns).
  assert.equal(s.samples.case.ids.length, 37);
  assert.equal(s.samples.control.ids.length, 74);
  assert.equal(s.samples.excluded.length, 0);
  assert.equal(s.features_tested, 12625);
  assert.ok(Math.abs(s.pipeline.df_prior - 2.945611) < 1e-6);
  assert.ok(Math.abs(s.pipeline.s2_prior - 0.08482732) < 1e-8);

  const expected = refTable('all_bcrabl_limma.csv');
  const col = (name: (typeof TABLE_COLUMNS)[number]) => TABLE_COLUMNS.indexOf(name);
  const rows = result.table.rows;
  assert.equal(rows.length, expected.size);
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
    adj: pick('adj.P.Val', 'adjusted_p_value'),
    B: pick('B', 'b'),
  };
  console.log('# ALL vs R limma max differences', JSON.stringify(d));
  assert.ok(d.logFC.maxAbs < 1e-8, `logFC ${d.logFC.maxAbs}`);
  assert.ok(d.AveExpr.maxAbs < 1e-8, `AveExpr ${d.AveExpr.maxAbs}`);
  assert.ok(d.t.maxRel < 1e-6, `t ${d.t.maxRel}`);
  assert.ok(d.B.maxRel < 1e-6, `B ${d.B.maxRel}`);
  assert.ok(d.p.maxRel < 1e-6, `p ${d.p.maxRel}`);
  assert.ok(d.adj.maxRel < 1e-6, `adj p ${d.adj.maxRel}`);
});
