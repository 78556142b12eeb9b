// DISTINCT, ORDER BY, SKIP and LIMIT over a column scan's columns (column-select.ts), and a WITH that only passes
// the scanned node on: each run over columns, against the interpreter's rows in order (ties in scan order),
// with nulls, NaN, -0, and dictionary columns of mixed kinds (1 with 1.0, strings, booleans, lists, maps).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type GraphReader, MemoryGraph, runCypher } from '../src/index.js';
import type { Column } from '../src/columns.js';
import type { Value } from '../src/values.js';
import { operators, rowByRow, seeded } from './plan-graphs.js';

const show = (rows: unknown[][]) =>
  JSON.stringify(rows, (_, v) =>
    typeof v === 'bigint' ? `${v}n` : Object.is(v, -0) ? '-0' : Number.isNaN(v) ? 'NaN' : v,
  );

// Small values with many ties; some missing.
function numbersGraph(seed: number): MemoryGraph {
  const r = seeded(seed);
  const g = new MemoryGraph();
  for (let i = 0; i < 120; i++) {
    const p: Record<string, unknown> = {};
    if (r() < 0.85) p.c = BigInt(Math.floor(r() * 8) - 3);
    if (r() < 0.8) p.w = [0, -0, 1.5, Number.NaN, -2.25, Number.POSITIVE_INFINITY, 3][Math.floor(r() * 7)];
    if (r() < 0.85) p.t = ['a', 'b', 'B', 'ab', ''][Math.floor(r() * 5)];
    if (r() < 0.8) p.k = r() < 0.5;
    g.createNode(r() < 0.7 ? ['A'] : ['B'], p as never);
  }
  return g;
}

// Values of every kind under one key `m`, which the in-memory graph cannot make a column of.
function mixedGraph(seed: number): MemoryGraph {
  const r = seeded(seed);
  const vals: Value[] = [
    1n,
    1,
    1.5,
    'x',
    'a',
    true,
    false,
    [1n, 2n],
    [1, 2n],
    [],
    { a: 1n },
    { a: 1 },
    Number.NaN,
    -0,
    0n,
  ];
  const g = new MemoryGraph();
  for (let i = 0; i < 100; i++) {
    const p: Record<string, unknown> = { c: BigInt(Math.floor(r() * 5)) };
    if (r() < 0.85) p.m = vals[Math.floor(r() * vals.length)];
    g.createNode(['A'], p as never);
  }
  return g;
}

// A view that gives nodes only as columns (a query that runs on it did not fall back to rows): `m` as a dictionary
// column (entries told apart by kind), `w` as a float column with NaN, neither of which the in-memory graph makes.
const columnView = (g: MemoryGraph): GraphReader => ({
  scanNodes: () => {
    throw new Error('scanned rows');
  },
  expand: () => [],
  scanColumns: (l, keys) => {
    const own = ['m', 'w'];
    const scan = g.scanColumns(
      l,
      keys.filter((k) => !own.includes(k)),
    );
    if (!scan) return scan;
    // Columns are indexed by slot; the graph's scan of a label lists its slots in `rows`.
    const slots = scan.rows ? Array.from(scan.rows) : Array.from({ length: scan.size }, (_, i) => i);
    const size = Math.max(scan.size, ...slots.map((x) => x + 1));
    const nodes = Array.from({ length: size }, (_, i) => (slots.includes(i) ? scan.node!(i) : undefined));
    const prop = (n: (typeof nodes)[number], k: string) => n?.property(k);
    const columns: Record<string, Column> = { ...scan.columns };
    if (keys.includes('w')) {
      const values = nodes.map((n) => (prop(n, 'w') as number | undefined) ?? 0);
      const nulls = nodes.map((n) => (prop(n, 'w') === undefined ? 1 : 0));
      columns.w = { kind: 'float', values, nulls };
    }
    if (keys.includes('m')) {
      const dict: Value[] = [];
      const ids = new Map<string, number>();
      const codes = nodes.map((n) => {
        const v = prop(n, 'm');
        if (v === undefined || v === null) return -1;
        const k = show([[v]]);
        if (!ids.has(k)) {
          ids.set(k, dict.length);
          dict.push(v);
        }
        return ids.get(k)!;
      });
      columns.m = { kind: 'dict', codes, dict };
    }
    return { ...scan, columns };
  },
});

const columnOnly = (ops: string[]) =>
  !ops.some((o) => ['Sort', 'Top', 'Distinct', 'Limit', 'Skip', 'Projection'].includes(o));

