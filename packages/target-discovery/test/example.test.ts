// The generated example study: the pipeline must recover the planted genes (and not much else).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { testOutputPath } from '@evident/testkit';
import { discoverTargets, syntheticStudy } from '@evident/target-discovery';
import { at } from './helpers.js';

test('planted differentially expressed genes are recovered and ranked with druggability', () => {
  const study = syntheticStudy();
  const r = discoverTargets({
    expression_matrix: study.countsCsv,
    metadata: study.metadataCsv,
    condition_column: 'condition',
    case_value: 'tumor',
    control_value: 'normal',
    options: { include_druggability: true, covariates: ['batch'] },
  });
  assert.equal(r.summary.pipeline.name, 'limma-voom');
  const found = new Set(r.targets.map((t) => t.gene_symbol));
  const planted = study.planted.filter((p) => Math.abs(p.log2_fold_change) >= 1.2);
  const recovered = planted.filter((p) => found.has(p.symbol));
  assert.ok(recovered.length >= 0.9 * planted.length, `recovered ${recovered.length} of ${planted.length}`);
  // Directions agree with what was planted.
  for (const p of recovered) {
    const t = r.targets.find((x) => x.gene_symbol === p.symbol)!;
    assert.equal(t.direction, p.log2_fold_change > 0 ? 'up' : 'down', p.symbol);
  }
  // False discoveries stay near the nominal FDR.
  const plantedSet = new Set(study.planted.map((p) => p.symbol));
  const falsePos = r.targets.filter((t) => !plantedSet.has(t.gene_symbol!)).length;
  assert.ok(falsePos <= Math.max(3, 0.1 * r.targets.length), `${falsePos} false positives among ${r.targets.length}`);
  // Druggability is attached and the kinase EGFR carries UniProt and evidence.
  const egfr = r.targets.find((t) => t.gene_symbol === 'EGFR');
  assert.ok(egfr, 'EGFR is a planted target');
  assert.equal(egfr.druggability?.family, 'kinase');
  assert.equal(egfr.uniprot, 'P00533');
  assert.ok(r.summary.druggable_significant! > 5);
  // Ranked by the documented priority score.
  r.targets.slice(1).forEach((t, i) => {
    assert.ok(at(r.targets, i).priority_score >= t.priority_score);
  });
  mkdirSync(testOutputPath(), { recursive: true });
  writeFileSync(testOutputPath('example-volcano.svg'), r.plots.volcano_svg);
  writeFileSync(testOutputPath('example-ma.svg'), r.plots.ma_svg);
});
