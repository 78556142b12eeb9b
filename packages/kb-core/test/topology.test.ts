// The topology stage through the KB: the reference graphs of ../shared/reference/topology loaded as claims (one
// entity per node; one claim per edge, an edge of integer weight w as w claims of distinct predicates, so that
// A_ij — distinct active facts — is the weight), then the same checks as @evident/graph-algorithms' own tests.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  disconnectedCommunities,
  edgeListModularity,
  loadTopologyGraph,
  nmi,
  TOPOLOGY_GRAPHS,
  type TopologyReferenceGraph,
} from '@evident/testkit';
import { type ClaimInput, KbDB, KbNotFoundError, KbTopologyNotComputedError, KbValidationError } from '../src/index.js';
import { claim, tempKb } from './helpers.js';

async function loadIntoKb(db: KbDB, g: TopologyReferenceGraph): Promise<void> {
  let batch: ClaimInput[] = [];
  for (let e = 0; e < g.sources.length; e++) {
    const [s, t, w] = [g.sources[e]!, g.targets[e]!, g.weights[e]!];
    for (let i = 0; i < w; i++) batch.push(claim(`n${s}`, 'gene', `links_${i}`, `n${t}`, 'gene', 'ref'));
    if (batch.length >= 20_000) {
      await db.ingestBatch(batch);
      batch = [];
    }
  }
  if (batch.length) await db.ingestBatch(batch);
}

/** Level-0 membership per node, read back through queryTopic. */
async function membershipOf(db: KbDB, n: number): Promise<Int32Array> {
  const m = new Int32Array(n).fill(-1);
  for (const t of await db.topics({ level: 0 })) {
    const { entities } = await db.queryTopic(t.topic_id, { limit: 100_000 });
    for (const e of entities) m[Number(e.id.slice('gene:n'.length))] = Number(t.topic_id.split('.')[1]);
  }
  return m;
}

for (const name of TOPOLOGY_GRAPHS) {
  describe(`topology through the KB: ${name}`, () => {
    const tmp = tempKb();
    let db: KbDB;
    const g = loadTopologyGraph(name);
    before(async () => {
      db = await KbDB.open(tmp.path);
      await loadIntoKb(db, g);
    });
    after(async () => {
      await db.close();
      tmp.cleanup();
    });

    it('level-0 modularity ≥ leidenalg median − 0.002, connected topics, NMI ≥ leidenalg, σ = scipy to 1e-6', async () => {
      const result = await db.computeTopology({ seed: 0, levels: 2 });
      assert.equal(result.entity_count, g.n);
      const m = await membershipOf(db, g.n);
      assert.ok(m.every((c) => c >= 0));
      const q = edgeListModularity(g, m);
      assert.ok(Math.abs(q - result.levels[0]!.modularity) < 1e-9);
      assert.ok(q >= g.expected.leidenalg_modularity_median_of_10 - 0.002, `modularity ${q}`);
      assert.deepEqual(disconnectedCommunities(g, m), [], 'every topic is connected');
      if (g.truth && g.expected.leidenalg_nmi_vs_truth_seed0 !== null && name !== 'karate') {
        assert.ok(nmi(m, g.truth) >= g.expected.leidenalg_nmi_vs_truth_seed0, `NMI ${nmi(m, g.truth)}`);
      }
      const emb = await db.generateStructuralEmbeddings({ dim: 16, seed: 1 });
      g.expected.top_singular_values.forEach((v, i) => {
        const rel = Math.abs(emb.singular_values[i]! - v) / v;
        assert.ok(rel <= 1e-6, `σ${i + 1} ${emb.singular_values[i]} vs ${v}`);
      });
    });
  });
}

