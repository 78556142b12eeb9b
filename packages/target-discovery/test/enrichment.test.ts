// Enrichment's inputs and building blocks (issue 42): GMT parsing and its refusals, the GO file, options, and
// the numerical pieces checked against values computed independently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  enrich,
  geneIndex,
  goGeneSets,
  parseGmt,
  TargetDiscoveryInputError,
  type FitContext,
} from '@evident/target-discovery';
import { gaussLegendreUniform, hypergeometricUpper, qnorm } from '../src/enrichment/distributions.js';
import { extremeEigenvalues, symmetricEigenvalues } from '../src/enrichment/eigen.js';

const genes = geneIndex();

function refusal(f: () => unknown, pattern: RegExp) {
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof TargetDiscoveryInputError);
    assert.equal(e.code, 'bad_gene_sets');
    assert.match(e.message, pattern);
    return true;
  });
}

test('GMT: sets resolve through the gene table (symbol, alias, Entrez, Ensembl); unresolved ids are counted', () => {
  const tp53 = genes.bySymbol('TP53')!;
  const gmt = [
    'SET_A\thttps://www.gsea-msigdb.org/x\tTP53\t7157\tEGFR\tNOT_A_GENE_XYZ',
    '',
    `SET_B\tmy set\t${tp53.ensembl_ids[0]}\tBRCA1`,
  ].join('\n');
  const r = parseGmt(gmt, genes);
  assert.equal(r.sets.length, 2);
  assert.deepEqual(r.sets[0]!.entrez, Int32Array.from([1956, 7157])); // TP53 twice (symbol, Entrez) counts once
  assert.equal(r.sets[0]!.name, 'SET_A'); // a link is no name
  assert.equal(r.sets[1]!.name, 'my set');
  assert.equal(r.unresolved, 1);
  assert.equal(r.identifiers, 6);
  assert.deepEqual(r.unresolvedExamples, ['NOT_A_GENE_XYZ']);
});

test('GMT refusals name the line: empty, malformed, duplicate name, no resolvable gene, another species', () => {
  refusal(() => parseGmt('', genes), /empty/);
  refusal(() => parseGmt('\n \n', genes), /empty/);
  refusal(() => parseGmt('SET_A\tdesc\tTP53\nSET_B\tdesc', genes), /line 2: .*2 fields/);
  refusal(() => parseGmt('SET_A\tdesc\tTP53\n\tdesc\tEGFR', genes), /line 2: .*no name/);
  refusal(() => parseGmt('SET_A\tdesc\tTP53\nSET_A\tdesc\tEGFR', genes), /line 2: .*already used on line 1/);
  refusal(() => parseGmt('SET_A\tdesc\tTP53\nSET_B\tdesc\t\t ', genes), /line 2: .*lists no gene/);
  refusal(
    () => parseGmt('SET_A\tdesc\tTP53\nSET_B\tdesc\tNOPE1\tNOPE2\nSET_C\td\tEGFR', genes),
    /line 2: no identifier/,
  );
  // mouse symbols (Trp53 aside, which is a human alias-free mouse name) resolve to no human gene
  refusal(
    () => parseGmt('M1\tmouse\tGm12345\tOlfr1234\nM2\tmouse\tGm4567', genes),
    /no identifier of the GMT .* human/,
  );
});

test("GO sets: the three ontologies of org.Hs.egGO2ALLEGS, terms with their descendants' genes", () => {
  const go = goGeneSets();
  assert.match(go.source, /org\.Hs\.eg\.db 3\.16\.0/);
  const bp = go.byCollection.get('GO:BP')!;
  const all = new Map(bp.map((s) => [s.id, s]));
  const immune = all.get('GO:0006955')!; // immune response
  assert.equal(immune.name, 'immune response');
  const innate = all.get('GO:0045087')!; // innate immune response, a descendant (is_a)
  const ids = new Set(immune.entrez);
  assert.ok(
    [...innate.entrez].every((e) => ids.has(e)),
    "a term holds its descendants' genes",
  );
  assert.ok(go.byCollection.get('GO:CC')!.length > 1000 && go.byCollection.get('GO:MF')!.length > 1000);
  for (const s of bp.slice(0, 200))
    for (let k = 1; k < s.entrez.length; k++) assert.ok(s.entrez[k]! > s.entrez[k - 1]!);
});

