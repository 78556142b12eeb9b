import { test } from 'node:test';
import assert from 'node:assert/strict';
import { volcanoSvg, maSvg, type PlotPoint } from '@evident/target-discovery';

const points: PlotPoint[] = Array.from({ length: 500 }, (_, i) => {
  const lfc = Math.sin(i) * 3;
  const p = 10 ** -(Math.abs(lfc) * (1 + (i % 5)));
  return {
    label: `G${i}`,
    log2FoldChange: lfc,
    pValue: p,
    averageExpression: 4 + (i % 9),
    status: p < 1e-4 && Math.abs(lfc) > 1 ? (lfc > 0 ? 'up' : 'down') : 'ns',
  };
});

test('volcano plot: labelled targets, threshold lines, axes and legend, well-formed SVG', () => {
  const svg = volcanoSvg(points, {
    title: 'tumor vs normal <test>',
    minAbsLog2FoldChange: 1,
    pValueLine: 1e-4,
    pValueLineLabel: 'FDR = 0.05',
    highlight: ['G1', 'G2', 'G99'],
  });
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(svg, /tumor vs normal &lt;test&gt;/); // escaped
  for (const l of ['G1', 'G2', 'G99']) assert.match(svg, new RegExp(`class="gene">${l}<`));
  assert.equal((svg.match(/class="threshold"/g) ?? []).length, 3); // two fold-change lines + one p-value line
  assert.match(svg, /FDR = 0.05/);
  assert.match(svg, /log2 fold change/);
  assert.match(svg, /-log10 p-value/);
  assert.match(svg, /Up \(\d+\)/);
  assert.match(svg, /Not significant \(\d+\)/);
  // Every opened element is closed.
  const opened = (svg.match(/<(?!\/)[a-z]+[^>]*[^/]>/g) ?? []).length;
  const closed = (svg.match(/<\/[a-z]+>/g) ?? []).length;
  assert.equal(opened, closed);
});

test('MA plot has the zero line and fold-change thresholds', () => {
  const svg = maSvg(points, {
    title: 'MA',
    minAbsLog2FoldChange: 1,
    highlight: ['G1'],
    expressionLabel: 'average log2 CPM',
  });
  assert.match(svg, /average log2 CPM/);
  assert.equal((svg.match(/class="threshold"/g) ?? []).length, 2);
});
