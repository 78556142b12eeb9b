// Unit checks of the numerical building blocks against values computed by R.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adjustBH, lowess, trigammaInverse } from '@evident/target-discovery';
import { trigamma } from '../src/stats/special.js';
import { quantile, rankAverage } from '../src/stats/summary.js';
import { at } from './helpers.js';

test('lowess reproduces R lowess(cars)', () => {
  const speed = [
    4, 4, 7, 7, 8, 9, 10, 10, 10, 11, 11, 12, 12, 12, 12, 13, 13, 13, 13, 14, 14, 14, 14, 15, 15, 15, 16, 16, 17, 17,
    17, 18, 18, 18, 18, 19, 19, 19, 20, 20, 20, 20, 20, 22, 23, 24, 24, 24, 24, 25,
  ];
  const dist = [
    2, 10, 4, 22, 16, 10, 18, 26, 34, 17, 28, 14, 20, 24, 28, 26, 34, 34, 46, 26, 36, 60, 80, 20, 26, 54, 32, 40, 32,
    40, 50, 42, 56, 76, 84, 36, 46, 68, 32, 48, 52, 56, 64, 66, 54, 70, 92, 93, 120, 85,
  ];
  // R 4.x: unique(round(lowess(cars)$y, 6))
  const expected = [
    4.965459, 13.124495, 15.858633, 18.579691, 21.280313, 24.129277, 27.119549, 30.027276, 32.962506, 36.757728,
    40.435075, 43.463492, 46.885479, 50.793152, 56.491224, 67.585824, 73.079695, 78.643164, 84.328698,
  ];
  const fit = lowess(speed, dist);
  const got = [...new Set(Array.from(fit.y, (v) => Math.round(v * 1e6) / 1e6))];
  assert.equal(got.length, expected.length);
  got.forEach((v, i) => {
    assert.ok(Math.abs(v - at(expected, i)) < 2e-6, `point ${i}: ${v} vs ${expected[i]}`);
  });
});

test('BH adjustment equals p.adjust(method = "BH")', () => {
  // p.adjust(c(0.01, 0.04, 0.03, 0.005, 0.5, NA), "BH")
  const adj = adjustBH([0.01, 0.04, 0.03, 0.005, 0.5, NaN]);
  const expected = [0.025, 0.05, 0.05, 0.025, 0.5];
  expected.forEach((e, i) => {
    assert.ok(Math.abs(at(adj, i) - e) < 1e-15, `${i}: ${adj[i]}`);
  });
  assert.ok(Number.isNaN(adj[5]));
});

test('trigammaInverse inverts trigamma', () => {
  for (const y of [0.05, 0.7, 3, 25, 400]) {
    const x = trigamma(y);
    assert.ok(Math.abs(trigammaInverse(x) - y) / y < 1e-10, `y=${y}`);
  }
});

test('quantile type 7 and average ranks follow R', () => {
  assert.equal(quantile([1, 2, 3, 4, 10], 0.75), 4);
  assert.equal(quantile([1, 2, 3, 4], 0.75), 3.25);
  assert.deepEqual(Array.from(rankAverage([3, 1, 3, 2])), [3.5, 1, 3.5, 2]);
});

test('fast average ranks equal the reference ranks, ties included', async () => {
  const { rankAverageFast } = await import('../src/stats/summary.js');
  const x = Array.from({ length: 500 }, (_, i) => Math.round(Math.sin(i * 1.7) * 20) / 2);
  assert.deepEqual(Array.from(rankAverageFast(x)), Array.from(rankAverage(x)));
});

test('selection-based quantile and rank window agree with sorting', async () => {
  const { quantileSelect, rankWindow } = await import('../src/stats/summary.js');
  const x = Array.from({ length: 301 }, (_, i) => Math.round(Math.cos(i * 2.3) * 30) / 3);
  for (const p of [0, 0.25, 0.5, 0.75, 0.9, 1]) assert.ok(quantileSelect(x, p) === quantile(x, p), `p=${p}`);
  const r = rankAverage(x);
  const windows: Array<[number, number]> = [
    [91, 211],
    [16, 286],
    [1, 301],
    [150, 150],
  ];
  for (const [lo, hi] of windows) {
    const w = rankWindow(x, lo, hi);
    r.forEach((ri, i) => {
      assert.equal(w[i], ri >= lo && ri <= hi ? 1 : 0, `rank ${ri} window ${lo}-${hi}`);
    });
  }
});

test('approxFun interpolates linearly, averages tied x, and is constant outside (rule = 2)', async () => {
  const { approxFun } = await import('@evident/target-discovery');
  const f = approxFun(Float64Array.from([0, 1, 1, 2, 4]), Float64Array.from([0, 2, 4, 3, 7]));
  const cases: Array<[number, number]> = [
    [-1, 0],
    [0, 0],
    [0.5, 1.5],
    [1, 3],
    [1.5, 3],
    [3, 5],
    [4, 7],
    [9, 7],
  ];
  for (const [v, e] of cases) assert.ok(Math.abs(f(v) - e) < 1e-12, `f(${v}) = ${f(v)}, expected ${e}`);
  // Dense random check against a plain linear scan.
  const xs = Float64Array.from({ length: 300 }, (_, i) => i * 0.37 + Math.sin(i) * 0.1).sort();
  const ys = Float64Array.from(xs, (v) => Math.cos(v));
  const g = approxFun(xs, ys);
  for (let k = 0; k < 2000; k++) {
    const v = -1 + (k / 2000) * 120;
    let expect: number;
    const x = (i: number) => at(xs, i);
    const y = (i: number) => at(ys, i);
    if (v <= x(0)) expect = y(0);
    else if (v >= x(299)) expect = y(299);
    else {
      let i = 0;
      while (x(i + 1) < v) i++;
      expect = y(i) + ((y(i + 1) - y(i)) * (v - x(i))) / (x(i + 1) - x(i));
    }
    assert.ok(Math.abs(g(v) - expect) < 1e-12, `v=${v}`);
  }
});

test('lmFit with a missing value fits that feature on its observed samples only', async () => {
  const { lmFit } = await import('@evident/target-discovery');
  const n = 6;
  const x = Float64Array.from([1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1]);
  const y = Float64Array.from([5.1, NaN, 4.7, 6.3, 6.9, 6.0, 3, 4, 5, 6, 7, 8]);
  const fit = lmFit({ nrow: 2, ncol: n, data: y }, { n, p: 2, x, columns: ['i', 'g'] });
  // Feature 1 on samples 1,3..6: control mean (5.1 + 4.7) / 2, case mean (6.3 + 6.9 + 6.0) / 3.
  assert.ok(Math.abs(at(fit.coefficients, 1) - ((6.3 + 6.9 + 6.0) / 3 - (5.1 + 4.7) / 2)) < 1e-12);
  assert.equal(fit.dfResidual[0], 3);
  assert.equal(fit.dfResidual[1], 4);
  const rss = (5.1 - 4.9) ** 2 + (4.7 - 4.9) ** 2 + (6.3 - 6.4) ** 2 + (6.9 - 6.4) ** 2 + (6.0 - 6.4) ** 2;
  assert.ok(Math.abs(at(fit.sigma, 0) - Math.sqrt(rss / 3)) < 1e-12);
  assert.ok(Math.abs(at(fit.stdevUnscaled, 1) - Math.sqrt(1 / 2 + 1 / 3)) < 1e-12);
  assert.ok(Math.abs(at(fit.amean, 0) - (5.1 + 4.7 + 6.3 + 6.9 + 6.0) / 5) < 1e-12);
});
