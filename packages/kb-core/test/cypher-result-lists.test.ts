import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open } from '../src/index.js';
import { claim, tempKb } from './helpers.js';

// Result lists are converted to JSON-able data: a list of plain values is copied whole, one holding integers,
// nodes or lists element by element. Either way the caller gets its own array.
test('rawQuery: result lists are the caller own copies, integers in them converted, collect() over a chain in match order', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path, { embedding: false });
    await db.ingestBatch([
      claim('EGFR', 'gene', 'inhibited_by', 'erlotinib', 'drug', 's1'),
      claim('EGFR', 'gene', 'inhibited_by', 'gefitinib', 'drug', 's1'),
      claim('KRAS', 'gene', 'inhibited_by', 'sotorasib', 'drug', 's2'),
      claim('KRAS', 'gene', 'associated_with', 'NSCLC', 'disease', 's2'),
      claim('EGFR', 'gene', 'associated_with', 'NSCLC', 'disease', 's1'),
    ]);
    // The aliases list is the node's own (its property bag's): the caller changing its copy changes nothing.
    const q = 'MATCH (n:Gene {name: "EGFR"}) RETURN n.aliases AS a, labels(n) AS l';
    const first = (await db.rawQuery(q)).rows[0] as string[][];
    assert.deepEqual(first, [[], ['Gene', 'Entity']]);
    for (const list of first) list.push('changed by the caller');
    assert.deepEqual((await db.rawQuery(q)).rows[0], [[], ['Gene', 'Entity']]);
    // A list literal is planned once and the plan kept: the caller's copy is not the kept one.
    const literal = 'RETURN ["a", "b"] AS xs';
    ((await db.rawQuery(literal)).rows[0]![0] as string[]).push('changed by the caller');
    assert.deepEqual((await db.rawQuery(literal)).rows, [[['a', 'b']]]);

    // Integers inside a list are converted; strings, floats, booleans and nulls kept.
    const mixed = await db.rawQuery('RETURN ["a", 1.5, true, null] AS plain, ["a", 2, [3, "b"]] AS nested');
    assert.deepEqual(mixed.rows, [
      [
        ['a', 1.5, true, null],
        ['a', 2, [3, 'b']],
      ],
    ]);

    // collect() over a two-hop chain (the columnar chain plan) equals the row-by-row answer grouped by hand.
    const chain = 'MATCH (g:Gene)-[r0]->(x)<-[r1]-(o) RETURN r0.predicate AS k, collect(o.name) AS names ORDER BY k';
    const rows = 'MATCH (g:Gene)-[r0]->(x)<-[r1]-(o) RETURN r0.predicate AS k, o.name AS name';
    const expected = new Map<string, string[]>();
    for (const [k, name] of (await db.rawQuery(rows)).rows as [string, string][]) {
      expected.set(k, [...(expected.get(k) ?? []), name]);
    }
    const got = (await db.rawQuery(chain)).rows as [string, string[]][];
    assert.deepEqual(
      got.map(([k, names]) => [k, [...names].sort()]),
      [...expected].sort(([a], [b]) => a.localeCompare(b)).map(([k, names]) => [k, names.sort()]),
    );
    assert.ok(got.some(([, names]) => names.length > 1));
  } finally {
    t.cleanup();
  }
});
