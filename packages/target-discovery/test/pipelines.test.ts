// Data-type detection and the pipelines without an R oracle here (limma-trend), plus NA handling for counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discoverTargets, eBayes, lmFit, fitFDist, syntheticStudy, detectDataType } from '@evident/target-discovery';
import { at } from './helpers.js';

const study = syntheticStudy({ genes: 800, planted: 30, seed: 5 });

function toTpm(csv: string): string {
  const [header, ...lines] = csv.trim().split('\n');
  const rows = lines.map((l) => l.split(','));
  const n = at(rows, 0).length - 1;
  const lib = Array.from({ length: n }, (_, j) => rows.reduce((s, r) => s + Number(r[j + 1]), 0));
  const tpm = (v: string, j: number) => ((Number(v) / at(lib, j)) * 1e6 + 0.013).toFixed(4);
  return [header, ...rows.map((r) => [r[0], ...r.slice(1).map(tpm)].join(','))].join('\n');
}

test('TPM-like values run log2(x + 1) + limma-trend and recover planted genes', () => {
  const r = discoverTargets({
    expression_matrix: toTpm(study.countsCsv),
    metadata: study.metadataCsv,
    condition_column: 'condition',
    case_value: 'tumor',
    control_value: 'normal',
    options: { include_druggability: false },
  });
  assert.equal(r.summary.pipeline.name, 'limma-trend');
  assert.equal(r.summary.pipeline.data_type, 'non_log_expression');
  const found = new Set(r.targets.map((t) => t.gene_symbol));
  const recovered = study.planted.filter((p) => found.has(p.symbol)).length;
  assert.ok(recovered >= 0.8 * study.planted.length, `${recovered}/${study.planted.length}`);
});

test('detection: counts, log values, unlogged values', () => {
  const m = (vals: number[]) => ({ nrow: vals.length / 2, ncol: 2, data: Float64Array.from(vals) });
  assert.equal(detectDataType(m([0, 5, 120, 3000, 7, 0])).data_type, 'counts');
  assert.equal(detectDataType(m([5.2, 7.1, 12.9, 3.3, 8.8, 6.0])).data_type, 'log_expression');
  assert.equal(detectDataType(m([-1.2, 0.4, 2.2, -0.1, 0.3, 1.0])).data_type, 'log_expression');
  assert.equal(detectDataType(m([0.5, 12.5, 15000.2, 320.7, 2.25, 80.1])).data_type, 'non_log_expression');
});

test('fitFDist with a constant covariate falls back to the plain fit', () => {
  const x = Array.from({ length: 200 }, (_, i) => 0.5 + Math.abs(Math.sin(i * 1.3)));
  const df = new Array(200).fill(4);
  const a = fitFDist(x, df);
  const b = fitFDist(x, df, new Array(200).fill(3));
  assert.equal(a.df2, b.df2);
  assert.equal(a.scale[0], b.scale[0]);
});

test('limma-trend prior follows intensity when variance depends on it', () => {
  // Variance falls with mean: the trended prior must be larger at low intensity than at high intensity.
  const G = 400;
  const n = 6;
  const data = new Float64Array(G * n);
  let seed = 1;
  const rand = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647 - 0.5;
  };
  const amean = new Float64Array(G);
  for (let g = 0; g < G; g++) {
    const mean = 2 + (10 * g) / G;
    amean[g] = mean;
    const sd = 2 / mean;
    for (let j = 0; j < n; j++) data[g * n + j] = mean + sd * rand() * 3;
  }
  const x = Float64Array.from([1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1]);
  const fit = lmFit({ nrow: G, ncol: n, data }, { n, p: 2, x, columns: ['i', 'g'] });
  const eb = eBayes(fit, 1, { trend: true });
  assert.equal(eb.s2Prior.length, G);
  assert.ok(at(eb.s2Prior, 10) > 3 * at(eb.s2Prior, G - 10), `${eb.s2Prior[10]} vs ${eb.s2Prior[G - 10]}`);
});

test('count features with missing values are left out and reported', () => {
  const csv = study.countsCsv.replace(/^(EGFR,)\d+/m, '$1NA');
  const r = discoverTargets({
    expression_matrix: csv,
    metadata: study.metadataCsv,
    condition_column: 'condition',
    case_value: 'tumor',
    control_value: 'normal',
    options: { include_druggability: false },
  });
  assert.equal(r.summary.pipeline.features_removed.missing_values, 1);
  assert.ok(!r.table.rows.some((row) => row[0] === 'EGFR'));
});

test('raw p-value thresholds and a stricter fold change change what is significant', () => {
  const base = {
    expression_matrix: study.countsCsv,
    metadata: study.metadataCsv,
    condition_column: 'condition',
    case_value: 'tumor',
    control_value: 'normal',
  };
  const adj = discoverTargets({ ...base, options: { include_druggability: false } });
  const raw = discoverTargets({ ...base, options: { include_druggability: false, pvalue_type: 'raw' } });
  const strict = discoverTargets({ ...base, options: { include_druggability: false, min_fold_change: 4 } });
  assert.ok(raw.summary.significant >= adj.summary.significant);
  assert.ok(strict.summary.significant < adj.summary.significant);
  assert.ok(strict.targets.length > 0, 'some targets pass the stricter fold change');
  for (const t of strict.targets) assert.ok(Math.abs(t.log2_fold_change) >= 2);
  assert.equal(adj.summary.druggable_significant, null);
  assert.ok(adj.targets.every((t) => t.druggability === null));
});
