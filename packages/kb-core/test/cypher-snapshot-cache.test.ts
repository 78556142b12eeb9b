// The per-snapshot structures the Cypher adapter keeps across queries (src/cypher/snapshot-cache.ts): after
// claims and a retraction the next query answers from the new state, as a freshly opened base does, and a
// what-if view neither reads the base's kept structures nor leaves its own behind for the base.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, type KbView } from '../src/index.js';
import { claim, tempKb } from './helpers.js';

// Shapes that read the kept structures: the fact columns (by type, by predicate, in-degree, confidence), the
// entity rows and name dictionary of a label, the label counts, and ordered copies of a column.
const QUERIES = [
  'MATCH ()-[r]->() RETURN type(r) AS t, count(*) AS c ORDER BY t',
  'MATCH ()-[r:ASSOCIATED_WITH]->() RETURN r.predicate AS p, count(*) AS c ORDER BY p',
  'MATCH (a)-[r]->(d:Disease) RETURN d.name AS n, count(r) AS c ORDER BY c DESC, n LIMIT 5',
  'MATCH (a:Gene)-[r]->(b) RETURN b.type AS t, avg(r.confidence) AS c, sum(r.source_count) AS s ORDER BY t',
  'MATCH (g:Gene) RETURN g.name AS n, g.claim_count AS c ORDER BY n',
  'MATCH (g:Gene) WHERE g.name >= "G" RETURN count(*) AS c',
  'MATCH (n) RETURN n.type AS t, count(*) AS c ORDER BY t',
  'MATCH (n:Disease) RETURN count(*) AS c',
  // Range counts read an ordered copy of the claim counts, kept while the label's rows are (range-count.ts).
  'MATCH (g:Gene) WHERE g.claim_count >= 2 RETURN count(*) AS c',
  'MATCH (d:Disease) WHERE d.claim_count > 3 AND d.claim_count <= 12 RETURN count(*) AS c',
  // Whole-label counts read totals kept with the per-slot degrees (label-totals.ts).
  'MATCH (g:Gene) WHERE EXISTS { (g)-->(:Drug) } RETURN count(*) AS c',
  'MATCH (d:Disease) OPTIONAL MATCH (d)<--(g:Gene) RETURN count(*) AS c, count(g) AS k',
];

const answers = async (x: Pick<KbView, 'rawQuery'>) => {
  const out: unknown[] = [];
  for (const q of QUERIES) out.push((await x.rawQuery(q)).rows);
  return JSON.stringify(out, (_, v) => (typeof v === 'bigint' ? Number(v) : v));
};

const genes = (from: number, to: number, source: (i: number) => string) =>
  Array.from({ length: to - from }, (_, k) => {
    const i = from + k;
    const p = i % 3 === 0 ? 'inhibits' : 'associated_with';
    return claim(`G${i}`, 'gene', p, `D${i % 4}`, i % 5 === 0 ? 'drug' : 'disease', source(i), { confidence: 0.5 });
  });

test('rawQuery after claims and a retraction answers from the new state, as a reopened base does', async () => {
  const t = tempKb();
  try {
    const db = await open(t.path);
    await db.ingestBatch(genes(0, 30, (i) => `s${i % 6}`));
    const first = await answers(db);
    assert.equal(await answers(db), first, 'the same answers from kept structures');
    await db.ingestBatch([...genes(30, 45, (i) => `s${i % 6}`), ...genes(0, 10, () => 'extra')]);
    const afterClaims = await answers(db);
    assert.notEqual(afterClaims, first, 'the new claims show');
    await db.retract('s1', 'test');
    const afterRetract = await answers(db);
    assert.notEqual(afterRetract, afterClaims, 'the retraction shows');
    await db.close();
    await using reopened = await open(t.path);
    assert.equal(await answers(reopened), afterRetract, 'as the base rebuilt from its log answers');
  } finally {
    t.cleanup();
  }
});

test("a what-if view neither reads nor changes the base's kept structures", async () => {
  const t = tempKb();
  const u = tempKb();
  try {
    await using db = await open(t.path);
    await using twin = await open(u.path);
    const base = genes(0, 40, (i) => `s${i % 5}`);
    await db.ingestBatch(base);
    await twin.ingestBatch(base);
    const before = await answers(db);
    const added = [...genes(40, 60, () => 'w'), ...genes(0, 8, () => 'w2')];
    for (const change of [
      { add_claims: added, retract_sources: ['s2'] },
      { retract_sources: ['s3'] },
      { add_claims: added },
    ]) {
      const v = await db.whatIf(change);
      const hypothetical = await answers(v);
      assert.notEqual(hypothetical, before, 'the view answers from its own state');
      assert.equal(await answers(db), before, "the base's answers are untouched");
      assert.equal(await answers(v), hypothetical, 'and the view keeps its own');
    }
    // The hypothetical answers are those of a base really written so.
    const v = await db.whatIf({ add_claims: added, retract_sources: ['s2'] });
    const hypothetical = await answers(v);
    await twin.retractCascade('s2', 'x');
    await twin.ingestBatch(added);
    assert.equal(hypothetical, await answers(twin));
    const at = await db.at(Date.now());
    assert.equal(await answers(at), before, 'an at(t) view of now answers as the base');
  } finally {
    t.cleanup();
    u.cleanup();
  }
});
