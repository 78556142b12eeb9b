// DESeq2 through discoverTargets against R (DESeq2 1.38.3: DESeq() + results(), design ~ condition).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discoverTargets, TABLE_COLUMNS, TargetDiscoveryInputError } from '@evident/target-discovery';
import { ref } from './helpers.js';

const NA = (v: string) => (v === 'NA' ? NaN : Number(v));

function reference() {
  const [, ...lines] = ref('sim_rnaseq_deseq2.csv').trim().split('\n');
  return new Map(
    lines.map((l) => {
      const [id = '', baseMean, lfc, se, stat, p, padj] = l.split(',');
      return [id, { baseMean: NA(baseMean!), lfc: NA(lfc!), se: NA(se!), stat: NA(stat!), p: NA(p!), padj: NA(padj!) }];
    }),
  );
}

const request = (method: string, extra: Record<string, unknown> = {}) => ({
  expression_matrix: ref('sim_rnaseq_counts.csv'),
  metadata: ref('sim_rnaseq_meta.csv'),
  condition_column: 'condition',
  case_value: 'tumor',
  control_value: 'control',
  options: { include_druggability: false, method, ...extra } as never,
});

test('DESeq2 matches R: log2FC 1e-6 abs, Wald statistic 1e-4 rel, same NA pattern in padj', () => {
  const result = discoverTargets(request('deseq2'));
  const pl = result.summary.pipeline;
  assert.equal(pl.name, 'deseq2');
  assert.equal(pl.method, 'deseq2');
  assert.match(pl.method_reason, /requested/);
  assert.equal(pl.statistic, 'wald_z');
  assert.equal(pl.deseq2?.dispersion_trend.type, 'parametric');
  const expected = reference();
  const col = (n: (typeof TABLE_COLUMNS)[number]) => TABLE_COLUMNS.indexOf(n);
  const rows = result.table.rows;
  assert.equal(rows.length, expected.size, 'DESeq2 reports every gene (no filterByExpr)');
  let lfc = 0;
  let stat = 0;
  let padjRel = 0;
  let naMismatch = 0;
  let naCount = 0;
  for (const r of rows) {
    const e = expected.get(r[0] as string);
    assert.ok(e, `gene ${r[0]} in the reference`);
    const ours = {
      lfc: r[col('log2_fold_change')] as number,
      stat: r[col('t')] as number,
      padj: r[col('adjusted_p_value')] as number,
    };
    if (Number.isNaN(e.lfc)) assert.ok(Number.isNaN(ours.lfc), `${r[0]}: R has no fold change`);
    else lfc = Math.max(lfc, Math.abs(ours.lfc - e.lfc));
    if (Number.isFinite(e.stat)) stat = Math.max(stat, Math.abs(ours.stat / e.stat - 1));
    if (Number.isNaN(e.padj)) naCount++;
    if (Number.isNaN(e.padj) !== Number.isNaN(ours.padj)) naMismatch++;
    else if (Number.isFinite(e.padj)) padjRel = Math.max(padjRel, Math.abs(ours.padj / e.padj - 1));
  }
  console.log('# sim counts vs R DESeq2 max differences', JSON.stringify({ lfc, stat, padjRel, naMismatch, naCount }));
  assert.ok(naCount > 100, 'the reference filters genes (independent filtering and Cook outliers)');
  assert.equal(naMismatch, 0, 'same NA pattern in padj');
  assert.ok(lfc < 1e-6, `log2FC ${lfc}`);
  assert.ok(stat < 1e-4, `Wald statistic ${stat}`);
  const sf = pl.normalization!.samples;
  assert.equal(pl.normalization!.method, 'median-of-ratios');
  assert.ok(Math.abs(sf[0]!.norm_factor - 1.02581380984521) < 1e-12, `size factor ${sf[0]!.norm_factor}`);
});

test('auto explains its choice; deseq2 refuses non-count data naming options.method', () => {
  const auto = discoverTargets(request('auto'));
  assert.equal(auto.summary.pipeline.method, 'voom');
  assert.match(auto.summary.pipeline.method_reason, /^auto: .*counts.*voom/);
  const logValues = ref('sim_rnaseq_counts.csv')
    .trim()
    .split('\n')
    .map((l, i) =>
      i === 0
        ? l
        : l
            .split(',')
            .map((v, j) => (j === 0 ? v : String(Math.log2(Number(v) + 1))))
            .join(','),
    )
    .join('\n');
  assert.throws(
    () => discoverTargets({ ...request('deseq2'), expression_matrix: logValues }),
    (e: unknown) =>
      e instanceof TargetDiscoveryInputError &&
      e.field === 'options.method' &&
      e.problems?.[0]?.path === '/options/method' &&
      /fractional/.test(e.message),
  );
  assert.throws(
    () => discoverTargets(request('magic')),
    (e: unknown) => e instanceof TargetDiscoveryInputError && e.field === 'options.method',
  );
});

test('deseq2 with a covariate fits the GLM design (no group shortcut) and stays close to the plain fit', () => {
  const plain = discoverTargets(request('deseq2'));
  const withBatch = discoverTargets(request('deseq2', { covariates: ['batch'] }));
  assert.equal(withBatch.summary.design.formula, '~ condition + batch');
  const lfcCol = TABLE_COLUMNS.indexOf('log2_fold_change');
  let diff = 0;
  let n = 0;
  plain.table.rows.forEach((r, i) => {
    const a = r[lfcCol] as number;
    const b = withBatch.table.rows[i]![lfcCol] as number;
    if (Number.isFinite(a) && Number.isFinite(b)) {
      diff += Math.abs(a - b);
      n++;
    }
  });
  assert.ok(diff / n > 1e-6 && diff / n < 0.1, `mean |ΔLFC| ${diff / n}`);
});
