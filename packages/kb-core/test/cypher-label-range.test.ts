import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open } from '../src/index.js';
import { claim, tempKb } from './helpers.js';

const operators = (p: { operator: string; children: unknown[] }): string[] => [
  p.operator,
  ...(p.children as (typeof p)[]).flatMap(operators),
];

// Proteins and genes share names (E0…E79 each), so a range over names holds both labels' entities: a label's
// range seek must give its own, and an aggregation over an expansion from it the rows of the row-by-row plan.
test('rawQuery: a name range under a label gives that label’s entities; an aggregation over its expansion is columnar', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    const facts: [string, string, string, string][] = [];
    for (let i = 0; i < 80; i++) {
      const type = i % 3 === 0 ? 'gene' : 'protein';
      facts.push([`E${i}`, type, `D${i % 7}`, 'disease']);
      facts.push([`E${i}`, type, `E${(i * 7) % 80}`, i % 2 === 0 ? 'protein' : 'gene']);
    }
    await db.ingestBatch(facts.map(([s, st, o, ot], i) => claim(s, st, 'associated_with', o, ot, `s${i}`)));
    const proteins = [
      ...new Set(
        facts
          .flatMap(([s, st, o, ot]) => [
            [s, st],
            [o, ot],
          ])
          .filter(([, x]) => x === 'protein')
          .map(([n]) => n!),
      ),
    ];
    const inRange = (n: string) => n >= 'E1' && n < 'E3';
    const range = await db.rawQuery(
      "MATCH (p:Protein) WHERE p.name >= 'E1' AND p.name < 'E3' RETURN p.name AS n ORDER BY n",
      {},
      { mode: 'profile' },
    );
    assert.deepEqual(
      range.rows,
      proteins
        .filter(inRange)
        .sort()
        .map((n) => [n]),
    );
    assert.ok(operators(range.plan as never).includes('NodeIndexRangeSeek'));

    // Per far end type, the facts from proteins named E1…: what the row-by-row plan counts.
    const expected = new Map<string, number>();
    for (const [s, st, , ot] of facts) {
      if (st === 'protein' && s.startsWith('E1')) expected.set(ot, (expected.get(ot) ?? 0) + 1);
    }
    const q = "MATCH (p:Protein)-[r]->(x) WHERE p.name STARTS WITH 'E1' RETURN x.type AS t, count(*) AS c ORDER BY t";
    const agg = await db.rawQuery(q, {}, { mode: 'profile' });
    assert.deepEqual(
      agg.rows,
      [...expected].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, c]) => [k, c]),
    );
    assert.ok(operators(agg.plan as never).includes('ColumnarExpandAggregate'), operators(agg.plan as never).join(' '));
    // A prefix few proteins have: the aggregation starts at the index (its nodes' adjacency, not every fact).
    const one = await db.rawQuery(
      "MATCH (p:Protein)-[r]->(x) WHERE p.name STARTS WITH 'E17' RETURN x.name AS n, count(*) AS c ORDER BY n",
    );
    const of17 = facts.filter(([s, st]) => st === 'protein' && s.startsWith('E17')).map(([, , o]) => [o, 1]);
    assert.deepEqual(
      one.rows,
      of17.sort(([a], [b]) => (a! < b! ? -1 : 1)),
    );
    // From the other end: facts into proteins named E1…, by the subject's type.
    const into = await db.rawQuery(
      "MATCH (x)-[r]->(p:Protein) WHERE p.name STARTS WITH 'E1' RETURN x.type AS t, count(*) AS c ORDER BY t",
    );
    const back = new Map<string, number>();
    for (const [, st, o, ot] of facts)
      if (ot === 'protein' && o.startsWith('E1')) back.set(st, (back.get(st) ?? 0) + 1);
    assert.deepEqual(
      into.rows,
      [...back].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, c]) => [k, c]),
    );

    // A protein added later is in the range (the label's order is rebuilt for the new snapshot).
    await db.ingestBatch([claim('E15x', 'protein', 'associated_with', 'D0', 'disease', 'later')]);
    const later = await db.rawQuery(
      "MATCH (p:Protein) WHERE p.name >= 'E15' AND p.name < 'E16' RETURN p.name AS n ORDER BY n",
    );
    assert.deepEqual(
      later.rows,
      [...proteins.filter((n) => n >= 'E15' && n < 'E16'), 'E15x'].sort().map((n) => [n]),
    );
    const after = await db.rawQuery(q);
    const disease = after.rows.find((r) => r[0] === 'disease');
    assert.equal(disease?.[1], (expected.get('disease') ?? 0) + 1);
  } finally {
    t.cleanup();
  }
});
