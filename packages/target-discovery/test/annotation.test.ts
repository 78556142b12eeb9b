// Feature annotation and collapsing, on the ALL data (Affymetrix HG-U95Av2 probe sets) with the probe annotation
// built by scripts/build-hgu95a-annotation.R (Bioconductor annotate's HG-U95A mapping), and on small inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { discoverTargets, prepareDiscovery, TargetDiscoveryInputError } from '@evident/target-discovery';
import { ref } from './helpers.js';

const annotationTsv = gunzipSync(
  readFileSync(new URL('./fixtures/hgu95a-annotation.tsv.gz', import.meta.url)),
).toString('utf8');
const allExpr = ref('all_bcrabl_expr.csv');
const allMeta = ref('all_bcrabl_meta.csv');
const allRequest = {
  expression_matrix: allExpr,
  metadata: allMeta,
  condition_column: 'mol.biol',
  case_value: 'BCR/ABL',
  control_value: 'NEG',
};

/** probe id -> mean over all 111 samples of the matrix (the ALL request keeps every sample). */
function probeMeans(csv: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of csv.trim().split('\n').slice(1)) {
    const cells = line.split(',');
    const vals = cells.slice(1).map(Number);
    out.set(cells[0]!, vals.reduce((a, b) => a + b, 0) / vals.length);
  }
  return out;
}

test('ALL probe ids alone resolve to no gene, and the summary says which option fixes it', () => {
  const r = discoverTargets(allRequest);
  assert.equal(r.summary.features_total, 12625);
  assert.ok(r.summary.features_resolved < 12625 / 2, `${r.summary.features_resolved} resolved`);
  assert.equal(r.summary.annotation.source, 'feature_ids');
  assert.equal(r.summary.warnings.length, 1);
  assert.match(r.summary.warnings[0]!, /options\.feature_annotation/);
  assert.match(r.summary.warnings[0]!, /options\.annotation_columns/);
});

test('ALL with a probe annotation: genes resolved through the table, one probe set per gene (largest mean)', () => {
  const r = discoverTargets({
    ...allRequest,
    options: { feature_annotation: annotationTsv, max_targets: 100_000 },
  });
  const s = r.summary;
  assert.equal(s.features_total, 12625);
  assert.ok(s.features_resolved > 0.85 * 12625, `${s.features_resolved} resolved`);
  assert.deepEqual(s.warnings, []);
  assert.equal(s.annotation.source, 'feature_annotation');
  assert.deepEqual(
    s.annotation.columns.map((c) => c.kind),
    ['entrez', 'symbol'],
  );
  assert.ok((s.annotation.resolved_by.entrez ?? 0) > 0.9 * s.features_resolved, 'Entrez ids come first');
  // Collapsing: every resolved gene is tested once.
  const c = s.annotation.collapse;
  assert.equal(c.rule, 'max_mean');
  assert.ok(c.genes_with_several_features > 1000, `${c.genes_with_several_features} genes with several probe sets`);
  assert.equal(s.features_tested, 12625 - c.features_collapsed);
  assert.equal(s.annotation.genes + (12625 - s.features_resolved), s.features_tested);
  const symbols = r.table.rows.map((row) => row[1]).filter((x): x is string => x !== null);
  assert.equal(new Set(symbols).size, symbols.length, 'no gene tested twice');
  // The representative of each multi-probe gene is its probe set with the largest mean expression.
  const means = probeMeans(allExpr);
  const multi = r.targets.filter((t) => t.features.length > 1);
  assert.ok(multi.length > 10, `${multi.length} significant genes with several probe sets`);
  for (const t of multi) {
    assert.equal(t.representative_feature, t.feature_id);
    assert.ok(t.features.includes(t.feature_id));
    const best = Math.max(...t.features.map((f) => means.get(f)!));
    assert.equal(means.get(t.feature_id), best, `${t.gene_symbol}: ${t.features.join(', ')}`);
  }
  // Targets now carry genes, UniProt and druggability, and the score no longer ties at the top.
  const top = r.targets.slice(0, 20);
  const named = top.filter((t) => t.gene_symbol !== null && t.druggability !== null).length;
  assert.ok(named >= 15, `${named} of the top 20 have a gene`);
  assert.ok(r.targets.some((t) => t.uniprot !== null && t.druggability?.tier === 1));
  assert.ok(new Set(top.map((t) => t.priority_score)).size > 10, 'scores differ');
  // BCR/ABL samples: an ABL1 probe set is among the strongest, tractable changes.
  const abl1 = r.targets.find((t) => t.gene_symbol === 'ABL1');
  assert.equal(abl1?.druggability?.tier, 1);
  assert.ok((abl1?.rank ?? Infinity) <= 10, `ABL1 rank ${abl1?.rank}`);
});

test("collapse: 'none' tests every probe set and lists each one alone", () => {
  const r = discoverTargets({
    ...allRequest,
    options: { feature_annotation: annotationTsv, collapse: 'none' },
  });
  assert.equal(r.summary.features_tested, 12625);
  assert.equal(r.summary.annotation.collapse.features_collapsed, 0);
  assert.ok(r.targets.every((t) => t.features.length === 1));
});