function tinyContext(n: number, p = 2): FitContext {
  const symbols = ['TP53', 'EGFR', 'BRCA1', 'MYC', 'KRAS', 'PTEN'];
  const G = symbols.length;
  const data = new Float64Array(G * n).map((_, i) => Math.sin(i * 1.7));
  const x = new Float64Array(n * p);
  for (let i = 0; i < n; i++) {
    x[i] = 1;
    if (p > 1) x[n + i] = i % 2;
  }
  return {
    featureIds: symbols,
    genes: symbols.map((s) => genes.bySymbol(s)),
    logFC: Float64Array.from(symbols.map((_, i) => (i % 2 ? 1 : -1))),
    pValue: Float64Array.from(symbols.map((_, i) => 1e-6 * (i + 1))),
    fit: { values: { nrow: G, ncol: n, data }, design: { n, p, x, columns: ['(Intercept)', 'case'] }, coefficient: 1 },
    pipeline: 'limma',
  };
}

test("enrich: a user GMT alone, leading genes in the set's direction; options and a fit without residual df refused", () => {
  const ctx = tinyContext(6);
  const r = enrich(ctx, { gene_sets: 'S1\td\tTP53\tEGFR\tBRCA1\tMYC\nS2\td\tKRAS\tPTEN\tNOPE9', min_size: 2 });
  assert.deepEqual(r.summary.collections, ['GMT']);
  assert.equal(r.rows.filter((x) => x.method === 'camera').length, 2);
  assert.equal(r.rows.filter((x) => x.method === 'fry').length, 2);
  assert.match(r.warnings.join(' '), /1 of 7 gene identifiers resolve to no human gene/);
  for (const row of r.rows) assert.ok(row.p_value >= 0 && row.p_value <= 1 && row.fdr >= row.p_value);
  const fry = r.rows.find((x) => x.method === 'fry' && x.set_id === 'S1')!;
  assert.ok(fry.p_value_mixed! >= 0 && fry.p_value_mixed! <= 1);
  for (const row of r.rows.filter((x) => x.method !== 'goana'))
    for (const g of row.leading_genes) {
      const i = ctx.featureIds.indexOf(g);
      assert.ok(row.direction === 'up' ? ctx.logFC[i]! > 0 : ctx.logFC[i]! < 0);
    }
  assert.throws(() => enrich(ctx, { methods: ['gsea' as never] }), /methods must be/);
  assert.throws(() => enrich(ctx, { min_size: 20, max_size: 10 }), /max_size/);
  assert.throws(() => enrich(ctx, { inter_gene_cor: 2 }), /inter_gene_cor/);
  assert.throws(() => enrich(tinyContext(2), { gene_sets: 'S1\td\tTP53\tEGFR' }), /residual degrees of freedom/);
});

test('enrich: rows with no gene give a warning, not a silent empty table; DESeq2/edgeR runs get goana only', () => {
  const ctx = tinyContext(6);
  const none = enrich({ ...ctx, genes: ctx.genes.map(() => undefined) }, { collections: ['GO:MF'] });
  assert.equal(none.rows.length, 0);
  assert.match(none.warnings.join(' '), /no tested feature resolved to a human gene/);
  const { fit: _fit, ...noFit } = ctx;
  const r = enrich({ ...noFit, pipeline: 'deseq2' }, { gene_sets: 'S1\td\tTP53\tEGFR\tBRCA1', min_size: 1 });
  assert.ok(r.rows.every((x) => x.method === 'goana'));
  assert.match(r.warnings.join(' '), /camera and fry need a limma linear model; the deseq2 pipeline/);
});

test('numerical pieces: normal quantile, hypergeometric tail, Gauss-Legendre, symmetric eigenvalues', () => {
  // R: qnorm(0.975) = 1.959963984540054; qnorm(1e-300) = -37.04710
  assert.ok(Math.abs(qnorm(0.975) - 1.959963984540054) < 1e-15);
  assert.ok(Math.abs(qnorm(1e-10, true) - 6.361340902404056) < 1e-12);
  assert.ok(Math.abs(qnorm(1e-300) + 37.0471) < 1e-4);
  // P(X >= k) by the direct sum of choose() ratios in exact integer arithmetic
  const choose = (n: number, k: number): bigint => {
    let r = 1n;
    for (let i = 0; i < k; i++) r = (r * BigInt(n - i)) / BigInt(i + 1);
    return r;
  };
  for (const [k, w, b, d] of [
    [3, 10, 90, 20],
    [12, 40, 4000, 300],
    [1, 5, 20, 6],
    [0, 5, 20, 6],
  ] as const) {
    let num = 0n;
    for (let x = k; x <= Math.min(w, d); x++) num += choose(w, x) * choose(b, d - x);
    const exact = Number((num * 10n ** 30n) / choose(w + b, d)) / 1e30;
    const ours = hypergeometricUpper(k, w, b, d);
    assert.ok(
      Math.abs(ours - exact) <= 1e-12 * Math.max(exact, 1e-300) + 1e-30,
      `${k} ${w} ${b} ${d}: ${ours} vs ${exact}`,
    );
  }
  // 128 nodes integrate x^k exactly on [0, 1]
  const { nodes, weights } = gaussLegendreUniform(128);
  for (const k of [0, 1, 7, 100, 255]) {
    let s = 0;
    for (let i = 0; i < 128; i++) s += nodes[i]! ** k * weights[i]!;
    assert.ok(Math.abs(s - 1 / (k + 1)) < 1e-14, `x^${k}: ${s}`);
  }
  // eigenvalues of a matrix with known spectrum: Q diag(l) Q' with Q a Householder reflection
  const l = [5, -1, 0.5, 3, 1e-9];
  const v = [1, 2, -1, 0.5, 3];
  const vv = v.reduce((a, b) => a + b * b, 0);
  const k = l.length;
  const q = (i: number, j: number) => (i === j ? 1 : 0) - (2 * v[i]! * v[j]!) / vv;
  const a = new Float64Array(k * k);
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) for (let m = 0; m < k; m++) a[i * k + j]! += q(i, m) * l[m]! * q(j, m);
  const ext = extremeEigenvalues(Float64Array.from(a), k, new Float64Array(k), new Float64Array(k));
  assert.ok(Math.abs(ext.min + 1) < 1e-13 && Math.abs(ext.max - 5) < 1e-13, JSON.stringify(ext));
  const e = symmetricEigenvalues(a, k);
  for (const [i, x] of [...l].sort((x, y) => x - y).entries())
    assert.ok(Math.abs(e[i]! - x) < 1e-13, `${e[i]} vs ${x}`);
});

