// randomizedSvd against obviously right answers on many small graphs of the shapes that break Lanczos: values
// repeated many times (disjoint and duplicated components, cliques), large null spaces (stars), ±λ pairs
// (paths, cycles, trees) and k close to n or equal to it. Two references, computed here: spectra known in closed
// form (a disjoint union has the union of its components' spectra: K_m has m − 1 and −1 (m − 1 times), the star
// S_m ±√(m − 1) and 0 (m − 2 times), the path P_m 2cos(jπ/(m + 1)), the cycle C_m 2cos(2πj/m)), and for random
// graphs the cyclic Jacobi method on the dense matrix, itself checked against the closed forms. The SVD runs with
// `solver: 'lanczos'`, so that its dense fallback cannot hide a wrong Lanczos answer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CsrGraph, csrFromEdges, Random, randomizedSvd } from '@evident/graph-algorithms';
import { checkPairs } from '../src/svd/check-pairs.js';

interface Case {
  name: string;
  n: number;
  s: number[];
  t: number[];
  w?: number[];
  /** Eigenvalues in closed form, when the shape has them. */
  exact?: number[];
}

/** Eigenvalues of a dense symmetric matrix (n × n, row-major) by cyclic Jacobi rotations. */
function jacobiEigenvalues(a: Float64Array, n: number): number[] {
  const m = Float64Array.from(a);
  let total = 0;
  for (const x of m) total += x * x;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += m[p * n + q]! ** 2;
    if (off <= 1e-30 * total) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = m[p * n + q]!;
        if (apq === 0) continue;
        const theta = (m[q * n + q]! - m[p * n + p]!) / (2 * apq);
        const tan = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(tan * tan + 1);
        const s = tan * c;
        for (let k = 0; k < n; k++) {
          const kp = m[k * n + p]!;
          const kq = m[k * n + q]!;
          m[k * n + p] = c * kp - s * kq;
          m[k * n + q] = s * kp + c * kq;
        }
        for (let k = 0; k < n; k++) {
          const pk = m[p * n + k]!;
          const qk = m[q * n + k]!;
          m[p * n + k] = c * pk - s * qk;
          m[q * n + k] = s * pk + c * qk;
        }
      }
    }
  }
  return Array.from({ length: n }, (_, i) => m[i * n + i]!);
}

function denseOf(g: CsrGraph): Float64Array {
  const a = new Float64Array(g.n * g.n);
  for (let i = 0; i < g.n; i++) {
    for (let p = g.offsets[i]!; p < g.offsets[i + 1]!; p++) a[i * g.n + g.targets[p]!]! += g.weights[p]!;
  }
  return a;
}

const byMagnitude = (values: number[]) => values.map(Math.abs).sort((x, y) => y - x);

// Components with closed-form spectra, appended to a case at offset `base`.
type Part = { s: number[]; t: number[]; n: number; exact: number[] };
function clique(m: number): Part {
  const s: number[] = [];
  const t: number[] = [];
  for (let i = 0; i < m; i++) {
    for (let j = i + 1; j < m; j++) {
      s.push(i);
      t.push(j);
    }
  }
  return { s, t, n: m, exact: [m - 1, ...Array<number>(m - 1).fill(-1)] };
}
function star(m: number): Part {
  const leaves = Array.from({ length: m - 1 }, (_, i) => i + 1);
  const r = Math.sqrt(m - 1);
  return { s: leaves.map(() => 0), t: leaves, n: m, exact: [r, -r, ...Array<number>(m - 2).fill(0)] };
}
function path(m: number): Part {
  const s = Array.from({ length: m - 1 }, (_, i) => i);
  const exact = Array.from({ length: m }, (_, j) => 2 * Math.cos((Math.PI * (j + 1)) / (m + 1)));
  return { s, t: s.map((i) => i + 1), n: m, exact };
}
function cycle(m: number): Part {
  const s = Array.from({ length: m }, (_, i) => i);
  const exact = Array.from({ length: m }, (_, j) => 2 * Math.cos((2 * Math.PI * j) / m));
  return { s, t: s.map((i) => (i + 1) % m), n: m, exact };
}

