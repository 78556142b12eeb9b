import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csrFromEdges, GraphInputError, leiden, leidenAsync } from '@evident/graph-algorithms';
import { defaultLeidenThreads, PARALLEL_MIN_NODES } from '../src/leiden/restart-team.js';
import { disconnectedCommunities, edgeListModularity, loadTopologyGraph, nmi, TOPOLOGY_GRAPHS } from '@evident/testkit';

/** `call` throws a GraphInputError whose first problem is at `path`. */
function assertRefused(call: () => unknown, path: string): void {
  assert.throws(call, (e: unknown) => {
    assert.ok(e instanceof GraphInputError);
    assert.equal(e.problems?.[0]?.path, path);
    return true;
  });
}

describe('leiden against leidenalg on the reference graphs', () => {
  for (const name of TOPOLOGY_GRAPHS) {
    it(`${name}: modularity ≥ leidenalg's median − 0.002, every community connected, NMI ≥ leidenalg's`, () => {
      const g = loadTopologyGraph(name);
      const csr = csrFromEdges(g.n, g.sources, g.targets, g.weights);
      const result = leiden(csr, { seed: 0 });
      const q = edgeListModularity(g, result.membership);
      assert.ok(Math.abs(q - result.modularity) < 1e-9, `reported ${result.modularity}, recomputed ${q}`);
      const floor = g.expected.leidenalg_modularity_median_of_10 - 0.002;
      assert.ok(q >= floor, `modularity ${q} < ${floor}`);
      assert.deepEqual(disconnectedCommunities(g, result.membership), []);
      const expectedNmi = g.expected.leidenalg_nmi_vs_truth_seed0;
      if (g.truth && expectedNmi !== null && (name === 'lfr_5000_mu03' || name === 'sbm_20000')) {
        const score = nmi(result.membership, g.truth);
        assert.ok(score >= expectedNmi, `NMI ${score} < leidenalg's ${expectedNmi}`);
      }
    });
  }
});

