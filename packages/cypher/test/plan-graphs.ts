// Graphs for the plan tests: a random graph with mixed property kinds, self-loops and parallel relationships, and
// views of it that offer only some of GraphReader (rows only, columns only), so a test can tell how a plan ran.
import { type GraphReader, MemoryGraph, type PlanDescription } from '../src/index.js';
import type { Column } from '../src/columns.js';
import type { Value } from '../src/values.js';

// The same graph without columns or counts: aggregations run row by row.
export const rowByRow = (g: MemoryGraph): GraphReader => ({
  scanNodes: (l) => g.scanNodes(l),
  expand: (n, d, t) => g.expand(n, d, t),
});

// A graph whose only way to give nodes is columns: a query that works on it did not scan rows.
export const columnsOnly = (g: MemoryGraph): GraphReader => ({
  scanNodes: () => {
    throw new Error('scanned rows');
  },
  expand: () => [],
  scanColumns: (l, k) => g.scanColumns(l, k),
});

export function seeded(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

export function randomGraph(seed: number): MemoryGraph {
  const r = seeded(seed);
  const g = new MemoryGraph();
  for (let i = 0; i < 300; i++) {
    const props: Record<string, unknown> = {};
    if (r() < 0.9) props.t = ['gene', 'protein', 'disease'][Math.floor(r() * 3)];
    if (r() < 0.9) props.k = r() < 0.5;
    if (r() < 0.85) props.c = BigInt(Math.floor(r() * 1000) - 200);
    if (r() < 0.8) props.w = r() * 10 - 2;
    g.createNode(r() < 0.5 ? ['A'] : ['B'], props as never);
  }
  const nodes = [...g.nodes];
  for (let i = 0; i < 900; i++) {
    const a = nodes[Math.floor(r() * nodes.length)]!;
    // Some self-loops and parallel relationships, where relationship uniqueness matters.
    const b = r() < 0.05 ? a : nodes[Math.floor(r() * nodes.length)]!;
    g.createRelationship(r() < 0.7 ? 'R' : 'S', a, b, {});
  }
  return g;
}

export const canon = (rows: unknown[][]) =>
  rows.map((r) => JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))).sort();

export const sortLists = (row: unknown[]): unknown[] =>
  row.map((v) => (Array.isArray(v) ? canon(v.map((x) => [x])) : v));

export const operators = (d: PlanDescription): string[] => [d.operator, ...d.children.flatMap(operators)];

// Columns and adjacency only: a query that works here built no node row and expanded no relationship.
export const columnarOnly = (g: MemoryGraph): GraphReader => ({
  scanNodes: () => {
    throw new Error('scanned rows');
  },
  expand: () => {
    throw new Error('expanded rows');
  },
  scanColumns: (l, k) => g.scanColumns(l, k),
  scanRelationshipColumns: (t, k) => g.scanRelationshipColumns(t, k),
  adjacent: (n, d, t) => g.adjacent(n, d, t),
  nodeAt: (s) => g.nodeAt(s),
});

// The same with node slots too (slot walks and chains need them).
export const slotsOnly = (g: MemoryGraph): GraphReader => ({ ...columnarOnly(g), slotOf: (n) => g.slotOf(n) });

/** Columns of every kind over `size` slots: an identity dictionary of names, a dictionary of mixed kinds with
 * uncoded slots, an int and a float column with nulls. */
export function columnsOf(size: number, r: () => number): Column[] {
  const names = Array.from({ length: size }, (_, i) => `name ${i} ${'x'.repeat(i % 7)}`);
  const kinds: Value[] = ['a', 'bb', null, 7n, [1n, 'x'], 2.5];
  const nulls = Uint8Array.from({ length: size }, () => (r() < 0.1 ? 1 : 0));
  return [
    // Distinct values coded in slot order: the identity dictionary.
    { kind: 'dict', codes: Int32Array.from({ length: size }, (_, i) => i), dict: names },
    // Repeated values of mixed kinds, some slots uncoded (-1).
    {
      kind: 'dict',
      codes: Int32Array.from({ length: size }, () => (r() < 0.1 ? -1 : Math.floor(r() * kinds.length))),
      dict: kinds,
    },
    { kind: 'int', values: Float64Array.from({ length: size }, () => Math.floor(r() * 9000) - 100), nulls },
    { kind: 'float', values: Float64Array.from({ length: size }, () => r() * 10), nulls },
  ];
}