function check(graph: GraphReader, slowGraph: GraphReader, q: string, params = {}) {
  const fast = runCypher(graph, q, params);
  const slow = runCypher(slowGraph, q, params, { planner: false });
  assert.equal(show(fast.rows), show(slow.rows), q);
  const plan = runCypher(graph, `EXPLAIN ${q}`, params).plan!;
  assert.ok(columnOnly(operators(plan)), `${q}: ${operators(plan).join(' ')}`);
}

test('ORDER BY, LIMIT, SKIP and DISTINCT over columns give the interpreter rows in its order', () => {
  for (const seed of [1, 2, 3, 4]) {
    const g = numbersGraph(seed);
    const r = seeded(seed * 7 + 1);
    const keys = ['c', 'w', 't', 'k'];
    for (let i = 0; i < 40; i++) {
      const pick = () => keys[Math.floor(r() * keys.length)]!;
      const a = pick();
      const b = pick();
      const ret = a === b ? `n.${a} AS x` : `n.${a} AS x, n.${b} AS y`;
      const names = a === b ? ['x'] : ['x', 'y'];
      const order = names.map((nm) => `${nm}${r() < 0.5 ? ' DESC' : ''}`).slice(0, 1 + Math.floor(r() * names.length));
      const distinct = r() < 0.4 ? 'DISTINCT ' : '';
      const withN = r() < 0.3 ? ' WITH n' : '';
      const where = r() < 0.5 ? 'WHERE n.c > $lo ' : 'WHERE n.c >= -10 ';
      const tail = [
        r() < 0.7 ? ` ORDER BY ${order.join(', ')}` : '',
        r() < 0.3 ? ' SKIP $s' : '',
        r() < 0.6 ? ` LIMIT ${Math.floor(r() * 12)}` : '',
      ].join('');
      const q = `MATCH (n:A) ${where}${withN} RETURN ${distinct}${ret}${tail}`;
      check(columnView(g), rowByRow(g), q, { lo: BigInt(Math.floor(r() * 4) - 2), s: BigInt(Math.floor(r() * 5)) });
    }
    // Floats with NaN, -0 and Infinity; booleans; strings by code unit.
    for (const k of keys) {
      check(columnView(g), rowByRow(g), `MATCH (n:A) WHERE n.c > -5 RETURN n.${k} AS x, n.c AS c ORDER BY x`);
      check(columnView(g), rowByRow(g), `MATCH (n:A) WHERE n.c > -5 RETURN n.${k} AS x ORDER BY x DESC LIMIT 9`);
      check(columnView(g), rowByRow(g), `MATCH (n:A) WHERE n.c > -5 RETURN DISTINCT n.${k} AS x`);
    }
  }
});

test('mixed kinds in one dictionary column order and de-duplicate as the interpreter does', () => {
  for (const seed of [5, 6, 7]) {
    const g = mixedGraph(seed);
    for (const q of [
      'MATCH (n:A) WHERE n.c >= 0 RETURN n.m AS m, n.c AS c ORDER BY m',
      'MATCH (n:A) WHERE n.c >= 0 RETURN n.m AS m, n.c AS c ORDER BY m DESC, c',
      'MATCH (n:A) WHERE n.c > 1 RETURN n.m AS m ORDER BY m DESC LIMIT 7',
      'MATCH (n:A) WHERE n.c >= 0 RETURN DISTINCT n.m AS m',
      'MATCH (n:A) WHERE n.c >= 0 RETURN DISTINCT n.m AS m, n.c AS c',
      'MATCH (n:A) WHERE n.c >= 0 WITH n RETURN DISTINCT n.m AS m ORDER BY m SKIP 2 LIMIT 5',
    ]) {
      check(columnView(g), rowByRow(g), q);
    }
  }
});

