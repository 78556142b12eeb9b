// Worker threads split the per-gene fits of DESeq2 and edgeR-QL; the results must be the same bit for bit as
// on one thread (each gene is computed by the same code whichever thread takes it), for group designs and for
// a design with a continuous covariate (stored fitted means, Levenberg fits), and with outlier replacement.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deseq2, edgerQl, syntheticCounts, type Design } from '@evident/target-discovery';
import { workerBlocks } from '../src/parallel/pool.js';

function data(G: number, n: number, covariate: boolean) {
  const gen = syntheticCounts(G, n, 3);
  // Outlying counts in some genes, so DESeq2 replaces them and refits (8+ replicates per group).
  for (let g = 0; g < G; g += 37) gen.data[g * n + (g % n)] = gen.data[g * n + (g % n)]! * 40 + 500;
  const p = covariate ? 3 : 2;
  const x = new Float64Array(n * p);
  x.fill(1, 0, n);
  x.set(gen.isCase, n);
  if (covariate) for (let j = 0; j < n; j++) x[2 * n + j] = Math.sin(j) + j / n;
  const design: Design = { n, p, x, columns: ['(Intercept)', 'case', 'batch'].slice(0, p) };
  return { counts: { nrow: G, ncol: n, data: gen.data }, design, half: n / 2 };
}

function assertSame(a: Record<string, unknown>, b: Record<string, unknown>, what: string): void {
  for (const key of Object.keys(a)) {
    const u = a[key];
    const v = b[key];
    if (ArrayBuffer.isView(u)) {
      const x = u as Float64Array;
      const y = v as Float64Array;
      assert.equal(y.length, x.length, `${what} ${key} length`);
      for (let i = 0; i < x.length; i++) assert.ok(Object.is(x[i], y[i]), `${what} ${key}[${i}]: ${x[i]} vs ${y[i]}`);
    } else if (typeof u === 'number') assert.ok(Object.is(u, v), `${what} ${key}: ${u} vs ${v}`);
  }
}

for (const covariate of [false, true]) {
  const label = covariate ? 'with a covariate' : 'two groups';
  test(`DESeq2 on 2 threads equals 1 thread bit for bit (${label})`, () => {
    const { counts, design } = data(700, 24, covariate);
    const before = workerBlocks();
    const one = deseq2(counts, design, 1, { singleTwoLevelFactor: !covariate, threads: 1 });
    const two = deseq2(counts, design, 1, { singleTwoLevelFactor: !covariate, threads: 2 });
    // With a continuous covariate every sample is its own cell: no Cook's distances, nothing replaced.
    if (!covariate) assert.ok(one.refitted > 0, 'the data exercise the outlier refit');
    assert.ok(workerBlocks() > before, 'a worker thread took some of the genes');
    assertSame(one as never, two as never, 'deseq2');
  });

  test(`edgeR-QL on 2 threads equals 1 thread bit for bit (${label})`, () => {
    const { counts, design, half } = data(1500, 24, covariate);
    const before = workerBlocks();
    const one = edgerQl(counts, design, 1, [half, half], {}, { threads: 1 });
    const two = edgerQl(counts, design, 1, [half, half], {}, { threads: 2 });
    assert.ok(workerBlocks() > before, 'a worker thread took some of the genes');
    assertSame(one as never, two as never, 'edgeR-QL');
  });
}
