// Result rows made from columns and measured at once (plan/tuples.ts): the same cells and the same bytes as the
// engine's row-by-row loop would give, whichever way the cells are read (in row order, through an identity
// dictionary, or sorted by slot when the slots jump about), and the same budgets through runCypher.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryGraph, prepareCypher, runCypher, runPrepared } from '../src/index.js';
import { valueBytes } from '../src/budget.js';
import type { Column } from '../src/columns.js';
import { reader } from '../src/plan/columnar.js';
import { columnRows, permuteRows } from '../src/plan/tuples.js';
import type { Value } from '../src/values.js';
import { canon, columnarOnly, columnsOf, operators, rowByRow, seeded, slotsOnly } from './plan-graphs.js';

/** Rows and bytes as the row-by-row loop reads them: each cell through reader(), each counted by valueBytes. */
function expected(columns: Column[], slots: ArrayLike<number>[], n: number) {
  const rows: Value[][] = [];
  let bytes = 0;
  for (let k = 0; k < n; k++) {
    const row = columns.map((c, j) => (slots[j]![k]! < 0 ? null : reader(c)(slots[j]![k]!)));
    bytes += 32 + row.reduce((b: number, v) => b + valueBytes(v), 0);
    rows.push(row);
  }
  return { rows, bytes };
}

test('rows made from columns hold the cells and the bytes the row-by-row loop would count', () => {
  const r = seeded(71);
  for (const [size, n] of [
    [50, 40],
    [20_000, 9_000],
  ] as const) {
    const columns = columnsOf(size, r);
    // In order (a scan's slots), and scattered with misses (an OPTIONAL MATCH's far ends): the large case is
    // read sorted by slot.
    const ordered = Int32Array.from({ length: n }, (_, k) => Math.floor((k * size) / n));
    const scattered = Int32Array.from({ length: n }, () => (r() < 0.05 ? -1 : Math.floor(r() * size)));
    for (const slots of [ordered, scattered]) {
      const all = [slots, slots, slots, slots];
      const got = columnRows(
        columns.map((column, j) => ({ column, slots: all[j]! })),
        n,
      );
      const want = expected(columns, all, n);
      assert.deepEqual(got.rows, want.rows);
      assert.equal(got.bytes, want.bytes);
      // The INTEGER column and the dictionary holding an INTEGER and a list need the caller's conversion.
      assert.deepEqual(got.convert, [1, 2]);
    }
    // Each column at its own slots, five wide (past the widths made as literals).
    const five = [...columns, columns[0]!];
    const slots5 = [ordered, scattered, ordered, scattered, scattered];
    const got = columnRows(
      five.map((column, j) => ({ column, slots: slots5[j]! })),
      n,
    );
    assert.deepEqual(got.rows, expected(five, slots5, n).rows);
  }
});

test('with the caller taking safe INTEGERs as numbers, an integer column is written as read, not converted', () => {
  const r = seeded(73);
  const columns = columnsOf(300, r);
  const slots = Int32Array.from({ length: 200 }, () => (r() < 0.05 ? -1 : Math.floor(r() * 300)));
  const reads = columns.map((column) => ({ column, slots }));
  const asBigints = columnRows(reads, 200);
  const asNumbers = columnRows(reads, 200, true);
  const number = (v: Value) => (typeof v === 'bigint' ? Number(v) : v);
  assert.deepEqual(
    asNumbers.rows,
    asBigints.rows.map((row) => row.map((v, j) => (j === 2 ? number(v) : v))),
  );
  assert.ok(asNumbers.rows.some((row) => typeof row[2] === 'number'));
  // Counted as the INTEGERs they stand for; only the mixed dictionary is left to the caller's conversion.
  assert.equal(asNumbers.bytes, asBigints.bytes);
  assert.deepEqual(asNumbers.convert, [1]);
});

// Drugs with many incoming relationships from diseases: an OPTIONAL MATCH's far ends, thousands of them, in an
// order unrelated to their slots.
function bigGraph(): MemoryGraph {
  const r = seeded(72);
  const g = new MemoryGraph();
  const diseases = Array.from({ length: 3000 }, (_, i) =>
    g.createNode(['Disease'], { name: `disease ${i}`, c: BigInt(i % 50) } as never),
  );
  for (let i = 0; i < 1500; i++) {
    const d = g.createNode(['Drug'], { name: `drug ${i}`, c: BigInt(i % 40) } as never);
    const links = Math.floor(r() * 8);
    for (let j = 0; j < links; j++) g.createRelationship('T', diseases[Math.floor(r() * diseases.length)]!, d, {});
  }
  return g;
}