test('enrich: a row with a missing value is left out of camera and fry (not of goana), with a warning', () => {
  const ctx = tinyContext(8);
  const values = ctx.fit!.values;
  const data = Float64Array.from(values.data);
  data[0] = NaN; // TP53's first sample
  const withNa: FitContext = { ...ctx, fit: { ...ctx.fit!, values: { ...values, data } } };
  const gmt = 'S1\td\tTP53\tEGFR\tBRCA1\tMYC';
  const r = enrich(withNa, { gene_sets: gmt, min_size: 2 });
  assert.match(r.warnings.join(' '), /camera and fry: 1 row\(s\) with missing values left out/);
  assert.equal(r.rows.find((x) => x.method === 'camera')!.size, 3);
  assert.equal(r.rows.find((x) => x.method === 'fry')!.size, 3);
  assert.equal(r.rows.find((x) => x.method === 'goana')!.size, 4);
  // the complete rows give what a fit without the row gives
  const without: FitContext = {
    ...ctx,
    featureIds: ctx.featureIds.slice(1),
    genes: ctx.genes.slice(1),
    logFC: Float64Array.from(ctx.logFC).slice(1),
    pValue: Float64Array.from(ctx.pValue).slice(1),
    fit: { ...ctx.fit!, values: { nrow: values.nrow - 1, ncol: values.ncol, data: data.slice(values.ncol) } },
  };
  const ref = enrich(without, { gene_sets: gmt, min_size: 2, methods: ['camera', 'fry'] });
  for (const m of ['camera', 'fry'])
    assert.equal(r.rows.find((x) => x.method === m)!.p_value, ref.rows.find((x) => x.method === m)!.p_value);
});

test("rowEffects: camera's two numbers a row (thin Q, no rows x n matrix) equal the full effects' for p = 1 to 5", async () => {
  const { rowEffects } = await import('../src/enrichment/effects.js');
  let seed = 7;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const n = 13;
  const G = 40;
  const values = { nrow: G, ncol: n, data: Float64Array.from({ length: G * n }, () => 100 + rand()) };
  for (let p = 1; p <= 5; p++) {
    const x = new Float64Array(n * p);
    for (let i = 0; i < n; i++) x[i] = 1;
    for (let k = n; k < n * p; k++) x[k] = rand();
    const design = { n, p, x, columns: Array.from({ length: p }, (_, j) => `c${j}`) };
    for (let coefficient = 0; coefficient < p; coefficient++) {
      const full = rowEffects(values, design, coefficient, undefined, true);
      const lean = rowEffects(values, design, coefficient, undefined, false);
      assert.equal(lean.effects, undefined);
      assert.deepEqual(lean.sign, full.sign);
      for (let g = 0; g < G; g++) {
        // the mean near 100 against a spread of 0.3: a sum of squares by |y|^2 minus the effects' would cancel
        assert.ok(Math.abs(lean.tested[g]! - full.tested[g]!) <= 1e-10 * Math.max(1, Math.abs(full.tested[g]!)));
        assert.ok(Math.abs(lean.rss[g]! - full.rss[g]!) <= 1e-9 * full.rss[g]!, `p ${p} row ${g}: rss`);
      }
    }
  }
});
