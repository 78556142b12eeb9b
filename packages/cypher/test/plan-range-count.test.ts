// Counts under range filters on one numeric column (range-count.ts): answered from an ordered copy of the column
// once a graph gives the same arrays again, the same counts as the interpreter's, with nulls, NaN, -0 and
// infinities, two-sided and equality ranges, integer and float parameters; a write that gives new arrays is
// seen by the next count.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type GraphReader, MemoryGraph, runCypher } from '../src/index.js';
import type { NodeColumns } from '../src/columns.js';
import { rowByRow, seeded } from './plan-graphs.js';

/** The graph's columns kept across queries (the same arrays until `write`), as a columnar store keeps them. */
function keptColumns(g: MemoryGraph) {
  let kept = new Map<string, NodeColumns | undefined>();
  let scans = 0;
  const view: GraphReader = {
    scanNodes: (l) => g.scanNodes(l),
    expand: (n, d, t) => g.expand(n, d, t),
    scanColumns: (l, keys) => {
      scans++;
      const k = `${l}\u0000${[...keys].sort().join('\u0000')}`;
      if (!kept.has(k)) kept.set(k, g.scanColumns(l, keys));
      return kept.get(k);
    },
  };
  return { view, write: () => (kept = new Map()), scans: () => scans };
}

function numbers(seed: number): MemoryGraph {
  const r = seeded(seed);
  const g = new MemoryGraph();
  const odd = [Number.NaN, -0, 0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2.5];
  for (let i = 0; i < 400; i++) {
    const p: Record<string, unknown> = {};
    if (r() < 0.85) p.c = BigInt(Math.floor(r() * 40) - 10);
    if (r() < 0.85) p.w = r() < 0.1 ? odd[Math.floor(r() * odd.length)] : Math.round(r() * 80) / 4 - 5;
    g.createNode(r() < 0.6 ? ['A'] : ['B'], p as never);
  }
  return g;
}

test('range counts over a kept column equal the interpreter counts', () => {
  for (const seed of [1, 2, 3]) {
    const g = numbers(seed);
    const { view } = keptColumns(g);
    const r = seeded(seed + 100);
    const ops = ['<', '<=', '>', '>=', '='];
    for (let i = 0; i < 60; i++) {
      const key = r() < 0.5 ? 'c' : 'w';
      const pick = () => ops[Math.floor(r() * ops.length)]!;
      const x = () => (r() < 0.5 ? BigInt(Math.floor(r() * 30) - 8) : Math.round(r() * 100) / 4 - 6);
      const two = r() < 0.5;
      const where = two ? `n.${key} ${pick()} $a AND n.${key} ${pick()} $b` : `n.${key} ${pick()} $a`;
      const q = `MATCH (n:A) WHERE ${where} RETURN count(*) AS k, count(n) AS m`;
      const params = { a: x(), b: x() };
      const slow = runCypher(rowByRow(g), q, params, { planner: false }).rows;
      // Three times: the first sighting scans, the second makes the ordered copy, the third reads it.
      for (let t = 0; t < 3; t++)
        assert.deepEqual(runCypher(view, q, params).rows, slow, `${q} ${String(params.a)} ${String(params.b)}`);
    }
  }
});

test('a write that gives new column arrays is seen by the next range count', () => {
  const g = numbers(7);
  const kept = keptColumns(g);
  const q = 'MATCH (n:A) WHERE n.c >= 5 RETURN count(*) AS k';
  const count = () => runCypher(kept.view, q).rows[0]![0];
  const before = count();
  count();
  assert.equal(count(), before);
  for (let i = 0; i < 7; i++) g.createNode(['A'], { c: 100n } as never);
  kept.write();
  assert.equal(count(), (before as bigint) + 7n);
  assert.equal(count(), (before as bigint) + 7n);
  assert.equal(count(), runCypher(rowByRow(g), q, {}, { planner: false }).rows[0]![0]);
});