test('an OPTIONAL MATCH projecting both ends gives the interpreter’s rows and budgets from measured rows', () => {
  const g = bigGraph();
  const q = 'MATCH (n:Drug) WHERE n.c > 3 OPTIONAL MATCH (n)<--(o:Disease) RETURN n.name AS a, n.c AS c, o.name AS b';
  assert.ok(operators(runCypher(g, `EXPLAIN ${q}`).plan!).includes('OptionalColumnScan'));
  const slow = runCypher(rowByRow(g), q, {}, { planner: false });
  const fast = runCypher(columnarOnly(g), q);
  assert.ok(fast.rows.length > 4096, `${fast.rows.length} rows: enough to be read sorted by slot`);
  assert.deepEqual(canon(fast.rows), canon(slow.rows));
  // The budgets as the row-by-row loop applies them: the row past max_rows, and the bytes the result holds.
  const limit = (o: object) => {
    try {
      runCypher(columnarOnly(g), q, {}, o);
      return 'none';
    } catch (e) {
      return (e as { code?: string }).code;
    }
  };
  assert.equal(limit({ maxRows: fast.rows.length }), 'none');
  assert.equal(limit({ maxRows: fast.rows.length - 1 }), 'cypher_too_many_rows');
  assert.equal(limit({ maxMemoryBytes: 100_000 }), 'cypher_memory_exceeded');
});

test('safeIntegers: the rows are the ones the caller’s conversion of every INTEGER cell gives', () => {
  const g = bigGraph();
  const cell = (v: Value) => (typeof v === 'bigint' ? Number(v) : JSON.stringify(v));
  for (const q of [
    'MATCH (n:Drug) WHERE n.c > 3 RETURN n.name AS a, n.c AS c',
    'MATCH (n:Drug) WHERE n.c > 3 OPTIONAL MATCH (n)<--(o:Disease) RETURN n.name AS a, n.c AS c, o.c AS d',
  ]) {
    const run = (o: object) => runPrepared(columnarOnly(g), prepareCypher(columnarOnly(g), q), {}, o);
    const converted = run({ cell });
    const numbers = run({ cell, safeIntegers: 'number' });
    assert.deepEqual(numbers.rows, converted.rows, q);
    assert.ok(numbers.rows.every((row) => typeof row[1] === 'number'));
  }
});

test('a far end’s column kept along the adjacency gives the same rows from the second query on', () => {
  const g = bigGraph();
  // Columns kept as a graph keeps them between queries (the same objects while the graph is unchanged), so the
  // far end's names are read along the adjacency from the second run.
  const kept = new Map<string, unknown>();
  const keep = <T>(key: string, make: () => T): T => {
    if (!kept.has(key)) kept.set(key, make());
    return kept.get(key) as T;
  };
  const reader = {
    ...slotsOnly(g),
    scanColumns: (l: string | undefined, k: readonly string[]) =>
      keep(`n|${l}|${k.join(',')}`, () => g.scanColumns(l, k)),
    scanRelationshipColumns: (t: readonly string[], k: readonly string[]) =>
      keep(`r|${t.join(',')}|${k.join(',')}`, () => g.scanRelationshipColumns(t, k)),
  };
  const q =
    'MATCH (n:Drug) WHERE n.c > 1 OPTIONAL MATCH (n)<-[:T]-(o:Disease) RETURN o.name AS b, n.name AS a, o.c AS c';
  assert.ok(operators(runCypher(reader, `EXPLAIN ${q}`).plan!).includes('OptionalColumnScan'));
  const slow = canon(runCypher(rowByRow(g), q, {}, { planner: false }).rows);
  for (let run = 0; run < 3; run++) {
    const got = runCypher(reader, q);
    assert.ok(got.rows.length > 4096);
    assert.deepEqual(canon(got.rows), slow, `run ${run}`);
  }
  const bytes = (o: object) => {
    try {
      runCypher(reader, q, {}, o);
      return 'none';
    } catch (e) {
      return (e as { code?: string }).code;
    }
  };
  assert.equal(bytes({ maxMemoryBytes: 200_000 }), 'cypher_memory_exceeded');
});

test('permuteRows puts row k where order[k] pointed, for any permutation', () => {
  const r = seeded(5);
  for (const n of [0, 1, 2, 7, 1000]) {
    const order = Int32Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const rows: Value[][] = Array.from({ length: n }, (_, i) => [BigInt(i)]);
    const want = Array.from(order, (k) => rows[k]);
    permuteRows(rows, order.slice());
    assert.equal(rows.length, n);
    for (let k = 0; k < n; k++) assert.equal(rows[k], want[k]);
  }
});
