// Index-started aggregations read slots from the graph (KbCypherGraph.findSlotsInRange), not nodes: after random
// interleavings of claims, retractions and queries, each indexed shape answers as the same shape with its filter
// written so no index applies (a pass over every relationship), and as the base reopened from its log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, type KbView } from '../src/index.js';
import { KbCypherGraph } from '../src/cypher/graph.js';
import { claim, tempKb } from './helpers.js';

// [indexed, unindexed] pairs: a name prefix, a name range, an id equality, on either end, with and without a label.
const PAIRS: [string, string][] = [
  [
    "MATCH (a:Gene)-[r]->(b) WHERE a.name STARTS WITH 'E1' RETURN b.type AS t, count(*) AS c ORDER BY t",
    "MATCH (a:Gene)-[r]->(b) WHERE substring(a.name, 0, 2) = 'E1' RETURN b.type AS t, count(*) AS c ORDER BY t",
  ],
  [
    "MATCH (a)-[r]->(b:Protein) WHERE b.name >= 'E2' AND b.name < 'E5' RETURN a.type AS t, count(*) AS c ORDER BY t",
    "MATCH (a)-[r]->(b:Protein) WHERE b.name + '' >= 'E2' AND b.name + '' < 'E5' RETURN a.type AS t, count(*) AS c ORDER BY t",
  ],
  [
    "MATCH (a)-[r]->(b) WHERE a.id = 'gene:e4' RETURN b.name AS n, count(*) AS c ORDER BY n",
    "MATCH (a)-[r]->(b) WHERE a.id + '' = 'gene:e4' RETURN b.name AS n, count(*) AS c ORDER BY n",
  ],
  [
    "MATCH (a:Protein)-[r]->(b) WHERE a.name = 'E7' RETURN b.type AS t, count(*) AS c ORDER BY t",
    "MATCH (a:Protein)-[r]->(b) WHERE a.name + '' = 'E7' RETURN b.type AS t, count(*) AS c ORDER BY t",
  ],
];

const json = (rows: unknown) => JSON.stringify(rows, (_, v) => (typeof v === 'bigint' ? Number(v) : v));

async function answers(db: Pick<KbView, 'rawQuery'>, which: 0 | 1): Promise<string[]> {
  const out: string[] = [];
  for (const pair of PAIRS) out.push(json((await db.rawQuery(pair[which])).rows));
  return out;
}

// Deterministic pseudo-random numbers (mulberry32), so a failure replays.
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('index-started aggregations from slots answer as the full pass, after random claims and retractions', async () => {
  for (const seed of [1, 2]) {
    const t = tempKb();
    try {
      const random = rng(seed);
      const db = await open(t.path);
      const types = ['gene', 'protein', 'disease'];
      let source = 0;
      for (let step = 0; step < 14; step++) {
        const r = random();
        if (r < 0.6 || source === 0) {
          const batch = Array.from({ length: 1 + Math.floor(random() * 25) }, () => {
            const s = `E${Math.floor(random() * 60)}`;
            const o = `E${Math.floor(random() * 60)}`;
            const st = types[Math.floor(random() * 2)]!;
            const ot = types[Math.floor(random() * 3)]!;
            return claim(s, st, random() < 0.5 ? 'binds' : 'associated_with', o, ot, `s${source++ % 9}`);
          });
          await db.ingestBatch(batch);
        } else {
          await db.retract(`s${Math.floor(random() * 9)}`, 'test');
        }
        if (random() < 0.7) {
          const indexed = await answers(db, 0);
          assert.deepEqual(indexed, await answers(db, 1), `seed ${seed} step ${step}`);
          // Asked twice: the second from the kept orders.
          assert.deepEqual(await answers(db, 0), indexed, `seed ${seed} step ${step}, again`);
        }
      }
      const last = await answers(db, 0);
      assert.deepEqual(last, await answers(db, 1));
      assert.ok(
        last.some((a) => a !== '[]'),
        'some shape finds rows',
      );
      await db.close();
      await using reopened = await open(t.path);
      assert.deepEqual(await answers(reopened, 0), last, `seed ${seed}: as the reopened base`);
    } finally {
      t.cleanup();
    }
  }
});

test('an index-started aggregation takes slots from the graph, building no node per hit', async () => {
  const t = tempKb();
  const proto = KbCypherGraph.prototype;
  const slots = proto.findSlotsInRange;
  const nodes = proto.findNodesInRange;
  const calls = { slots: 0, nodes: 0 };
  proto.findSlotsInRange = function (...args) {
    calls.slots++;
    return slots.apply(this, args);
  };
  proto.findNodesInRange = function (...args) {
    calls.nodes++;
    return nodes.apply(this, args);
  };
  try {
    await using db = await open(t.path);
    const batch = Array.from({ length: 400 }, (_, i) =>
      claim(`E${i % 120}`, i % 2 === 0 ? 'gene' : 'protein', 'binds', `E${(i * 7) % 120}`, 'protein', `s${i}`),
    );
    await db.ingestBatch(batch);
    for (const [indexed, full] of PAIRS) {
      const before = calls.slots;
      const rows = (await db.rawQuery(indexed)).rows;
      assert.ok(rows.length > 0, `rows found: ${indexed}`);
      assert.deepEqual(rows, (await db.rawQuery(full)).rows, indexed);
      assert.ok(calls.slots > before, `slots asked for: ${indexed}`);
    }
    assert.equal(calls.nodes, 0, 'no node range asked for');
  } finally {
    proto.findSlotsInRange = slots;
    proto.findNodesInRange = nodes;
    t.cleanup();
  }
});