function union(name: string, parts: Part[]): Case {
  const c: Case = { name, n: 0, s: [], t: [], exact: [] };
  for (const p of parts) {
    for (let e = 0; e < p.s.length; e++) {
      c.s.push(c.n + p.s[e]!);
      c.t.push(c.n + p.t[e]!);
    }
    c.exact!.push(...p.exact);
    c.n += p.n;
  }
  return c;
}

/** A random connected component: a random tree plus `extra` random edges (parallel edges add up). */
function randomComponent(rng: Random, size: number, extra: number): { s: number[]; t: number[] } {
  const s: number[] = [];
  const t: number[] = [];
  for (let i = 1; i < size; i++) {
    s.push(rng.nextUint32() % i);
    t.push(i);
  }
  for (let e = 0; e < extra && size > 1; e++) {
    const x = rng.nextUint32() % size;
    const y = rng.nextUint32() % size;
    if (x !== y) {
      s.push(x);
      t.push(y);
    }
  }
  return { s, t };
}

function closedFormCases(rng: Random, count: number): Case[] {
  const cases: Case[] = [];
  const shapes = [clique, star, path, cycle] as const;
  for (let i = 0; i < count; i++) {
    const parts: Part[] = [];
    const kind = i % 6;
    const components = 1 + (rng.nextUint32() % 12);
    const sizeOf = () => 3 + (rng.nextUint32() % 12);
    if (kind < 4) {
      // One shape, components of mixed sizes.
      for (let c = 0; c < components; c++) parts.push(shapes[kind]!(sizeOf()));
    } else if (kind === 4) {
      // The same component duplicated: every value repeated `components` times.
      const shape = shapes[rng.nextUint32() % 4]!;
      const size = sizeOf();
      for (let c = 0; c < Math.max(2, components); c++) parts.push(shape(size));
    } else {
      for (let c = 0; c < components; c++) parts.push(shapes[rng.nextUint32() % 4]!(sizeOf()));
    }
    cases.push(union(`closed form #${i} (${parts.map((p) => p.n).join('+')})`, parts));
  }
  return cases;
}

function randomCases(rng: Random, count: number): Case[] {
  const cases: Case[] = [];
  for (let i = 0; i < count; i++) {
    const c: Case = { name: '', n: 0, s: [], t: [] };
    const components = 1 + (rng.nextUint32() % 12);
    const duplicate = i % 3 === 0;
    let shape = randomComponent(rng, 2 + (rng.nextUint32() % 14), rng.nextUint32() % 12);
    let size = 0;
    const sizes: number[] = [];
    for (let k = 0; k < components; k++) {
      if (!duplicate) shape = randomComponent(rng, 2 + (rng.nextUint32() % 14), rng.nextUint32() % 12);
      size = Math.max(...shape.s, ...shape.t) + 1;
      for (let e = 0; e < shape.s.length; e++) {
        c.s.push(c.n + shape.s[e]!);
        c.t.push(c.n + shape.t[e]!);
      }
      c.n += size;
      sizes.push(size);
    }
    // A third of them weighted (the KB's weighted embeddings sum confidences).
    if (i % 3 === 1) c.w = c.s.map(() => 0.05 + (rng.nextUint32() % 1000) / 1000);
    c.name = `random #${i} (${duplicate ? 'duplicated ' : ''}${sizes.join('+')}${c.w ? ', weighted' : ''})`;
    cases.push(c);
  }
  return cases;
}

/** k values that stress the polish: n, n − 1, n − 2 (the basis is all of space), n / 2, 64, and a few. */
function ks(n: number, rng: Random): number[] {
  const all = [n, n - 1, n - 2, Math.ceil(n / 2), 64, 1 + (rng.nextUint32() % Math.min(n, 8))];
  return [...new Set(all.filter((k) => k >= 1 && k <= n))];
}

