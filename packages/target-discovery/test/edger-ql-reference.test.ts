// edgeR quasi-likelihood through discoverTargets against R (edgeR 3.40.2: filterByExpr, TMM, estimateDisp,
// glmQLFit, glmQLFTest(coef = 2), topTags(sort.by = "none")).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discoverTargets, edgerQl, TABLE_COLUMNS, TargetDiscoveryInputError } from '@evident/target-discovery';
import { compare, ref, refTable, refValue } from './helpers.js';

const request = (extra: Record<string, unknown> = {}) => ({
  expression_matrix: ref('sim_rnaseq_counts.csv'),
  metadata: ref('sim_rnaseq_meta.csv'),
  condition_column: 'condition',
  case_value: 'tumor',
  control_value: 'control',
  options: { include_druggability: false, method: 'edger-ql', ...extra } as never,
});

test('edgeR-QL matches R: same genes, logFC 1e-6 abs, F 1e-4 rel', () => {
  const result = discoverTargets(request());
  const pl = result.summary.pipeline;
  assert.equal(pl.name, 'edger-ql');
  assert.equal(pl.statistic, 'ql_f');
  assert.match(pl.method_reason, /options\.method = edger-ql/);
  const expected = refTable('sim_rnaseq_edger_ql.csv');
  const rows = result.table.rows;
  assert.deepEqual(
    rows.map((r) => r[0]),
    [...expected.keys()],
    'filterByExpr keeps exactly the genes R keeps',
  );
  const col = (n: (typeof TABLE_COLUMNS)[number]) => TABLE_COLUMNS.indexOf(n);
  const pick = (refCol: string, ours: (typeof TABLE_COLUMNS)[number]) =>
    compare(
      rows.map((r) => r[col(ours)] as number),
      rows.map((r) => refValue(expected, r[0] as string, refCol)),
    );
  const d = {
    logFC: pick('logFC', 'log2_fold_change'),
    logCPM: pick('logCPM', 'average_expression'),
    F: pick('F', 't'),
    p: pick('PValue', 'p_value'),
    fdr: pick('FDR', 'adjusted_p_value'),
  };
  console.log('# sim counts vs R edgeR-QL max differences', JSON.stringify(d));
  assert.ok(d.logFC.maxAbs < 1e-6, `logFC ${d.logFC.maxAbs}`);
  assert.ok(d.F.maxRel < 1e-4, `F ${d.F.maxRel}`);
  assert.ok(d.p.maxRel < 1e-4, `p ${d.p.maxRel}`);
  // The README's figures: common dispersion 0.1951668, df.prior 69.46054.
  assert.ok(Math.abs(pl.edger!.common_dispersion - 0.1951668) < 1e-7, `common ${pl.edger!.common_dispersion}`);
  assert.ok(Math.abs(pl.edger!.df_prior - 69.46054) < 1e-5, `df.prior ${pl.edger!.df_prior}`);
});

test('edgeR-QL refuses fractional values on options.method', () => {
  const frac = ref('sim_rnaseq_counts.csv').replace(/^(GENE00001,)\d+/m, '$1178.25');
  assert.throws(
    () => discoverTargets({ ...request(), expression_matrix: frac }),
    (e: unknown) => (e as { problems?: Array<{ path: string }> }).problems?.[0]?.path === '/options/method',
  );
});

test('edgeR-QL refuses a design without residual degrees of freedom', () => {
  const x = Float64Array.from([1, 1, 0, 1]);
  assert.throws(
    () =>
      edgerQl(
        { nrow: 2, ncol: 2, data: Float64Array.from([10, 20, 30, 40]) },
        { n: 2, p: 2, x, columns: ['a', 'b'] },
        1,
        [1, 1],
      ),
    (e: unknown) => e instanceof TargetDiscoveryInputError && /no residual degrees of freedom/.test(e.message),
  );
});
