// leidenIncremental on the reference graphs of ../shared/reference/topology, each perturbed by removing 0.4% of
// its edges and adding as many between random node pairs (seeded): against leiden() from scratch on the same
// perturbed graph, the update's modularity (recomputed from the edge list) is at most 0.002 below, every community
// is connected, and the nodes it reports unaffected kept their grouping exactly.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csrFromEdges, GraphInputError, leiden, leidenIncremental, Random } from '@evident/graph-algorithms';
import {
  disconnectedCommunities,
  edgeListModularity,
  loadTopologyGraph,
  TOPOLOGY_GRAPHS,
  type TopologyReferenceGraph,
} from '@evident/testkit';

/** `g` with `fraction` of its edges removed and as many random ones added; `changed` = every touched end. */
function perturb(g: TopologyReferenceGraph, fraction: number, seed: number) {
  const rng = new Random(seed);
  const m = g.sources.length;
  const k = Math.max(1, Math.floor(m * fraction));
  const removed = new Set<number>();
  while (removed.size < k) removed.add(rng.int(m));
  const s: number[] = [];
  const t: number[] = [];
  const w: number[] = [];
  const changed = new Set<number>();
  for (let e = 0; e < m; e++) {
    if (removed.has(e)) {
      changed.add(g.sources[e]!);
      changed.add(g.targets[e]!);
      continue;
    }
    s.push(g.sources[e]!);
    t.push(g.targets[e]!);
    w.push(g.weights[e]!);
  }
  for (let added = 0; added < k; ) {
    const a = rng.int(g.n);
    const b = rng.int(g.n);
    if (a === b) continue;
    s.push(a);
    t.push(b);
    w.push(1);
    changed.add(a);
    changed.add(b);
    added++;
  }
  const edges = { sources: Int32Array.from(s), targets: Int32Array.from(t), weights: Float64Array.from(w) };
  return { graph: { ...g, ...edges }, changed: Int32Array.from(changed) };
}

/** Nodes flagged 0 in `affected`: same community after exactly when same before (checked both ways). */
function assertUnaffectedKeptGrouping(before: Int32Array, after: Int32Array, affected: Uint8Array): void {
  const forward = new Map<number, number>();
  const backward = new Map<number, number>();
  for (let v = 0; v < before.length; v++) {
    if (affected[v] === 1) continue;
    const f = forward.get(before[v]!);
    if (f === undefined) forward.set(before[v]!, after[v]!);
    else assert.equal(after[v], f, `node ${v} left the untouched members of its community`);
    const b = backward.get(after[v]!);
    if (b === undefined) backward.set(after[v]!, before[v]!);
    else assert.equal(before[v], b, `node ${v} joined untouched nodes of another community`);
  }
}

describe('leidenIncremental on perturbed reference graphs', () => {
  for (const name of TOPOLOGY_GRAPHS) {
    it(`${name}: modularity within 0.002 of leiden() on the same graph, connected, unaffected nodes unmoved`, () => {
      const g = loadTopologyGraph(name);
      const before = leiden(csrFromEdges(g.n, g.sources, g.targets, g.weights), { seed: 0 }).membership;
      const { graph, changed } = perturb(g, 0.004, 11);
      const csr = csrFromEdges(graph.n, graph.sources, graph.targets, graph.weights);
      const full = leiden(csr, { seed: 0 });
      const inc = leidenIncremental(csr, before, changed, { seed: 0 });
      const q = edgeListModularity(graph, inc.membership);
      assert.ok(Math.abs(q - inc.modularity) < 1e-9, `reported ${inc.modularity}, recomputed ${q}`);
      const qFull = edgeListModularity(graph, full.membership);
      assert.ok(q >= qFull - 0.002, `incremental ${q} < full ${qFull} − 0.002`);
      assert.deepEqual(disconnectedCommunities(graph, inc.membership), []);
      for (const v of changed) assert.equal(inc.affected[v], 1, `changed node ${v} not affected`);
      let flagged = 0;
      for (const a of inc.affected) flagged += a;
      assert.equal(inc.affectedCount, flagged);
      assert.ok(inc.affectedCount < g.n / 2, `${inc.affectedCount} of ${g.n} nodes affected`);
      assertUnaffectedKeptGrouping(before, inc.membership, inc.affected);
    });
  }
});

