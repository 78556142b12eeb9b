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
import type { Value } from '../src/values.js';
import { operators, rowByRow, seeded, slotsOnly } from './plan-graphs.js';

function columnsOf(size: number, r: () => number): Column[] {
  const names = Array.from({ length: size }, (_, i) => `node ${i} ${'y'.repeat(i % 5)}`);
  const mixed: Value[] = ['a', 'bb', null, 7n, [1n, 'x'], 2.5];
  const nulls = Uint8Array.from({ length: size }, () => (r() < 0.1 ? 1 : 0));
  return [
    { kind: 'dict', codes: Int32Array.from({ length: size }, (_, i) => i), dict: names },
    {
      kind: 'dict',
      codes: Int32Array.from({ length: size }, () => (r() < 0.1 ? -1 : Math.floor(r() * mixed.length))),
      dict: mixed,
    },
    { kind: 'int', values: Float64Array.from({ length: size }, () => Math.floor(r() * 9000) - 100), nulls },
    { kind: 'float', values: Float64Array.from({ length: size }, () => r() * 10), nulls },
  ];
}

/** A dictionary column read at each far slot, as far-columns.ts keeps it. */
function along(c: Extract<Column, { kind: 'dict' }>, far: Int32Array): AlongAdjacency {
  const m = measuredDictionary(c.dict);
  const values = Array.from(far, (s) => (c.codes[s]! < 0 ? null : c.dict[c.codes[s]!]!));
  const sizes = Int32Array.from(far, (s) => (c.codes[s]! < 0 ? 8 : m.sizes[c.codes[s]!]!));
  return { values, sizes, converts: m.converts };
}

test('rows made in one pass hold the cells, bytes and conversions of slot pairs read a column at a time', () => {
  const r = seeded(81);
  for (const [size, nodes, maxDegree] of [
    [60, 40, 3],
    [5000, 3000, 6],
  ] as const) {
    const columns = columnsOf(size, r);
    // An adjacency over the first 90% of the slots (the rest are past its end), some nodes without far ends.
    const covered = Math.floor(size * 0.9);
    const offsets = new Int32Array(covered + 1);
    const farList: number[] = [];
    for (let s = 0; s < covered; s++) {
      const degree = r() < 0.3 ? 0 : Math.floor(r() * maxDegree);
      for (let d = 0; d < degree; d++) farList.push(Math.floor(r() * size));
      offsets[s + 1] = farList.length;
    }
    const far = Int32Array.from(farList);
    const sel = Int32Array.from({ length: nodes }, () => Math.floor(r() * size));
    // The pairs the row-by-row expansion gives: each node with each far end, or with none.
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
    const alongNames = along(columns[0] as never, far);
    const alongMixed = along(columns[1] as never, far);
    // Node and far columns interleaved in the result, every node column kind among them.
    const layout: (['node', Column] | ['far', AlongAdjacency])[] = [
      ['far', alongMixed],
      ['node', columns[0]!],
      ['node', columns[2]!],
      ['far', alongNames],
      ['node', columns[1]!],
      ['node', columns[3]!],
    ];
    for (const numbers of [false, true]) {
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
