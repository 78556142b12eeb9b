// Results made in chunks and joined at the end (plan/tuples.ts joinRows): results of several chunks, on the
// column path (columnRows), the OPTIONAL MATCH path (optionalRows) and the row-by-row path (the engine's loop),
// each compared with the interpreter's rows, row for row where the order is defined.
import assert from 'node:assert/strict';
import test from 'node:test';
import { MemoryGraph, runCypher } from '../src/index.js';
import { joinRows, ROW_CHUNK } from '../src/plan/tuples.js';
import { canon, operators, seeded } from './plan-graphs.js';

test('joinRows keeps every row of every chunk in order, and only n of them', () => {
  const r = seeded(7);
  for (let t = 0; t < 20; t++) {
    const chunks = Array.from({ length: 1 + Math.floor(r() * 5) }, () =>
      Array.from({ length: Math.floor(r() * 9) }, () => [r()]),
    );
    const all = chunks.flat();
    const n = Math.floor(r() * (all.length + 1));
    assert.deepEqual(joinRows(chunks, n), all.slice(0, n));
  }
});

test('results of several chunks are the interpreter’s rows, each row its own array', () => {
  const g = new MemoryGraph();
  const r = seeded(11);
  const n = 3 * ROW_CHUNK + 123;
  const bs = Array.from({ length: 40 }, (_, i) => g.createNode(['B'], { k: BigInt(i) } as never));
  for (let i = 0; i < n; i++) {
    const a = g.createNode(['A'], { k: BigInt(i), name: `a${i}` } as never);
    if (r() < 0.6) g.createRelationship('T', bs[Math.floor(r() * bs.length)]!, a, {});
  }
  const cases: [string, string][] = [
    ['MATCH (a:A) WHERE a.k >= 0 RETURN a.name AS name, a.k AS k ORDER BY k', 'NodeColumnScan'],
    [
      'MATCH (a:A) WHERE a.k >= 0 OPTIONAL MATCH (a)<-[:T]-(b:B) RETURN a.name AS name, b.k AS bk',
      'OptionalColumnScan',
    ],
    ['MATCH (a:A), (b:B) WHERE a.k < 300 RETURN a.name AS name, b.k AS bk', 'NodeByLabelScan'],
  ];
  // Twice each: a graph's columns kept from the first run take another path (optional-rows.ts) on the second.
  for (const [q, op] of [...cases, ...cases]) {
    const rows = runCypher(g, q).rows;
    const slow = runCypher(g, q, {}, { planner: false }).rows;
    assert.ok(rows.length > 2 * ROW_CHUNK, `${q}: ${rows.length} rows`);
    if (q.includes('ORDER BY')) assert.deepEqual(rows, slow, q);
    else assert.deepEqual(canon(rows), canon(slow), q);
    assert.equal(new Set(rows).size, rows.length, q);
    assert.ok(operators(runCypher(g, `EXPLAIN ${q}`).plan!).includes(op), q);
  }
});
