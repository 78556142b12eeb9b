// DESeq2's Cook's-distance outlier handling: with 7+ replicates per group an outlying count is replaced and the
// gene refitted (its p-value kept); with fewer the gene's p-value is removed. And a design without residual df.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deseq2, syntheticCounts, TargetDiscoveryInputError, type Design } from '@evident/target-discovery';

function twoGroups(n: number, isCase: Uint8Array): Design {
  const x = new Float64Array(n * 2);
  x.fill(1, 0, n);
  x.set(isCase, n);
  return { n, p: 2, x, columns: ['(Intercept)', 'case'] };
}

function withOutlier(n: number) {
  const G = 300;
  const gen = syntheticCounts(G, n, 5);
  gen.data[0] = gen.data[0]! * 40 + 500; // gene 0, first sample
  return { counts: { nrow: G, ncol: n, data: gen.data }, design: twoGroups(n, gen.isCase) };
}

test('8 replicates per group: the outlying count is replaced and the gene refitted, keeping its p-value', () => {
  const { counts, design } = withOutlier(16);
  const before = counts.data[0];
  const r = deseq2(counts, design, 1, { singleTwoLevelFactor: true });
  assert.equal(counts.data[0], before, 'the input counts are not modified');
  assert.ok(r.refitted >= 1, `refitted ${r.refitted}`);
  assert.ok(Number.isFinite(r.pvalue[0]), 'the refitted gene keeps a p-value');
  assert.ok(
    Math.abs(r.log2FoldChange[0]!) < 1,
    `the outlier no longer drives the fold change (${r.log2FoldChange[0]})`,
  );
});

test('6 replicates per group: no replacement; the outlier gene loses its p-value', () => {
  const { counts, design } = withOutlier(12);
  const r = deseq2(counts, design, 1, { singleTwoLevelFactor: true });
  assert.equal(r.refitted, 0);
  assert.ok(r.cooksOutliers >= 1);
  assert.ok(Number.isNaN(r.pvalue[0]), `p ${r.pvalue[0]}`);
  assert.ok(Number.isNaN(r.padj[0]));
});

test('a design with as many coefficients as samples is refused (no residual degrees of freedom)', () => {
  const gen = syntheticCounts(50, 2, 3);
  assert.throws(
    () =>
      deseq2({ nrow: 50, ncol: 2, data: gen.data }, twoGroups(2, Uint8Array.from([0, 1])), 1, {
        singleTwoLevelFactor: true,
      }),
    (e: unknown) => e instanceof TargetDiscoveryInputError && /no residual degrees of freedom/.test(e.message),
  );
});