describe('leiden', () => {
  const karate = loadTopologyGraph('karate');
  const csr = csrFromEdges(karate.n, karate.sources, karate.targets, karate.weights);

  it('is deterministic for a seed', () => {
    assert.deepEqual(leiden(csr, { seed: 7 }).membership, leiden(csr, { seed: 7 }).membership);
  });

  it('finds the planted cliques of a ring of cliques', () => {
    // 8 cliques of 6 nodes joined in a ring by single edges: modularity's optimum is the cliques.
    const s: number[] = [];
    const t: number[] = [];
    for (let c = 0; c < 8; c++) {
      for (let i = 0; i < 6; i++)
        for (let j = i + 1; j < 6; j++) {
          s.push(c * 6 + i);
          t.push(c * 6 + j);
        }
      s.push(c * 6);
      t.push(((c + 1) % 8) * 6 + 1);
    }
    const g = csrFromEdges(48, Int32Array.from(s), Int32Array.from(t));
    const r = leiden(g, { seed: 3 });
    assert.equal(r.count, 8);
    for (let v = 0; v < 48; v++) assert.equal(r.membership[v], r.membership[Math.floor(v / 6) * 6]);
  });

  it('gives fewer communities at a lower resolution', () => {
    const fine = leiden(csr, { resolution: 2 });
    const coarse = leiden(csr, { resolution: 0.3 });
    assert.ok(coarse.count < fine.count, `${coarse.count} ≥ ${fine.count}`);
  });

  it('leaves isolated nodes alone and handles an empty graph', () => {
    const g = csrFromEdges(4, Int32Array.from([0]), Int32Array.from([1]));
    const r = leiden(g);
    assert.equal(r.count, 3);
    assert.equal(r.membership[0], r.membership[1]);
    assert.equal(leiden(csrFromEdges(0, new Int32Array(0), new Int32Array(0))).count, 0);
  });

  it('keeps the best of its restarts (seeds seed, seed + 1, ...)', () => {
    // A sparse random graph: its converged partitions differ in modularity from seed to seed.
    let x = 12345;
    const next = () => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return x / 2 ** 32;
    };
    const s: number[] = [];
    const t: number[] = [];
    for (let k = 0; k < 3000; k++) {
      s.push(Math.floor(next() * 1500));
      t.push(Math.floor(next() * 1500));
    }
    const g = csrFromEdges(1500, Int32Array.from(s), Int32Array.from(t));
    const single = [0, 1, 2, 3].map((seed) => leiden(g, { seed, restarts: 1 }));
    const spread = new Set(single.map((r) => r.modularity));
    assert.ok(spread.size > 1, 'the seeds should not all reach the same partition');
    const best = single.reduce((a, b) => (b.modularity > a.modularity ? b : a));
    const four = leiden(g, { seed: 0, restarts: 4 });
    assert.equal(four.modularity, best.modularity);
    assert.deepEqual(four.membership, best.membership);
    // The default is the best of three runs.
    const bestOfThree = single.slice(0, 3).reduce((a, b) => (b.modularity > a.modularity ? b : a));
    assert.deepEqual(leiden(g, { seed: 0 }).membership, bestOfThree.membership);
    assert.deepEqual(leiden(g, { seed: 2, restarts: 1 }).membership, single[2]!.membership);
    assertRefused(() => leiden(g, { restarts: 0 }), '/restarts');
  });

  it('runs its restarts on worker threads with the same result as on one thread', () => {
    // Four runs of about a second each: time for the worker to start (tsx compiles it first) and take some.
    const g = loadTopologyGraph('sbm_20000');
    const graph = csrFromEdges(g.n, g.sources, g.targets, g.weights);
    const one = leiden(graph, { seed: 4, restarts: 4, threads: 1 });
    assert.equal(one.workerRestarts, 0);
    const progress: number[] = [];
    const two = leiden(graph, { seed: 4, restarts: 4, threads: 2, hooks: { progress: (_s, f) => progress.push(f) } });
    assert.ok(two.workerRestarts >= 1, 'the worker ran a restart');
    assert.equal(two.modularity, one.modularity);
    assert.equal(two.iterations, one.iterations);
    assert.deepEqual(two.membership, one.membership);
    assert.ok(progress.length > 1 && progress.at(-1) === 1);
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i]! >= progress[i - 1]!, 'progress never goes back');
    const aborted = new AbortController();
    aborted.abort();
    assert.throws(() => leiden(graph, { restarts: 3, threads: 2, hooks: { signal: aborted.signal } }), /abort/i);
    assertRefused(() => leiden(graph, { threads: 0 }), '/threads');
  });

  it('leidenAsync: the same result with the restarts on workers, the event loop answering meanwhile', async () => {
    const g = loadTopologyGraph('sbm_20000');
    const graph = csrFromEdges(g.n, g.sources, g.targets, g.weights);
    const one = leiden(graph, { seed: 4, restarts: 4, threads: 1 });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const progress: number[] = [];
    const pending = leidenAsync(graph, {
      seed: 4,
      restarts: 4,
      threads: 2,
      hooks: { progress: (_s, f) => progress.push(f) },
    });
    const two = await pending;
    clearInterval(timer);
    assert.ok(ticks > 0, 'the event loop ran while the restarts ran');
    assert.equal(two.workerRestarts, 4);
    assert.equal(two.modularity, one.modularity);
    assert.deepEqual(two.membership, one.membership);
    assert.ok(progress.length > 2 && progress.at(-1) === 1);
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i]! >= progress[i - 1]!, 'progress never goes back');

    const stop = new AbortController();
    const aborted = leidenAsync(graph, { restarts: 4, threads: 2, hooks: { signal: stop.signal } });
    setTimeout(() => stop.abort(), 20);
    await assert.rejects(aborted, /abort/i);
    await assert.rejects(leidenAsync(graph, { threads: 0 }), (e: unknown) => e instanceof GraphInputError);
  });

  it('leidenAsync runs a small graph here when no thread count is asked for', async () => {
    const result = await leidenAsync(csr, { seed: 7 });
    assert.equal(result.workerRestarts, 0);
    assert.deepEqual(result.membership, leiden(csr, { seed: 7 }).membership);
  });

  it('by default runs one thread per restart, up to twice the cores, on large graphs and machines of 2 cores or more', () => {
    assert.equal(defaultLeidenThreads(PARALLEL_MIN_NODES - 1, 3, 8), 1);
    assert.equal(defaultLeidenThreads(PARALLEL_MIN_NODES, 3, 1), 1);
    assert.equal(defaultLeidenThreads(PARALLEL_MIN_NODES, 3, 2), 3);
    assert.equal(defaultLeidenThreads(PARALLEL_MIN_NODES, 16, 2), 4);
    assert.equal(defaultLeidenThreads(PARALLEL_MIN_NODES, 1, 8), 1);
  });

  it('refuses bad input naming the field', () => {
    assertRefused(() => leiden(csr, { resolution: -1 }), '/resolution');
    const asym = {
      n: 2,
      offsets: Int32Array.from([0, 1, 1]),
      targets: Int32Array.from([1]),
      weights: Float64Array.from([1]),
    };
    assert.throws(() => leiden(asym), /not symmetric/);
    assert.throws(() => csrFromEdges(2, Int32Array.from([0]), Int32Array.from([5])), /\/targets\/0/);
  });
});
