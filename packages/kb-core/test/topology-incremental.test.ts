// computeTopology's incremental mode through the KB: lfr_5000_mu03 (../shared/reference/topology) loaded as
// claims, a first computation (full), then batches touching under 1% of the entities (new claims between random
// entities, then the retraction of their source): each update is incremental, as current as the log, its
// modularity (recomputed from the edge list) within 0.002 of a full recompute on the same graph, its topics
// connected. Larger changes, other settings and `full: true` recompute in full; the basis survives a reopen.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  disconnectedCommunities,
  edgeListModularity,
  loadTopologyGraph,
  type TopologyReferenceGraph,
} from '@evident/testkit';
import { Random } from '@evident/graph-algorithms';
import { type ClaimInput, KbDB, KbValidationError } from '../src/index.js';
import { claim, tempKb } from './helpers.js';

const g = loadTopologyGraph('lfr_5000_mu03');

async function loadIntoKb(db: KbDB): Promise<void> {
  const batch: ClaimInput[] = [];
  for (let e = 0; e < g.sources.length; e++) {
    const [s, t, w] = [g.sources[e]!, g.targets[e]!, g.weights[e]!];
    for (let i = 0; i < w; i++) batch.push(claim(`n${s}`, 'gene', `links_${i}`, `n${t}`, 'gene', 'ref'));
  }
  await db.ingestBatch(batch);
}

/** `count` claims between random pairs of the reference graph's nodes from `source`; the edges they add. */
function randomClaims(count: number, seed: number, source: string) {
  const rng = new Random(seed);
  const claims: ClaimInput[] = [];
  const edges: [number, number][] = [];
  while (claims.length < count) {
    const a = rng.int(g.n);
    const b = rng.int(g.n);
    if (a === b) continue;
    claims.push(claim(`n${a}`, 'gene', 'batch_link', `n${b}`, 'gene', source));
    edges.push([a, b]);
  }
  return { claims, edges };
}

function withEdges(edges: [number, number][]): TopologyReferenceGraph {
  return {
    ...g,
    sources: Int32Array.from([...g.sources, ...edges.map((e) => e[0])]),
    targets: Int32Array.from([...g.targets, ...edges.map((e) => e[1])]),
    weights: Float64Array.from([...g.weights, ...edges.map(() => 1)]),
  };
}

/** Level-0 membership per node, read back through queryTopic. */
async function membershipOf(db: KbDB): Promise<Int32Array> {
  const m = new Int32Array(g.n).fill(-1);
  for (const t of await db.topics({ level: 0 })) {
    const { entities } = await db.queryTopic(t.topic_id, { limit: 100_000 });
    for (const e of entities) m[Number(e.id.slice('gene:n'.length))] = Number(t.topic_id.split('.')[1]);
  }
  return m;
}

describe('computeTopology: incremental updates', () => {
  const tmp = tempKb();
  let db: KbDB;
  before(async () => {
    db = await KbDB.open(tmp.path);
    await loadIntoKb(db);
  });
  after(async () => {
    await db.close();
    tmp.cleanup();
  });

  /** Incremental, then full on the same graph: the gap, connectedness and currency checked. */
  async function checkUpdate(graph: TopologyReferenceGraph, changedAtMost: number) {
    const inc = await db.computeTopology({ seed: 0, levels: 2 });
    assert.equal(inc.mode, 'incremental', String(inc.full_reason));
    assert.ok(inc.changed_entities! > 0 && inc.changed_entities! <= changedAtMost, `${inc.changed_entities}`);
    assert.ok(inc.affected_entities! >= inc.changed_entities!);
    assert.equal((await db.stats()).derived.topology?.current, true);
    const m = await membershipOf(db);
    assert.ok(m.every((c) => c >= 0));
    const q = edgeListModularity(graph, m);
    assert.ok(Math.abs(q - inc.levels[0]!.modularity) < 1e-9, `reported ${inc.levels[0]!.modularity}, recomputed ${q}`);
    assert.deepEqual(disconnectedCommunities(graph, m), [], 'every topic is connected');
    assert.equal(inc.levels.length, 2);
    const full = await db.computeTopology({ seed: 0, levels: 2, full: true });
    assert.equal(full.mode, 'full');
    assert.match(full.full_reason!, /asked for/);
    const qFull = edgeListModularity(graph, await membershipOf(db));
    assert.ok(q >= qFull - 0.002, `incremental ${q} < full ${qFull} − 0.002`);
  }

  it('updates after batches touching under 1% of the entities, within 0.002 of a full recompute', async () => {
    const first = await db.computeTopology({ seed: 0, levels: 2 });
    assert.equal(first.mode, 'full');
    assert.match(first.full_reason!, /no previous result/);
    assert.equal(first.changed_entities, null);

    const added = randomClaims(20, 1, 'batch-1');
    await db.ingestBatch(added.claims);
    await checkUpdate(withEdges(added.edges), 40);

    // The retraction of that source takes its facts away again: the entities they joined changed.
    await db.retract('batch-1', 'test');
    await checkUpdate(g, 40);
  });

  it('recomputes in full after a larger change, with other settings, or when asked; the basis survives a reopen', async () => {
    await db.computeTopology({ seed: 0, levels: 2 });
    const big = randomClaims(200, 2, 'batch-2');
    await db.ingestBatch(big.claims);
    const r = await db.computeTopology({ seed: 0, levels: 2 });
    assert.equal(r.mode, 'full');
    assert.match(r.full_reason!, /entities changed, more than 0.01/);
    // The same change is small enough under a larger share.
    await db.ingestBatch(randomClaims(200, 3, 'batch-3').claims);
    const loose = await db.computeTopology({ seed: 0, levels: 2, incremental_max_fraction: 0.2 });
    assert.equal(loose.mode, 'incremental', String(loose.full_reason));
    assert.ok(loose.changed_entities! > 0.01 * loose.entity_count);
    const other = await db.computeTopology({ seed: 1, levels: 2 });
    assert.equal(other.mode, 'full');
    assert.match(other.full_reason!, /other settings/);

    await db.close();
    db = await KbDB.open(tmp.path);
    const small = randomClaims(5, 4, 'batch-4');
    await db.ingestBatch(small.claims);
    const reopened = await db.computeTopology({ seed: 1, levels: 2 });
    assert.equal(reopened.mode, 'incremental', String(reopened.full_reason));
    assert.ok(reopened.changed_entities! <= 10);

    await assert.rejects(db.computeTopology({ incremental_max_fraction: 2 }), (e: unknown) => {
      assert.ok(e instanceof KbValidationError);
      assert.equal(e.problems?.[0]?.path, '/incremental_max_fraction');
      return true;
    });
  });
});