function assertSvd(c: Case, g: CsrGraph, k: number, reference: number[], seed: number): void {
  const r = randomizedSvd(g, k, { seed, solver: 'lanczos' });
  const label = `${c.name}, n = ${c.n}, k = ${k}`;
  const top = reference[0]! || 1;
  for (let i = 0; i < k; i++) {
    assert.ok(
      Math.abs(r.values[i]! - reference[i]!) <= 1e-8 * top,
      `${label}: σ${i + 1} = ${r.values[i]} where the reference has ${reference[i]}`,
    );
  }
  assert.ok(r.converged, `${label}: not converged`);
  assert.equal(r.solver, 'lanczos');
  // Each pair an eigenpair of A (so u and the right vector sign(λ)·u are singular vectors for σ): the values
  // converge to tolerance·|λ| through ‖r‖²/gap (Kato–Temple), so a residual ‖r‖ up to √tolerance·σ1 is right;
  // a value that is not an eigenvalue at all has a residual of the order of σ1.
  const columns = new Float64Array(g.n * k);
  for (let i = 0; i < g.n; i++) for (let j = 0; j < k; j++) columns[j * g.n + i] = r.vectors[i * k + j]!;
  const measured = checkPairs(g, r.eigenvalues, columns, new Float64Array(k).fill(top));
  assert.ok(measured.orthogonality <= 1e-8, `${label}: vectors orthonormal only to ${measured.orthogonality}`);
  for (let j = 0; j < k; j++) {
    assert.ok(
      measured.residuals[j]! <= 1e-3 * top,
      `${label}: ‖A·u − λ·u‖ = ${measured.residuals[j]} for pair ${j + 1}`,
    );
  }
}

describe('randomizedSvd on small graphs against closed-form spectra', () => {
  it('the Jacobi reference agrees with the closed forms (so that it can judge the random graphs)', () => {
    const rng = new Random(11);
    for (const c of closedFormCases(rng, 30)) {
      const g = csrFromEdges(c.n, Int32Array.from(c.s), Int32Array.from(c.t));
      const jacobi = byMagnitude(jacobiEigenvalues(denseOf(g), c.n));
      const exact = byMagnitude(c.exact!);
      for (let i = 0; i < c.n; i++) assert.ok(Math.abs(jacobi[i]! - exact[i]!) < 1e-10, `${c.name}: λ${i + 1}`);
    }
  });

  it('cliques, stars, paths, cycles, their mixtures and duplicated components: 180 graphs, k up to n', () => {
    const rng = new Random(12);
    let runs = 0;
    for (const [i, c] of closedFormCases(rng, 180).entries()) {
      const g = csrFromEdges(c.n, Int32Array.from(c.s), Int32Array.from(c.t));
      const exact = byMagnitude(c.exact!);
      for (const k of ks(c.n, rng)) {
        assertSvd(c, g, k, exact, i);
        runs++;
      }
    }
    assert.ok(runs > 700, `${runs} runs`);
  });
});

