// rawQuery's plan cache (src/cypher/raw-query.ts over @evident/cypher's PlanCache): a text asked again reuses its
// plan while the base's counts stay within 2x, is planned again when they move further (the anchor follows the
// smaller label, as on a freshly opened base), and write clauses and syntax errors are refused on every call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type KbView, open } from '../src/index.js';
import { claim, tempKb } from './helpers.js';

const Q = 'MATCH (g:Gene)-[r]->(d:Drug) WHERE g.claim_count >= $n RETURN g.name AS g, d.name AS d ORDER BY g, d';

/** What the plan starts at: the operator above the Argument at the bottom of its first inputs. */
async function anchor(x: Pick<KbView, 'rawQuery'>): Promise<string> {
  const path = [(await x.rawQuery(Q, { n: 1 }, { mode: 'explain' })).plan!];
  while (path.at(-1)!.children.length > 0) path.push(path.at(-1)!.children[0]!);
  return (path.at(-1)!.operator === 'Argument' ? path.at(-2)! : path.at(-1)!).details;
}

const targets = (genes: number, drugs: number, from: number) =>
  Array.from({ length: genes }, (_, i) =>
    claim(`G${i}`, 'gene', 'inhibited_by', `D${from + (i % drugs)}`, 'drug', `s${i % 7}`),
  );

test('a cached plan answers as a fresh base does across ingests, and is planned again when the anchor flips', async () => {
  const t = tempKb();
  try {
    let after: Awaited<ReturnType<KbView['rawQuery']>>;
    let cachedAnchor: string;
    {
      await using db = await open(t.path);
      await db.ingestBatch(targets(200, 4, 0));
      const first = await db.rawQuery(Q, { n: 1 });
      assert.equal(first.rows.length, 200);
      assert.deepEqual((await db.rawQuery(Q, { n: 1 })).rows, first.rows);
      assert.match(await anchor(db), /\(d:Drug\)/, 'four drugs: the scan starts at Drug');
      // Drugs outnumber genes many times over (each also bound to a gene, so rows change too).
      await db.ingestBatch(
        Array.from({ length: 3000 }, (_, i) => claim(`G${i % 200}`, 'gene', 'inhibited_by', `X${i}`, 'drug', 'more')),
      );
      after = await db.rawQuery(Q, { n: 1 });
      cachedAnchor = await anchor(db);
      assert.match(cachedAnchor, /\(g:Gene\)/, 'planned again: the scan starts at Gene');
    }
    await using fresh = await open(t.path);
    assert.equal(await anchor(fresh), cachedAnchor);
    assert.deepEqual((await fresh.rawQuery(Q, { n: 1 })).rows, after.rows);
    assert.equal(after.rows.length, 3200);
  } finally {
    t.cleanup();
  }
});

test('write clauses and syntax errors are refused on every call, the same text twice', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    await db.ingestBatch(targets(10, 2, 0));
    for (let i = 0; i < 2; i++) {
      await assert.rejects(db.rawQuery('MATCH (g:Gene) SET g.x = 1 RETURN g'), { code: 'cypher_read_only' });
      await assert.rejects(db.rawQuery('CREATE (n:Gene {name: "x"})'), { code: 'cypher_read_only' });
      await assert.rejects(db.rawQuery('MATCH (g:Gene)\nRETURN g.name ORDER'), (e: { position?: { line: number } }) => {
        assert.equal(e.position?.line, 2);
        return true;
      });
    }
    assert.equal((await db.rawQuery('MATCH (g:Gene) RETURN count(*) AS n')).rows[0]![0], 10);
  } finally {
    t.cleanup();
  }
});
