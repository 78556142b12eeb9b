// The engine's column-only shapes through the KB's adapter (issue 40): an OPTIONAL MATCH projected to both ends'
// properties over the entity columns (OptionalColumnScan), counts through a filter on a fixed hop's far end
// (ExpandCount), and result cells converted without a tree, each against the row-by-row answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open } from '../src/index.js';
import { claim, tempKb } from './helpers.js';

test('rawQuery: OPTIONAL MATCH over the entity columns and counts above a fixed hop give the row-by-row rows', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path, { embedding: false });
    const claims = [];
    for (let i = 0; i < 12; i++) {
      claims.push(claim(`G${i}`, 'gene', 'associated_with', `D${i % 4}`, 'disease', `s${i}`));
      if (i % 3 === 0) claims.push(claim(`D${i % 4}`, 'disease', 'affects', `G${i}`, 'gene', `t${i}`));
      if (i % 2 === 0) claims.push(claim(`X${i}`, 'drug', 'targets', `G${i}`, 'gene', `u${i}`));
      claims.push(claim(`G${i}`, 'gene', 'interacts_with', `G${(i * 5) % 12}`, 'gene', `v${i}`));
    }
    await db.ingestBatch(claims);
    const q =
      'MATCH (n:Gene) WHERE n.claim_count > 1 OPTIONAL MATCH (n)<-[]-(o:Disease) RETURN n.name AS name, o.name AS o';
    const plan = await db.rawQuery(`EXPLAIN ${q}`);
    assert.match(JSON.stringify(plan.plan), /OptionalColumnScan/);
    // `o IS NULL` reads the far node itself: the same rows come from the row-by-row OptionalExpand.
    const slow = await db.rawQuery(q.replace('o.name AS o', 'o.name AS o, o IS NULL AS none'));
    assert.ok(
      !JSON.stringify((await db.rawQuery(`EXPLAIN ${q}, o IS NULL AS none`)).plan).includes('OptionalColumnScan'),
    );
    const fast = await db.rawQuery(q);
    assert.deepEqual(
      fast.rows,
      slow.rows.map((r) => r.slice(0, 2)),
    );
    assert.ok(fast.rows.some((r) => r[1] === null) && fast.rows.some((r) => r[1] !== null));

    for (const where of ['b.claim_count > 1', 'EXISTS { (b)<--(:Drug) }', 'NOT EXISTS { (b)-->(:Disease) }']) {
      const count = `MATCH (a:Disease)-[]-(c)-[]-(b) WHERE ${where} RETURN count(*) AS n`;
      assert.match(JSON.stringify((await db.rawQuery(`EXPLAIN ${count}`)).plan), /ExpandCount/, where);
      const counted = await db.rawQuery(count);
      const rows = await db.rawQuery(`MATCH (a:Disease)-[]-(c)-[]-(b) WHERE ${where} RETURN b.name AS b`);
      assert.deepEqual(counted.rows, [[rows.rows.length]], where);
      assert.ok(rows.rows.length > 0, where);
    }
    const cells = await db.rawQuery("RETURN 9007199254740993 AS big, 3 AS small, null AS z, 'x' AS s, 1.5 AS f");
    assert.deepEqual(cells.rows, [['9007199254740993', 3, null, 'x', 1.5]]);
  } finally {
    t.cleanup();
  }
});
