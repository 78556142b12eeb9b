// goana, camera and fry against R (limma 3.54.1, org.Hs.eg.db / GO.db 3.16.0) on ALL BCR/ABL vs NEG and on the
// simulated counts through voom (issue 42): the same sets, sizes and directions, p-values and FDRs within 1e-6
// relative (1e-8 absolute floor). The R results are committed (test/reference/*.csv.gz, from enrichment.R), so the
// test runs without R.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import {
  enrich,
  fitContextOf,
  runDiscovery,
  type EnrichmentRow,
  type EnrichmentResult,
} from '@evident/target-discovery';
import { ref } from './helpers.js';

const here = (f: string) => new URL(`./reference/${f}`, import.meta.url);

type RefRow = Record<string, string>;

function readReference(file: string): Map<string, RefRow> {
  const [header = '', ...lines] = gunzipSync(readFileSync(here(file)))
    .toString('utf8')
    .trim()
    .split('\n');
  const cols = header.split(',');
  const out = new Map<string, RefRow>();
  for (const line of lines) {
    const cells = line.split(',');
    const row: RefRow = {};
    cols.forEach((c, k) => {
      row[c] = cells[k] ?? '';
    });
    out.set(`${row.method}|${row.collection}|${row.set_id}`, row);
  }
  return out;
}

/** Max relative error of the p-values, checking each against 1e-6 relative with a 1e-8 absolute floor. */
function agree(ours: EnrichmentRow[], reference: Map<string, RefRow>, method: string, refMethod = method) {
  const expected = [...reference.values()].filter((r) => r.method === refMethod);
  assert.ok(expected.length > 100, `${refMethod}: only ${expected.length} reference sets`);
  assert.equal(ours.length, expected.length, `${method}: ${ours.length} sets, R has ${expected.length}`);
  let maxRel = 0;
  const fields: Array<[keyof EnrichmentRow, string]> = [
    ['p_value', 'p_value'],
    ['fdr', 'fdr'],
    ['p_up', 'p_up'],
    ['p_down', 'p_down'],
    ['p_value_mixed', 'p_value_mixed'],
    ['fdr_mixed', 'fdr_mixed'],
    ['correlation', 'correlation'],
  ];
  for (const row of ours) {
    const r = reference.get(`${refMethod}|${row.collection}|${row.set_id}`);
    assert.ok(r, `${method} ${row.collection} ${row.set_id}: not in R's results`);
    assert.equal(row.size, Number(r.size), `${method} ${row.set_id}: size`);
    assert.equal(row.direction, r.direction, `${method} ${row.set_id}: direction`);
    if (r.up !== '') assert.equal(row.up, Number(r.up), `${row.set_id}: up genes`);
    if (r.down !== '') assert.equal(row.down, Number(r.down), `${row.set_id}: down genes`);
    for (const [ourField, refField] of fields) {
      if (r[refField] === '' || r[refField] === undefined) continue;
      const theirs = Number(r[refField]);
      const mine = row[ourField] as number;
      const err = Math.abs(mine - theirs);
      assert.ok(
        err <= Math.max(1e-8, 1e-6 * Math.abs(theirs)),
        `${method} ${row.set_id} ${ourField}: ${mine} vs R ${theirs}`,
      );
      if (theirs !== 0) maxRel = Math.max(maxRel, err / Math.abs(theirs));
    }
  }
  return maxRel;
}

function check(result: EnrichmentResult, estimated: EnrichmentResult, reference: Map<string, RefRow>, label: string) {
  const by = (r: EnrichmentResult, m: string) => r.rows.filter((x) => x.method === m);
  const figures = {
    goana: agree(by(result, 'goana'), reference, 'goana'),
    camera: agree(by(result, 'camera'), reference, 'camera'),
    camera_estimated: agree(by(estimated, 'camera'), reference, 'camera', 'camera_estimated'),
    fry: agree(by(result, 'fry'), reference, 'fry'),
  };
  console.log(`# ${label} vs R: max relative error`, JSON.stringify(figures));
}

test('ALL BCR/ABL vs NEG: goana, camera (fixed and estimated correlation) and fry match R', () => {
  const annotation = gunzipSync(readFileSync(new URL('./fixtures/hgu95a-annotation.tsv.gz', import.meta.url))).toString(
    'utf8',
  );
  const run = runDiscovery({
    expression_matrix: ref('all_bcrabl_expr.csv'),
    metadata: ref('all_bcrabl_meta.csv'),
    condition_column: 'mol.biol',
    case_value: 'BCR/ABL',
    control_value: 'NEG',
    options: { feature_annotation: annotation, include_druggability: false },
  });
  // R analysed these rows and genes (export-all-features.ts): the engine must still test exactly them
  const features = readFileSync(here('all_bcrabl_features.tsv'), 'utf8').split('\n').slice(1, -1);
  const ctx = fitContextOf(run.de, run.features.geneOf);
  assert.deepEqual(
    ctx.featureIds.map((id, i) => `${id}\t${ctx.genes[i]?.entrez_id ?? ''}`),
    features,
  );
  const reference = readReference('all_bcrabl_enrichment.csv.gz');
  const result = enrich(ctx);
  assert.deepEqual(result.warnings, []);
  const estimated = enrich(ctx, { methods: ['camera'], inter_gene_cor: null });
  check(result, estimated, reference, 'ALL');
  // camera alone takes its lean path (each row's tested effect and residual sum of squares, no effects matrix)
  const cameraAlone = enrich(ctx, { methods: ['camera'] });
  agree(
    cameraAlone.rows.filter((r) => r.method === 'camera'),
    reference,
    'camera',
  );
  assert.ok(result.rows.every((r) => r.leading_genes.length > 0 || r.method === 'goana'));
});

test('simulated counts through voom: goana, camera and fry match R, unannotated rows in the background', () => {
  const run = runDiscovery({
    expression_matrix: ref('sim_rnaseq_counts.csv'),
    metadata: ref('sim_rnaseq_meta.csv'),
    condition_column: 'condition',
    case_value: 'tumor',
    control_value: 'control',
    options: {
      feature_annotation: readFileSync(here('sim_rnaseq_entrez.csv'), 'utf8'),
      include_druggability: false,
      method: 'voom',
    },
  });
  const ctx = fitContextOf(run.de, run.features.geneOf);
  assert.equal(ctx.featureIds.length, 7680);
  assert.ok(ctx.fit?.weights, 'voom weights reach camera and fry');
  const unannotated = ctx.genes.filter((g) => g === undefined).length;
  assert.ok(unannotated > 500, `${unannotated} rows without a gene`);
  const reference = readReference('sim_rnaseq_enrichment.csv.gz');
  const result = enrich(ctx);
  const estimated = enrich(ctx, { methods: ['camera'], inter_gene_cor: null });
  check(result, estimated, reference, 'simulated voom');
});