describe('topology through the KB: behaviour', () => {
  const tmp = tempKb();
  let db: KbDB;
  before(async () => {
    db = await KbDB.open(tmp.path);
  });
  after(async () => {
    await db.close();
    tmp.cleanup();
  });

  it('reads before a computation say to compute first; an empty base gives an empty result', async () => {
    await assert.rejects(db.topics(), KbTopologyNotComputedError);
    await assert.rejects(db.similarEntities('x'), /generateStructuralEmbeddings first/);
    const r = await db.computeTopology();
    assert.equal(r.entity_count, 0);
    assert.deepEqual(r.topics, []);
    assert.deepEqual((await db.generateStructuralEmbeddings()).singular_values, []);
  });

  it('two cliques joined by a bridge: two topics, the bridge entities, density, embeddings, persistence', async () => {
    const claims: ClaimInput[] = [];
    for (const side of ['a', 'b']) {
      for (let i = 0; i < 5; i++) {
        for (let j = i + 1; j < 5; j++)
          claims.push(claim(`${side}${i}`, 'gene', 'binds', `${side}${j}`, 'gene', `src-${side}`));
      }
    }
    claims.push(claim('a0', 'gene', 'treats', 'b0', 'disease', 'bridge-src'));
    claims.push(claim('a0', 'gene', 'binds', 'b0', 'gene', 'bridge-src'));
    await db.ingestBatch(claims);
    const r = await db.computeTopology({ seed: 1 });
    const level0 = r.topics.filter((t) => t.level === 0);
    assert.equal(level0.length, 2);
    // disease:b0 hangs off a0 alone, so it joins a's topic.
    assert.deepEqual(level0.map((t) => t.size).sort(), [5, 6]);
    assert.ok(
      level0.every((t) => /\(gene; binds\)$/.test(t.label)),
      level0.map((t) => t.label).join(' | '),
    );
    const stats = await db.stats();
    assert.equal(stats.derived.topology?.current, true);
    const bridges = await db.crossDomainBridges({ top_k: 2 });
    assert.deepEqual(bridges.map((b) => b.entity.id).sort(), ['gene:a0', 'gene:b0']);
    assert.ok(bridges[0]!.claim_ids.length > 0 && bridges[0]!.participation_coefficient > 0);
    const density = await db.densityMap();
    const bSide = density.find((d) => d.size === 5)!;
    assert.equal(bSide.internal_density, 1);
    assert.equal(bSide.internal_claim_count, 10);
    assert.equal(density.find((d) => d.size === 6)!.internal_claim_count, 11);
    const contents = await db.queryTopic(level0[0]!.topic_id, { limit: 3 });
    assert.equal(contents.entities.length, 3);
    assert.equal(contents.entities[0]!.centrality, 1);
    await assert.rejects(db.queryTopic('9.9'), KbNotFoundError);

    // More dimensions than the base has entities (11) is reduced to entities − 1, and the result says so.
    const reduced = await db.generateStructuralEmbeddings({ dim: 12 });
    assert.equal(reduced.dim, 10);
    assert.equal(reduced.requested_dim, 12);
    assert.deepEqual(
      reduced.warnings.map((w) => [w.code, w.field]),
      [['dim_reduced', 'dim']],
    );
    await assert.rejects(db.generateStructuralEmbeddings({ dim: 0 }), (e: unknown) => {
      assert.ok(e instanceof KbValidationError);
      assert.equal(e.problems?.[0]?.path, '/dim');
      return true;
    });
    // Two dimensions: past the two large singular values (about 4, one per clique) comes each clique's eigenvalue
    // −1, four times over, and any basis of that eigenspace is as right as another, so a third or fourth
    // dimension would tell a1 from its structural twins a2-a4 by an arbitrary choice.
    await db.generateStructuralEmbeddings({ dim: 2, seed: 3 });
    const similar = await db.similarEntities('gene:a1', { k: 3 });
    assert.deepEqual(
      similar.map((s) => s.entity.id).sort(),
      ['gene:a2', 'gene:a3', 'gene:a4'],
      JSON.stringify(similar),
    );
    for (const s of similar) assert.ok(Math.abs(s.similarity - 1) < 1e-9, JSON.stringify(similar));
    assert.equal((await db.entityEmbedding('gene:a1')).vector.length, 2);

    // New claims make the results stale; they survive reopening (kept beside the base).
    await db.ingestBatch([claim('c0', 'gene', 'binds', 'c1', 'gene', 'late')]);
    assert.equal((await db.stats()).derived.topology?.current, false);
    await db.close();
    db = await KbDB.open(tmp.path);
    assert.equal((await db.topics({ level: 0 })).length, 2);
    assert.equal((await db.entityEmbedding('gene:a1')).dim, 2);
  });

  it('at(t) views compute over the claims active then; retraction changes the next computation', async () => {
    const before = Date.now();
    await new Promise((r) => setTimeout(r, 5));
    await db.retract('bridge-src', 'wrong');
    const now = await db.computeTopology({ seed: 1 });
    assert.equal(now.entity_count, 12); // b0 as disease left with the bridge; c0, c1 joined
    const past = await (await db.at(before)).computeTopology({ seed: 1 });
    assert.equal(past.entity_count, 13);
    await assert.rejects(db.computeTopology({ resolution: -1 }), /resolution/);
  });

  it('n_iterations counts Leiden iterations as leidenalg does (-1, the default, until nothing moves); restarts', async () => {
    const one = await db.computeTopology({ n_iterations: 1 });
    assert.deepEqual(
      one.levels.map((l) => l.iterations),
      one.levels.map(() => 1),
    );
    // From singletons the first iteration always moves nodes, so "until one moves none" takes at least two.
    const all = await db.computeTopology();
    assert.ok(all.levels[0]!.iterations >= 2, JSON.stringify(all.levels));
    // The default keeps the best of three runs, seed's among them, so it is never below seed's run alone.
    const single = await db.computeTopology({ restarts: 1 });
    assert.ok(all.levels[0]!.modularity >= single.levels[0]!.modularity);
    for (const bad of [0, 17, 1.5]) {
      await assert.rejects(db.computeTopology({ restarts: bad }), (e: unknown) => {
        assert.ok(e instanceof KbValidationError);
        assert.equal(e.problems?.[0]?.path, '/restarts');
        return true;
      });
    }
    for (const bad of [0, -2, 1.5, '2']) {
      await assert.rejects(db.computeTopology({ n_iterations: bad as number }), (e: unknown) => {
        assert.ok(e instanceof KbValidationError);
        assert.equal(e.problems?.[0]?.path, '/n_iterations');
        return true;
      });
    }
  });
});