describe('randomizedSvd on small random graphs against the Jacobi method', () => {
  it('random, weighted and duplicated components: 150 graphs, k up to n', () => {
    const rng = new Random(13);
    for (const [i, c] of randomCases(rng, 150).entries()) {
      const g = csrFromEdges(c.n, Int32Array.from(c.s), Int32Array.from(c.t), c.w ? Float64Array.from(c.w) : undefined);
      const reference = byMagnitude(jacobiEigenvalues(denseOf(g), c.n));
      for (const k of ks(c.n, rng)) assertSvd(c, g, k, reference, 100 + i);
    }
  });

  it('134 entities in 11 components with 200 edges (the base of issue 36), k = 64 and 16', () => {
    // Before the fix the largest value came out as 10⁴ to 10⁵ on most such graphs (the largest row sum is ~12).
    const rng = new Random(14);
    for (let trial = 0; trial < 12; trial++) {
      const c: Case = { name: `issue-36 graph #${trial}`, n: 0, s: [], t: [] };
      const sizes: number[] = [];
      let left = 134;
      for (let comp = 0; comp < 11; comp++) {
        const most = left - 2 * (10 - comp);
        const spread = Math.max(1, Math.floor((2 * left) / (11 - comp)));
        const size = comp === 10 ? left : Math.min(most, 2 + (rng.nextUint32() % spread));
        sizes.push(size);
        left -= size;
      }
      for (const size of sizes) {
        for (let i = 1; i < size; i++) {
          c.s.push(c.n + (rng.nextUint32() % Math.min(i, 3)));
          c.t.push(c.n + i);
        }
        c.n += size;
      }
      while (c.s.length < 200) {
        const comp = rng.nextUint32() % 11;
        const base = sizes.slice(0, comp).reduce((x, y) => x + y, 0);
        const x = base + (rng.nextUint32() % sizes[comp]!);
        const y = base + (rng.nextUint32() % sizes[comp]!);
        if (x !== y) {
          c.s.push(x);
          c.t.push(y);
        }
      }
      const g = csrFromEdges(c.n, Int32Array.from(c.s), Int32Array.from(c.t));
      const reference = byMagnitude(jacobiEigenvalues(denseOf(g), c.n));
      for (const k of [64, 16]) assertSvd(c, g, k, reference, 0);
    }
  });
});

describe('the answer check and the dense solver', () => {
  const g = csrFromEdges(12, Int32Array.from([0, 1, 2, 3, 4, 6, 7, 8]), Int32Array.from([1, 2, 0, 4, 5, 7, 8, 6]));

  it('checkPairs accepts true pairs and refuses a value that is not an eigenvalue or vectors that are not orthonormal', () => {
    const r = randomizedSvd(g, 4, { seed: 1, solver: 'dense' });
    assert.equal(r.solver, 'dense');
    for (const [i, e] of [2, 2, Math.SQRT2, Math.SQRT2].entries()) assert.ok(Math.abs(r.values[i]! - e) < 1e-12);
    const columns = new Float64Array(12 * 4);
    for (let i = 0; i < 12; i++) for (let j = 0; j < 4; j++) columns[j * 12 + i] = r.vectors[i * 4 + j]!;
    const tiny = new Float64Array(4).fill(1e-15);
    assert.equal(checkPairs(g, r.eigenvalues, columns, tiny).ok, true);
    const wrong = Float64Array.from(r.eigenvalues);
    wrong[1] = 1.9;
    const bad = checkPairs(g, wrong, columns, tiny);
    assert.equal(bad.ok, false);
    assert.match(bad.reason!, /pair 2 has residual/);
    const twice = Float64Array.from(columns);
    twice.copyWithin(12, 0, 12); // the first vector twice
    const dup = checkPairs(g, r.eigenvalues, twice, new Float64Array(4).fill(1));
    assert.equal(dup.ok, false);
    assert.match(dup.reason!, /orthonormal only to/);
    const huge = Float64Array.from(r.eigenvalues);
    huge[0] = 23.9;
    assert.match(checkPairs(g, huge, columns, new Float64Array(4).fill(100)).reason!, /exceeds the largest row sum/);
  });

  it('the default solver answers with Lanczos on these graphs, and refuses an unknown solver naming it', () => {
    const rng = new Random(15);
    for (const c of closedFormCases(rng, 24)) {
      const graph = csrFromEdges(c.n, Int32Array.from(c.s), Int32Array.from(c.t));
      const r = randomizedSvd(graph, Math.max(1, c.n - 1), { seed: 3 });
      assert.equal(r.solver, 'lanczos', c.name);
      assert.ok(r.orthogonality <= 1e-8);
    }
    assert.throws(
      () => randomizedSvd(g, 2, { solver: 'qr' as 'dense' }),
      (e: unknown) => e instanceof Error && (e as { problems?: { path: string }[] }).problems?.[0]?.path === '/solver',
    );
  });
});
