import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csrFromEdges, GraphInputError, randomizedSvd } from '@evident/graph-algorithms';
import { loadTopologyGraph, TOPOLOGY_GRAPHS } from '@evident/testkit';

describe('randomizedSvd against scipy svds on the reference graphs', () => {
  for (const name of TOPOLOGY_GRAPHS) {
    it(`${name}: the 16 largest singular values to a relative 1e-6`, () => {
      const g = loadTopologyGraph(name);
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

  it('finds a repeated top value (two disjoint 6-cliques: σ = 5, 5, then 1 ×10) past an invariant subspace', () => {
    const s: number[] = [];
    const t: number[] = [];
    for (const base of [0, 6]) {
      for (let i = 0; i < 6; i++) {
        for (let j = i + 1; j < 6; j++) {
          s.push(base + i);
          t.push(base + j);
        }
      }
    }
    const r = randomizedSvd(csrFromEdges(12, Int32Array.from(s), Int32Array.from(t)), 4, {
      seed: 3,
      oversampling: 2,
      basisSize: 8,
    });
    assert.ok(r.converged);
    for (const [i, e] of [5, 5, 1, 1].entries())
      assert.ok(Math.abs(r.values[i]! - e) < 1e-9, `σ${i + 1} = ${r.values[i]}`);
  });

  for (const dims of [
    [20, 20],
    [8, 8, 8],
  ]) {
    it(`finds every copy of a repeated value: a ${dims.join(' × ')} grid (σ = |Σ_d 2cos(π·i_d/(side + 1))|)`, () => {
      // Grids have symmetric spectra (bipartite: ±λ) and values repeated by permuting the i_d: up to 2 × 6 copies
      // in three dimensions, which one Lanczos start vector sees once each.
      const n = dims.reduce((x, y) => x * y, 1);
      const s: number[] = [];
      const t: number[] = [];
      for (let v = 0; v < n; v++) {
        let stride = 1;
        for (const side of dims) {
          if (Math.floor(v / stride) % side < side - 1) {
            s.push(v);
            t.push(v + stride);
          }
          stride *= side;
        }
      }
      let exact = [0];
      for (const side of dims) {
        const next: number[] = [];
        for (const x of exact) for (let i = 1; i <= side; i++) next.push(x + 2 * Math.cos((Math.PI * i) / (side + 1)));
        exact = next;
      }
      exact = exact.map(Math.abs).sort((x, y) => y - x);
      const r = randomizedSvd(csrFromEdges(n, Int32Array.from(s), Int32Array.from(t)), 16, { seed: 6 });
      assert.ok(r.converged);
      assert.ok(r.deflationRounds >= 1);
      for (let i = 0; i < 16; i++) {
        assert.ok(Math.abs(r.values[i]! - exact[i]!) < 1e-9 * exact[i]!, `σ${i + 1} = ${r.values[i]} vs ${exact[i]}`);
      }
    });
  }

  it('stops at maxProducts and says it has not converged', () => {
    const g = loadTopologyGraph('lfr_5000_mu03');
    const csr = csrFromEdges(g.n, g.sources, g.targets, g.weights);
    const r = randomizedSvd(csr, 16, { seed: 1, powerIterations: 0, maxProducts: 60 });
    assert.equal(r.converged, false);
    // The check comes at the end of a Lanczos cycle: at most one basis (2(k + p) = 52 products) past the limit.
    assert.ok(r.products < 60 + 52, `products ${r.products}`);
    assert.ok(r.residual > 1e-7);
  });

  it('returns zero values past the rank and works on a tiny graph', () => {
    const r = randomizedSvd(csrFromEdges(3, Int32Array.from([0]), Int32Array.from([1])), 3);
    assert.deepEqual(
      Array.from(r.values, (v) => Math.round(v * 1e9) / 1e9),
      [1, 1, 0],
    );
  });

  it('gives the same values and vectors with worker threads as on one thread', () => {
    const g = loadTopologyGraph('sbm_20000');
    const csr = csrFromEdges(g.n, g.sources, g.targets, g.weights);
    const one = randomizedSvd(csr, 8, { seed: 4, threads: 1 });
    const three = randomizedSvd(csr, 8, { seed: 4, threads: 3 });
    assert.ok(one.converged && three.converged);
    assert.equal(three.products, one.products);
    assert.deepEqual(three.values, one.values);
    assert.deepEqual(three.vectors, one.vectors);
    assert.throws(
      () => randomizedSvd(csr, 8, { threads: 0 }),
      (e: unknown) => e instanceof GraphInputError && e.problems?.[0]?.path === '/threads',
    );
  });

  it('is deterministic for a seed and refuses k out of range naming k', () => {
    const g = loadTopologyGraph('karate');
    const csr = csrFromEdges(g.n, g.sources, g.targets, g.weights);
    assert.deepEqual(randomizedSvd(csr, 4, { seed: 5 }).vectors, randomizedSvd(csr, 4, { seed: 5 }).vectors);
    assert.throws(
      () => randomizedSvd(csr, 35),
      (e: unknown) => e instanceof GraphInputError && e.problems?.[0]?.path === '/k',
    );
  });
});
