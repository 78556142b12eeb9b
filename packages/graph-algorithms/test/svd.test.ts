import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csrFromEdges, GraphInputError, randomizedSvd } from '@evident/graph-algorithms';
import { GRAPHS, loadGraph } from './reference-graphs.js';

describe('randomizedSvd against scipy svds on the reference graphs', () => {
  for (const name of GRAPHS) {
    it(`${name}: the 16 largest singular values to a relative 1e-6`, () => {
      const g = loadGraph(name);
      const csr = csrFromEdges(g.n, g.sources, g.targets, g.weights);
      const r = randomizedSvd(csr, 16, { seed: 1 });
      assert.ok(r.converged);
      g.expected.top_singular_values.forEach((expected, i) => {
        const rel = Math.abs(r.values[i]! - expected) / expected;
        assert.ok(rel <= 1e-6, `σ${i + 1} = ${r.values[i]} vs scipy ${expected} (relative ${rel})`);
      });
      // Each vector is a unit eigenvector: ‖A·u − λ·u‖ small relative to σ.
      for (let j = 0; j < 4; j++) {
        const u = new Float64Array(g.n);
        for (let i = 0; i < g.n; i++) u[i] = r.vectors[i * 16 + j]!;
        let norm = 0;
        let res = 0;
        for (let i = 0; i < g.n; i++) {
          let au = 0;
          for (let p = csr.offsets[i]!; p < csr.offsets[i + 1]!; p++) au += csr.weights[p]! * u[csr.targets[p]!]!;
          norm += u[i]! * u[i]!;
          res += (au - r.eigenvalues[j]! * u[i]!) ** 2;
        }
        assert.ok(Math.abs(norm - 1) < 1e-9);
        assert.ok(Math.sqrt(res) < 1e-3 * r.values[j]!, `residual ${Math.sqrt(res)}`);
      }
    });
  }
});

describe('randomizedSvd', () => {
  it('finds a path graph’s known spectrum (σ = |2·cos(πj/(n+1))|)', () => {
    const n = 200;
    const s = Int32Array.from({ length: n - 1 }, (_, i) => i);
    const t = Int32Array.from({ length: n - 1 }, (_, i) => i + 1);
    const r = randomizedSvd(csrFromEdges(n, s, t), 6, { seed: 2 });
    // ±λ pairs: the top values come in equal pairs.
    const expected = [1, 1, 2, 2, 3, 3].map((j) => 2 * Math.cos((Math.PI * j) / (n + 1)));
    for (const [i, e] of expected.entries()) {
      assert.ok(Math.abs(r.values[i]! - e) < 1e-6 * e, `${r.values[i]} vs ${e}`);
    }
  });

  it('returns zero values past the rank and works on a tiny graph', () => {
    const r = randomizedSvd(csrFromEdges(3, Int32Array.from([0]), Int32Array.from([1])), 3);
    assert.deepEqual(
      Array.from(r.values, (v) => Math.round(v * 1e9) / 1e9),
      [1, 1, 0],
    );
  });

  it('is deterministic for a seed and refuses k out of range naming k', () => {
    const g = loadGraph('karate');
    const csr = csrFromEdges(g.n, g.sources, g.targets, g.weights);
    assert.deepEqual(randomizedSvd(csr, 4, { seed: 5 }).vectors, randomizedSvd(csr, 4, { seed: 5 }).vectors);
    assert.throws(
      () => randomizedSvd(csr, 35),
      (e: unknown) => e instanceof GraphInputError && e.problems?.[0]?.path === '/k',
    );
  });
});
