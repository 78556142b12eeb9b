// The per-snapshot structures extended after a write that only appended claims (src/cypher/appended.ts): label
// rows, orders and counts, name and id dictionaries, fact passes and their confidence and source columns. After
// random interleavings of claims (new entities, new facts, corroborations of old facts), retractions and queries,
// the live base answers as an at(t) view of the same moment (which derives everything afresh) and, at the end,
// as the base reopened from its log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type ClaimInput, open, type KbView } from '../src/index.js';
import { claim, tempKb } from './helpers.js';

const QUERIES = [
  'MATCH ()-[r]->() RETURN type(r) AS t, count(*) AS c ORDER BY t',
  'MATCH (a)-[r:BINDS]->(b) RETURN b.type AS t, count(*) AS c, sum(r.source_count) AS s ORDER BY t',
  'MATCH (a:Gene)-[r]->(b) RETURN b.type AS t, avg(r.confidence) AS c, sum(r.source_count) AS s ORDER BY t',
  'MATCH (a)-[r]->(b) WHERE r.confidence > 0.8 RETURN count(*) AS c',
  'MATCH (g:Gene) RETURN g.name AS n, g.claim_count AS c ORDER BY n',
  'MATCH (p:Protein) RETURN p.name AS n, count(*) AS c ORDER BY n',
  'MATCH (n) RETURN n.id AS i ORDER BY i',
  "MATCH (g:Gene) WHERE g.name >= 'E2' AND g.name < 'E4' RETURN g.name AS n ORDER BY n",
  "MATCH (a:Protein)-[r]->(b) WHERE a.name STARTS WITH 'E1' RETURN b.type AS t, count(*) AS c ORDER BY t",
  'MATCH (n) RETURN n.type AS t, count(*) AS c ORDER BY t',
  'MATCH (n:Disease) RETURN count(*) AS c',
  'MATCH (n:Gene) RETURN count(*) AS c',
];

const answers = async (x: Pick<KbView, 'rawQuery'>) => {
  const out: unknown[] = [];
  for (const q of QUERIES) out.push((await x.rawQuery(q)).rows);
  return JSON.stringify(out, (_, v) => (typeof v === 'bigint' ? Number(v) : v));
};

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

const TYPES = ['gene', 'protein', 'disease'];
const PREDICATES = ['binds', 'associated_with', 'inhibits'];

test('structures grown after appends answer as derived afresh, across random claims, retractions and queries', async () => {
  for (const seed of [11, 12, 13]) {
    const t = tempKb();
    try {
      const random = rng(seed);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
      const db = await open(t.path);
      const stated: ClaimInput[] = [];
      let entities = 10;
      let source = 0;
      let grown = 0;
      for (let step = 0; step < 24; step++) {
        const r = random();
        if (r < 0.7 || stated.length === 0) {
          const batch = Array.from({ length: 1 + Math.floor(random() * 12) }, (): ClaimInput => {
            const kind = random();
            const src = `s${source++ % 7}`;
            // Corroborate an earlier fact from another source: its confidence and sources move.
            if (kind < 0.3 && stated.length > 0) {
              const c = pick(stated);
              return { ...c, provenance: { source_type: 'database', source_id: src }, confidence: 0.95 };
            }
            // A new entity (sometimes), else an old one.
            const s = kind < 0.55 ? entities++ : Math.floor(random() * entities);
            const o = Math.floor(random() * entities);
            return claim(`E${s}`, TYPES[s % 3]!, pick(PREDICATES), `E${o}`, TYPES[o % 3]!, src, {
              confidence: 0.5 + random() / 2,
            });
          });
          stated.push(...batch);
          await db.ingestBatch(batch);
          grown++;
        } else {
          await db.retract(`s${Math.floor(random() * 7)}`, 'test');
        }
        if (random() < 0.6) {
          const live = await answers(db);
          const afresh = await answers(await db.at(Date.now() + 60_000));
          assert.equal(live, afresh, `seed ${seed} step ${step}`);
          assert.equal(await answers(db), live, `seed ${seed} step ${step}, again`);
        }
      }
      assert.ok(grown > 5);
      const last = await answers(db);
      await db.close();
      await using reopened = await open(t.path);
      assert.equal(await answers(reopened), last, `seed ${seed}: as the reopened base`);
    } finally {
      t.cleanup();
    }
  }
});
