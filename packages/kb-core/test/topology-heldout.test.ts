// Held-out check of the incremental topology (issue 41, point 4), as a user would run it: a random graph (its
// size, number and sizes of communities, mixing and degree drawn from a seed that is itself random on each run,
// printed in every message; TOPOLOGY_HELDOUT_SEED=<n> repeats one) loaded as claims, computeTopology(), then a
// random batch touching 0.5% of the entities, then computeTopology() (incremental) against computeTopology({ full:
// true }) on the same graph: the update's level-0 modularity, recomputed here from the edge list, at most 0.002
// below the full recompute's (or, where the first full recompute was itself further below it, below that one's:
// see the assertion), and the result at the log's head.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { describe, it } from 'node:test';
import { Random } from '@evident/graph-algorithms';
import { type ClaimInput, KbDB } from '../src/index.js';
import { tempKb } from './helpers.js';

const SEED = Number(process.env.TOPOLOGY_HELDOUT_SEED ?? randomInt(2 ** 31 - 3));
const GRAPHS = 3;
const settings = { seed: 0, levels: 1 } as const;

interface Graph {
  n: number;
  pairs: [number, number][];
  about: string;
}

/** A planted partition of random shape: each edge inside its first end's community with probability 1 − mu. */
function randomGraph(seed: number): Graph {
  const rng = new Random(seed);
  const n = 1500 + rng.int(2500);
  const k = 5 + rng.int(45);
  const mu = 0.1 + 0.4 * rng.next();
  // Average degree 8-20, the regime of the KB benchmark's workload (about 17). On sparser graphs with weak structure
  // (degree 4-5, mu about 0.45) full recomputes with other seeds differ among themselves by 0.004-0.006 on one
  // graph, so a gap of 0.002 to one of them says more about that draw than about the update (topology README).
  const degree = 8 + rng.int(13);
  const community = Int32Array.from({ length: n }, () => rng.int(k));
  const members: number[][] = Array.from({ length: k }, () => []);
  for (let v = 0; v < n; v++) members[community[v]!]!.push(v);
  const seen = new Set<number>();
  const pairs: [number, number][] = [];
  for (let e = 0; e < (n * degree) / 2; e++) {
    const a = rng.int(n);
    const own = members[community[a]!]!;
    const b = rng.next() < mu ? rng.int(n) : own[rng.int(own.length)]!;
    const key = Math.min(a, b) * n + Math.max(a, b);
    if (a === b || seen.has(key)) continue;
    seen.add(key);
    pairs.push([a, b]);
  }
  return { n, pairs, about: `seed ${seed}: ${n} entities, ${k} communities, mu ${mu.toFixed(3)}, degree ${degree}` };
}

const claimOf = (a: number, b: number, source: string): ClaimInput => ({
  subject: [`v${a}`, 'gene'],
  predicate: ['links', 'association'],
  object: [`v${b}`, 'gene'],
  provenance: { source_type: 'literature', source_id: source },
});

/** Claims between random pairs of 0.5% of the entities (as many claims as entities), new pairs only. */
function randomBatch(g: Graph, seed: number): [number, number][] {
  const rng = new Random(seed ^ 0x5bd1e995);
  const touch = Math.max(2, Math.round(0.005 * g.n));
  const chosen = new Set<number>();
  while (chosen.size < touch) chosen.add(rng.int(g.n));
  const pool = [...chosen];
  const have = new Set(g.pairs.map(([a, b]) => Math.min(a, b) * g.n + Math.max(a, b)));
  const out: [number, number][] = [];
  for (let tries = 0; out.length < touch && tries < 100 * touch; tries++) {
    const a = pool[rng.int(pool.length)]!;
    const b = pool[rng.int(pool.length)]!;
    const key = Math.min(a, b) * g.n + Math.max(a, b);
    if (a === b || have.has(key)) continue;
    have.add(key);
    out.push([a, b]);
  }
  return out;
}

/** Newman's modularity (γ = 1) of `membership` (by node) over the unweighted edge list. */
function modularityOf(n: number, pairs: [number, number][], membership: Int32Array): number {
  const degree = new Float64Array(n);
  let inside = 0;
  for (const [a, b] of pairs) {
    degree[a]!++;
    degree[b]!++;
    if (membership[a] === membership[b]) inside++;
  }
  const m = pairs.length;
  const total = new Map<number, number>();
  for (let v = 0; v < n; v++) total.set(membership[v]!, (total.get(membership[v]!) ?? 0) + degree[v]!);
  let q = inside / m;
  for (const d of total.values()) q -= (d / (2 * m)) ** 2;
  return q;
}

async function level0(db: KbDB, n: number): Promise<Int32Array> {
  const m = new Int32Array(n).fill(-1);
  for (const t of await db.topics({ level: 0 })) {
    const { entities } = await db.queryTopic(t.topic_id, { limit: 100_000 });
    for (const e of entities) m[Number(e.id.slice('gene:v'.length))] = Number(t.topic_id.split('.')[1]);
  }
  return m;
}

describe(`incremental topology on random graphs (held out; TOPOLOGY_HELDOUT_SEED=${SEED})`, () => {
  for (let i = 0; i < GRAPHS; i++) {
    const g = randomGraph(SEED + i);
    it(`${g.about}: a 0.5% batch updates within 0.002 of a full recompute`, { timeout: 300_000 }, async () => {
      const t = tempKb();
      const db = await KbDB.open(t.path, { embedding: false });
      try {
        await db.ingestBatch(g.pairs.map(([a, b]) => claimOf(a, b, 'base')));
        const before = await db.computeTopology(settings);
        assert.equal(before.mode, 'full');
        const batch = randomBatch(g, SEED + i);
        await db.ingestBatch(batch.map(([a, b]) => claimOf(a, b, 'batch')));
        const all = [...g.pairs, ...batch];
        const inc = await db.computeTopology(settings);
        assert.equal(inc.mode, 'incremental', `${g.about}: ${inc.full_reason}`);
        assert.equal(inc.log_seq, (await db.stats()).log_seq, 'as current as the log');
        const membership = await level0(db, g.n);
        const entities = new Set(all.flat());
        assert.ok(
          [...entities].every((v) => membership[v]! >= 0),
          `${g.about}: every entity in a topic`,
        );
        const qInc = modularityOf(g.n, all, membership);
        assert.ok(Math.abs(qInc - inc.levels[0]!.modularity) < 1e-9, `${g.about}: reported modularity`);
        const full = await db.computeTopology({ ...settings, full: true });
        const qFull = modularityOf(g.n, all, await level0(db, g.n));
        // The update keeps the basin of the partition it starts from. Where the first full recompute itself landed
        // more than the tolerance below this one (a converged run's best of three varies by up to ~0.003 on graphs
        // of weak structure: 0.5327-0.5355 over six seeds on seed 2066666912's), the update is held to that
        // partition's modularity instead: it must not lose more than the tolerance against what it updated.
        const qBefore = before.levels[0]!.modularity;
        const floor = Math.min(qFull, qBefore) - 0.002;
        assert.ok(
          qInc >= floor,
          `${g.about}: incremental ${qInc} < min(full ${qFull}, previous full ${qBefore}) − 0.002`,
        );
        assert.equal(full.entity_count, inc.entity_count);
      } finally {
        await db.close();
        t.cleanup();
      }
    });
  }
});