// DISTINCT's per-row id arrays are lent (lent-arrays.ts), so they hold the previous query's ids: a null must be
// written as null's id, not left as what was there. All-distinct values first, then the same rows mostly null.
test('DISTINCT after another DISTINCT reads no stale id for a null', () => {
  const g = new MemoryGraph();
  for (let i = 0; i < 2000; i++) {
    const p: Record<string, unknown> = { c: BigInt(i), f: i + 0.5, s: `s${i}` };
    if (i % 50 === 0) p.u = BigInt(i % 3);
    if (i % 40 === 0) p.g = (i % 3) + 0.5;
    if (i % 30 === 0) p.t = `t${i % 3}`;
    g.createNode(['A'], p as never);
  }
  const view = columnView(g);
  for (const [full, sparse] of [
    ['c', 'u'],
    ['f', 'g'],
    ['s', 't'],
  ]) {
    check(view, rowByRow(g), `MATCH (n:A) WHERE n.c >= 0 RETURN DISTINCT n.${full} AS x, n.${full} AS y`);
    check(view, rowByRow(g), `MATCH (n:A) WHERE n.c >= 0 RETURN DISTINCT n.${sparse} AS x`);
    check(view, rowByRow(g), `MATCH (n:A) WHERE n.c >= 0 RETURN DISTINCT n.${sparse} AS x, n.${full} AS y`);
  }
});

// A dictionary far larger than the rows selected ranks only the selected entries; a selection near its size uses
// the whole dictionary's ranks, kept for the next query over the same column.
test('ORDER BY a large dictionary column, small and large selections, in the interpreter order', () => {
  const r = seeded(11);
  const g = new MemoryGraph();
  for (let i = 0; i < 700; i++) {
    // `big`: integers spread far wider than the rows (sorted packed with the position, not counted).
    const big = BigInt(Math.floor(r() * 1e9) - 5e8);
    const p: Record<string, unknown> = { c: BigInt(Math.floor(r() * 100)), big };
    if (r() < 0.95) p.u = `n${Math.floor(r() * 500)}`;
    g.createNode(['A'], p as never);
  }
  const view = columnView(g);
  for (const where of ['n.c < 3', 'n.c >= 0', 'n.c > 50']) {
    for (const tail of [
      'ORDER BY u',
      'ORDER BY u DESC',
      'ORDER BY u DESC LIMIT 4',
      'ORDER BY u SKIP 2',
      'ORDER BY c DESC',
      'ORDER BY big',
      'ORDER BY big DESC',
    ]) {
      check(view, rowByRow(g), `MATCH (n:A) WHERE ${where} RETURN n.u AS u, n.c AS c, n.big AS big ${tail}`);
    }
  }
});

test('a WITH passing the scanned node on keeps the column scan', () => {
  const g = numbersGraph(9);
  const plan = runCypher(g, 'EXPLAIN MATCH (n:A) WHERE n.c > 1 WITH n RETURN n.t AS t, n.c AS c').plan!;
  assert.deepEqual(operators(plan), ['ProduceResults', 'NodeColumnScan']);
  // A WITH that computes something is not passed through.
  const computed = runCypher(g, 'EXPLAIN MATCH (n:A) WHERE n.c > 1 WITH n, n.c + 1 AS d RETURN n.t AS t, d').plan!;
  assert.ok(operators(computed).includes('Projection'));
});

test('an integer column reads INTEGERs equal to its values, small ones shared, others made', async () => {
  const { integerOf } = await import('../src/plan/columnar.js');
  for (const v of [-4097, -1, 0, 1, 12, 4095, 4096, 65_536, 2 ** 53 - 1, -(2 ** 53) + 1]) {
    assert.equal(integerOf(v), BigInt(v), String(v));
    assert.equal(typeof integerOf(v), 'bigint');
  }
});

test('ORDER BY keeping thousands of slots makes rows in scan order, then puts them in result order', () => {
  // Past 4096 kept slots (column-select.ts inScanOrder): ties, nulls, SKIP, LIMIT and DISTINCT with it.
  for (const seed of [3, 17]) {
    const r = seeded(seed);
    const g = new MemoryGraph();
    for (let i = 0; i < 6000; i++) {
      const p: Record<string, unknown> = { c: BigInt(Math.floor(r() * 40)) };
      if (r() < 0.97) p.u = `n${Math.floor(r() * 3000)}`;
      g.createNode([r() < 0.9 ? 'A' : 'B'], p as never);
    }
    for (const tail of [
      'ORDER BY u',
      'ORDER BY u DESC',
      'ORDER BY c DESC',
      'ORDER BY u SKIP 37',
      'ORDER BY c LIMIT 4500',
      'ORDER BY u DESC SKIP 3 LIMIT 5000',
    ]) {
      check(g, rowByRow(g), `MATCH (n:A) WHERE n.c >= 0 RETURN n.u AS u, n.c AS c ${tail}`);
      check(g, rowByRow(g), `MATCH (n:A) WHERE n.c < 30 RETURN DISTINCT n.u AS u, n.c AS c ${tail}`);
    }
  }
});