/** A small log-expression study: genes in rows with a symbol column and an Entrez column before the samples. */
function smallStudy() {
  const samples = ['a1', 'a2', 'a3', 'b1', 'b2', 'b3'];
  const features = [
    ['p1', 'EGFR', '1956', 9, 0],
    ['p2', 'EGFR', '1956', 6, 0], // a second, dimmer probe of EGFR
    ['p3', 'ESR1', '2099', 7, 2],
    ['p4', '', '', 5, 0],
    ['p5', 'GAPDH', '2597', 11, 0],
    ['p6', 'ACTB', '60', 10, 0],
  ] as const;
  const header = ['probe', 'symbol', 'entrez', ...samples].join(',');
  const rows = features.map(([id, sym, ez, base, lift], g) =>
    [id, sym, ez, ...samples.map((_, j) => (base + (j < 3 ? lift : 0) + Math.sin(g * 7 + j) * 0.2).toFixed(3))].join(
      ',',
    ),
  );
  return {
    expression_matrix: [header, ...rows].join('\n'),
    metadata: ['sample,group', ...samples.map((s, j) => `${s},${j < 3 ? 'case' : 'control'}`)].join('\n'),
    condition_column: 'group',
    case_value: 'case',
    control_value: 'control',
  };
}

test('annotation_columns: named matrix columns are identifiers, not samples', () => {
  const req = smallStudy();
  const r = discoverTargets({ ...req, options: { annotation_columns: ['symbol', 'entrez'], min_fold_change: 1 } });
  assert.deepEqual(r.summary.samples.case.ids, ['a1', 'a2', 'a3']);
  assert.equal(r.summary.features_total, 6);
  assert.equal(r.summary.features_resolved, 5);
  assert.equal(r.summary.annotation.source, 'annotation_columns');
  assert.equal(r.summary.features_tested, 5); // p2 collapsed into p1 (larger mean)
  const egfrRow = r.table.rows.find((row) => row[1] === 'EGFR');
  assert.equal(egfrRow?.[0], 'p1');
  assert.ok(!r.table.rows.some((row) => row[0] === 'p2'));
  const esr1 = r.targets.find((t) => t.gene_symbol === 'ESR1');
  assert.equal(esr1?.feature_id, 'p3');
  assert.deepEqual(esr1?.features, ['p3']);
});

test('bad annotation input names the option at fault', () => {
  const req = smallStudy();
  const refuse = (options: Record<string, unknown>, field: string, pattern: RegExp) =>
    assert.throws(
      () => prepareDiscovery({ ...req, options }),
      (e: unknown) => {
        assert.ok(e instanceof TargetDiscoveryInputError);
        assert.equal(e.field, field);
        assert.deepEqual(e.problems?.[0]?.path, `/${field.replace('.', '/')}`);
        assert.match(e.message, pattern);
        return true;
      },
    );
  // The text columns are not samples: without annotation_columns they are non-numeric values.
  refuse({}, 'expression_matrix', /options\.annotation_columns/);
  refuse({ annotation_columns: ['symbol', 'entrez', 'hgnc'] }, 'options.annotation_columns', /no column "hgnc"/);
  refuse({ annotation_columns: ['probe'] }, 'options.annotation_columns', /first column/);
  const numeric = {
    ...req,
    expression_matrix: req.expression_matrix
      .split('\n')
      .map((l) =>
        l
          .split(',')
          .filter((_, c) => c !== 1 && c !== 2)
          .join(','),
      )
      .join('\n'),
  };
  const refuseAnn = (text: string, pattern: RegExp) =>
    assert.throws(
      () => prepareDiscovery({ ...numeric, options: { feature_annotation: text } }),
      (e: unknown) =>
        e instanceof TargetDiscoveryInputError && e.field === 'options.feature_annotation' && pattern.test(e.message),
    );
  refuseAnn('probe,description\np1,epidermal growth factor receptor\n', /no identifier column/);
  refuseAnn('probe,symbol\nx1,EGFR\nx2,ESR1\n', /no feature id/);
  refuseAnn('probe,symbol\np1,EGFR\np1,ESR1\n', /more than once/);
  refuseAnn('probe,symbol\np1,"EGFR\n', /could not be parsed/);
  assert.throws(
    () =>
      prepareDiscovery({
        ...req,
        options: { feature_annotation: 'probe,symbol\np1,EGFR\n', annotation_columns: ['symbol'] },
      }),
    /not both/,
  );
  // Ids of one kind naming two genes leave the feature unresolved; a UniProt isoform resolves to its gene.
  const amb = discoverTargets({
    ...numeric,
    options: { feature_annotation: 'probe_id,entrez_id,uniprot\np1,1956 /// 2099,\np3,,P03372-2\n' },
  });
  assert.equal(amb.summary.annotation.ambiguous, 1);
  assert.equal(amb.summary.annotation.resolved_by.uniprot, 1);
  assert.equal(amb.table.rows.find((row) => row[0] === 'p3')?.[1], 'ESR1');
  assert.equal(amb.table.rows.find((row) => row[0] === 'p1')?.[1], null);
  // A well-formed annotation passes, with features it does not list resolved by their own ids.
  const ok = discoverTargets({
    ...numeric,
    options: { feature_annotation: 'probe\tgene_symbol\np1\tEGFR\np3\tESR1\n' },
  });
  assert.equal(ok.summary.features_resolved, 2);
  assert.match(ok.summary.warnings[0] ?? '', /options\.feature_annotation/);
});
