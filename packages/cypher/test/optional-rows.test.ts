// The rows of an OPTIONAL MATCH of one hop made in one pass (plan/optional-rows.ts): the same rows, bytes and
// conversions as slot pairs read a column at a time (plan/tuples.ts, columnRows), on plain inputs with every kind
// of column, nodes past the adjacency and nodes without a far end; and through runCypher, the row-by-row rows in
// their order once the far end's column is kept along the adjacency.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryGraph, runCypher } from '../src/index.js';
import type { Column } from '../src/columns.js';
import type { AlongAdjacency } from '../src/plan/far-columns.js';
import { type FarCell, type NodeCell, optionalRows } from '../src/plan/optional-rows.js';
import { type ColumnRead, columnRows, measuredDictionary } from '../src/plan/tuples.js';
import { columnsOf, operators, rowByRow, seeded, slotsOnly } from './plan-graphs.js';

/** A dictionary column read at each far slot, as far-columns.ts keeps it. */
function along(c: Extract<Column, { kind: 'dict' }>, far: Int32Array): AlongAdjacency {
  const m = measuredDictionary(c.dict);
  const values = Array.from(far, (s) => (c.codes[s]! < 0 ? null : c.dict[c.codes[s]!]!));
  const sizes = Int32Array.from(far, (s) => (c.codes[s]! < 0 ? 8 : m.sizes[c.codes[s]!]!));
  return { values, sizes, converts: m.converts };
}

type Layout = (['node', Column] | ['far', AlongAdjacency])[];

/** A random adjacency over the first `covered` slots (the rest are past its end), some nodes without far ends. */
function adjacency(r: () => number, size: number, covered: number, maxDegree: number) {
  const offsets = new Int32Array(covered + 1);
  const farList: number[] = [];
  for (let s = 0; s < covered; s++) {
    const degree = r() < 0.3 ? 0 : Math.floor(r() * (maxDegree + 1));
    for (let d = 0; d < degree; d++) farList.push(Math.floor(r() * size));
    offsets[s + 1] = farList.length;
  }
  return { offsets, far: Int32Array.from(farList) };
}

/** optionalRows against columnRows over the slot pairs the row-by-row expansion gives (the slow, plain way). */
function check(sel: Int32Array, offsets: Int32Array, layout: Layout, numbers: boolean) {
  const covered = offsets.length - 1;
  const from: number[] = [];
  const at: number[] = [];
  for (const s of sel) {
    const start = s < covered ? offsets[s]! : 0;
    const end = s < covered ? offsets[s + 1]! : 0;
    if (start === end) {
      from.push(s);
      at.push(-1);
    }
    for (let j = start; j < end; j++) {
      from.push(s);
      at.push(j);
    }
  }
  const reads: ColumnRead[] = layout.map(([side, c]) =>
    side === 'node'
      ? { column: c as Column, slots: Int32Array.from(from) }
      : { along: c as AlongAdjacency, at: Int32Array.from(at) },
  );
  const want = columnRows(reads, from.length, numbers);
  const nodeCells: NodeCell[] = [];
  const farCells: FarCell[] = [];
  layout.forEach(([side, c], col) => {
    if (side === 'node') nodeCells.push({ col, column: c as Column });
    else farCells.push({ col, along: c as AlongAdjacency });
  });
  let work = 0;
  const got = optionalRows(sel, offsets, nodeCells, farCells, layout.length, numbers, (w) => {
    work += w;
  });
  assert.deepEqual(got.rows, want.rows);
  assert.equal(got.bytes, want.bytes);
  assert.deepEqual(got.convert, want.convert);
  // Each node and each row counted towards the budget's deadline checks.
  assert.equal(work, sel.length + from.length);
  // Every row its own array, every cell written (no hole left for a caller to trip on).
  assert.equal(new Set(got.rows).size, got.rows.length);
  assert.ok(got.rows.every((row) => row.length === layout.length && Object.keys(row).length === layout.length));
}

