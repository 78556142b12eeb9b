import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type GraphReader, MemoryGraph, runCypher } from '../src/index.js';

// A graph whose nodes carry PascalCase labels and which accepts the lower-case form a user may type.
function pascalGraph(): { g: MemoryGraph; reader: GraphReader; resolved: string[] } {
  const g = new MemoryGraph();
  const d = g.createNode(['Drug'], { name: 'aspirin' });
  const p = g.createNode(['ProteinComplex'], { name: 'cox' });
  g.createNode(['Drug'], { name: 'ibuprofen' });
  g.createRelationship('TARGETS', d, p, {});
  const resolved: string[] = [];
  const resolveLabel = (l: string): string => {
    resolved.push(l);
    return l
      .split('_')
      .map((x) => x[0]!.toUpperCase() + x.slice(1))
      .join('');
  };
  const reader: GraphReader = {
    resolveLabel,
    scanNodes: (l) => g.scanNodes(l),
    expand: (n, dir, t) => g.expand(n, dir, t),
    countNodes: (l) => g.countNodes(l),
  };
  return { g, reader, resolved };
}

const names = (r: { rows: unknown[][] }) => r.rows.map((x) => x[0]).sort();

test('resolveLabel: a label as typed and as carried find the same nodes, in scans, tests, expansions and counts', () => {
  const { reader } = pascalGraph();
  for (const planner of [true, false]) {
    for (const l of ['Drug', 'drug']) {
      assert.deepEqual(names(runCypher(reader, `MATCH (n:${l}) RETURN n.name`, {}, { planner })), [
        'aspirin',
        'ibuprofen',
      ]);
      assert.deepEqual(names(runCypher(reader, `MATCH (n) WHERE n:${l} RETURN n.name`, {}, { planner })), [
        'aspirin',
        'ibuprofen',
      ]);
      assert.deepEqual(runCypher(reader, `MATCH (n:${l}) RETURN count(*)`, {}, { planner }).rows, [[2n]]);
    }
    for (const l of ['ProteinComplex', 'protein_complex']) {
      const q = `MATCH (d:drug)-[:TARGETS]->(p:${l}) RETURN d.name, p.name, labels(p)`;
      assert.deepEqual(runCypher(reader, q, {}, { planner }).rows, [['aspirin', 'cox', ['ProteinComplex']]]);
      const exists = `MATCH (d:Drug) WHERE (d)-->(:${l}) AND EXISTS { (d)-->(:${l}) } RETURN d.name`;
      assert.deepEqual(names(runCypher(reader, exists, {}, { planner })), ['aspirin']);
    }
  }
});

test('resolveLabel: EXPLAIN shows the carried label; a graph without the hook takes labels as typed', () => {
  const { g, reader, resolved } = pascalGraph();
  const plan = JSON.stringify(runCypher(reader, 'EXPLAIN MATCH (n:drug) RETURN n', {}).plan);
  assert.match(plan, /:Drug/);
  assert.doesNotMatch(plan, /:drug/);
  assert.ok(resolved.includes('drug'));
  assert.deepEqual(runCypher(g, 'MATCH (n:drug) RETURN count(*)').rows, [[0n]]);
  assert.deepEqual(runCypher(g, 'MATCH (n:Drug) RETURN count(*)').rows, [[2n]]);
});