describe('topology over 32,768 entities or more', () => {
  const tmp = tempKb();
  let db: KbDB;
  // A ring of 6,600 five-entity cliques (33,000 entities): large enough that Leiden's restarts go to worker threads.
  const cliques = 6_600;
  before(async () => {
    db = await KbDB.open(tmp.path);
    let batch: ClaimInput[] = [];
    for (let k = 0; k < cliques; k++) {
      for (let i = 0; i < 5; i++) {
        for (let j = i + 1; j < 5; j++) batch.push(claim(`q${k}_${i}`, 'gene', 'binds', `q${k}_${j}`, 'gene', 'ring'));
      }
      batch.push(claim(`q${k}_0`, 'gene', 'near', `q${(k + 1) % cliques}_4`, 'gene', 'ring'));
      if (batch.length >= 20_000) {
        await db.ingestBatch(batch);
        batch = [];
      }
    }
    await db.ingestBatch(batch);
  });
  after(async () => {
    await db.close();
    tmp.cleanup();
  });

  it('keeps reads and writes answered while Leiden runs; the result is of the log position it started at', async () => {
    const seqBefore = (await db.stats()).log_seq;
    let leidenStarted!: () => void;
    const started = new Promise<void>((resolve) => {
      leidenStarted = resolve;
    });
    let done = false;
    const computing = db
      .computeTopology({ restarts: 2, progress: (_stage, f) => f >= 0.05 && leidenStarted() })
      .finally(() => {
        done = true;
      });
    await started;
    // Answered while the computation is still running: a read, and a write of a new entity.
    const stats = await db.stats();
    await db.ingestBatch([claim('late_a', 'gene', 'binds', 'late_b', 'gene', 'late')]);
    assert.equal(done, false, 'the read and the write were answered before the computation ended');
    const result = await computing;
    assert.equal(result.entity_count, cliques * 5);
    assert.equal(result.log_seq, seqBefore);
    assert.ok(stats.log_seq === seqBefore);
    assert.equal((await db.stats()).derived.topology?.current, false);
    for (const t of await db.topics({ level: 0 })) assert.ok(!t.label.includes('late_'));
    const again = await db.computeTopology({ restarts: 2 });
    assert.equal(again.entity_count, cliques * 5 + 2);
  });
});