test('rows made in one pass hold the cells, bytes and conversions of slot pairs read a column at a time', () => {
  const r = seeded(81);
  for (const [size, nodes, maxDegree] of [
    [60, 40, 2],
    [5000, 3000, 5],
  ] as const) {
    const columns = columnsOf(size, r);
    const { offsets, far } = adjacency(r, size, Math.floor(size * 0.9), maxDegree);
    const sel = Int32Array.from({ length: nodes }, () => Math.floor(r() * size));
    // Node and far columns interleaved in the result, every node column kind among them.
    const layout: Layout = [
      ['far', along(columns[1] as never, far)],
      ['node', columns[0]!],
      ['node', columns[2]!],
      ['far', along(columns[0] as never, far)],
      ['node', columns[1]!],
      ['node', columns[3]!],
    ];
    for (const numbers of [false, true]) check(sel, offsets, layout, numbers);
  }
});

test('rows made in one pass agree with the slot pairs on random small inputs of every width and mix', () => {
  for (let seed = 1; seed <= 60; seed++) {
    const r = seeded(1000 + seed);
    const size = 1 + Math.floor(r() * 30);
    const columns = columnsOf(size, r);
    const { offsets, far } = adjacency(r, size, Math.floor(r() * (size + 1)), Math.floor(r() * 4));
    const sel = Int32Array.from({ length: Math.floor(r() * 20) }, () => Math.floor(r() * size));
    const fars = [along(columns[0] as never, far), along(columns[1] as never, far)];
    // Widths 1-6 (the constant-length rows and the rest), node and far columns in any mix, either side absent.
    const layout: Layout = Array.from({ length: 1 + Math.floor(r() * 6) }, () =>
      r() < 0.5 ? ['node', columns[Math.floor(r() * columns.length)]!] : ['far', fars[Math.floor(r() * 2)]!],
    );
    check(sel, offsets, layout, r() < 0.5);
  }
});

test('an OPTIONAL MATCH with its far end’s names kept along the adjacency gives the row-by-row rows in order', () => {
  const r = seeded(82);
  const g = new MemoryGraph();
  const diseases = Array.from({ length: 400 }, (_, i) =>
    g.createNode(['Disease'], { name: `disease ${i}`, c: BigInt(i % 30) } as never),
  );
  const drugs: ReturnType<MemoryGraph['createNode']>[] = [];
  for (let i = 0; i < 2500; i++) {
    const d = g.createNode(['Drug'], { name: `drug ${i}`, c: BigInt(i % 40) } as never);
    drugs.push(d);
    const links = Math.floor(r() * 5);
    for (let j = 0; j < links; j++) g.createRelationship('T', diseases[Math.floor(r() * diseases.length)]!, d, {});
    // A relationship from another drug: not a Disease, so not a match of (o:Disease).
    if (i > 0 && r() < 0.2) g.createRelationship('T', drugs[i - 1]!, d, {});
  }
  // Columns kept between queries, as a graph keeps them while unchanged: the far names are kept along the
  // adjacency from the second query on, and the rows are then made in one pass.
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
  for (const q of [
    'MATCH (n:Drug) WHERE n.c > 5 OPTIONAL MATCH (n)<-[:T]-(o:Disease) RETURN n.name AS a, n.c AS c, o.name AS b',
    'MATCH (n:Drug) WHERE n.c >= 0 OPTIONAL MATCH (n)<--(o:Disease) RETURN o.name AS b, n.c AS c',
    'MATCH (n:Drug) WHERE n.c < 3 OPTIONAL MATCH (n)<--(o) RETURN n.name AS a, o.name AS b',
  ]) {
    assert.ok(operators(runCypher(reader, `EXPLAIN ${q}`).plan!).includes('OptionalColumnScan'), q);
    const slow = runCypher(rowByRow(g), q).rows;
    for (let run = 0; run < 3; run++) assert.deepEqual(runCypher(reader, q).rows, slow, `${q} (run ${run})`);
  }
});