describe('leidenIncremental, one update after another', () => {
  it('lfr_5000_mu03: ten successive updates of 0.4% of the edges each stay within 0.002 of leiden() from scratch', () => {
    // Each update starts from the previous update's partition, never from a full run: the gap must not pile up.
    let graph: TopologyReferenceGraph = loadTopologyGraph('lfr_5000_mu03');
    let membership = leiden(csrFromEdges(graph.n, graph.sources, graph.targets, graph.weights), { seed: 0 }).membership;
    for (let step = 0; step < 10; step++) {
      const next = perturb(graph, 0.004, 100 + step);
      graph = next.graph;
      const csr = csrFromEdges(graph.n, graph.sources, graph.targets, graph.weights);
      const inc = leidenIncremental(csr, membership, next.changed, { seed: step });
      const full = leiden(csr, { seed: 0 });
      assert.ok(
        inc.modularity >= full.modularity - 0.002,
        `step ${step}: ${inc.modularity} < ${full.modularity} − 0.002`,
      );
      assert.deepEqual(disconnectedCommunities(graph, inc.membership), []);
      membership = inc.membership;
    }
  });
});

describe('leidenIncremental', () => {
  const karate = loadTopologyGraph('karate');
  const csr = csrFromEdges(karate.n, karate.sources, karate.targets, karate.weights);
  const before = leiden(csr, { seed: 0 }).membership;

  it('leaves the partition as it is when nothing changed', () => {
    const r = leidenIncremental(csr, before, [], { seed: 0 });
    assert.deepEqual(r.membership, before);
    assert.equal(r.iterations, 0);
    assert.equal(r.affectedCount, 0);
  });

  it('is deterministic for a seed', () => {
    const { graph, changed } = perturb(loadTopologyGraph('lfr_5000_mu03'), 0.004, 3);
    const g = csrFromEdges(graph.n, graph.sources, graph.targets, graph.weights);
    const prev = leiden(csrFromEdges(graph.n, graph.sources, graph.targets, graph.weights), { seed: 1 }).membership;
    const a = leidenIncremental(g, prev, changed, { seed: 5 });
    const b = leidenIncremental(g, prev, changed, { seed: 5 });
    assert.deepEqual(a.membership, b.membership);
  });

  it('places new nodes (label −1) and splits a community a removed edge cut in two', () => {
    // Two 5-cliques joined by a bridge, as one community; then the bridge goes and a new node joins the first.
    const s: number[] = [];
    const t: number[] = [];
    for (const base of [0, 5])
      for (let i = 0; i < 5; i++)
        for (let j = i + 1; j < 5; j++) {
          s.push(base + i);
          t.push(base + j);
        }
    for (let i = 0; i < 5; i++) {
      s.push(10);
      t.push(i);
    }
    const g = csrFromEdges(11, Int32Array.from(s), Int32Array.from(t));
    const prev = Int32Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1]);
    const r = leidenIncremental(g, prev, [4, 5], { seed: 0 });
    assert.equal(r.count, 2);
    for (let v = 0; v < 5; v++) assert.equal(r.membership[v], r.membership[10]);
    for (let v = 5; v < 10; v++) assert.equal(r.membership[v], r.membership[5]);
    assert.notEqual(r.membership[0], r.membership[5]);
  });

  it('refuses bad input naming the field', () => {
    const refused = (call: () => unknown, path: string) =>
      assert.throws(call, (e: unknown) => e instanceof GraphInputError && e.problems?.[0]?.path === path);
    refused(() => leidenIncremental(csr, before.subarray(1), []), '/previous');
    refused(() => leidenIncremental(csr, before, [karate.n]), '/changed/0');
    refused(() => leidenIncremental(csr, Int32Array.from(before).fill(-2, 3, 4), []), '/previous/3');
    refused(() => leidenIncremental(csr, before, [], { maxIterations: 0 }), '/maxIterations');
  });
});
