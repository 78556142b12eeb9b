// Column scans whose filters hold a range on an indexed key start at the slots the index gives (plan/column-filters.ts
// indexStart), then run every filter over them: the rows of the interpreter, on a random graph with an ordered index
// on `c` that gives slots in value order (not scan order), over a label and over every node.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type GraphReader, type RangeBound, runCypher } from '../src/index.js';
import { canon, operators, randomGraph, rowByRow, slotsOnly } from './plan-graphs.js';

const within = (v: unknown, lower?: RangeBound, upper?: RangeBound) =>
  typeof v === 'bigint' &&
  (!lower || (lower.inclusive ? v >= (lower.value as bigint) : v > (lower.value as bigint))) &&
  (!upper || (upper.inclusive ? v <= (upper.value as bigint) : v < (upper.value as bigint)));

const QUERIES = [
  'MATCH (n:A) WHERE n.c >= 100 AND n.c < 160 RETURN count(*) AS n',
  'MATCH (n:A) WHERE n.c > 700 RETURN n.c AS c, n.t AS t',
  'MATCH (n:B) WHERE n.c >= 0 AND n.c <= 40 OPTIONAL MATCH (n)<--(o:A) RETURN count(*) AS n, count(o) AS o',
  'MATCH (n) WHERE n.c < -150 RETURN n.t AS t, count(*) AS c',
  'MATCH (n:A) WHERE n.c > 500 AND n.c < 600 AND n.k = true RETURN n.c AS c ORDER BY c DESC LIMIT 3',
  'MATCH (n:B) WHERE n.c > 300 AND n.c < 330 RETURN n AS n',
  // The index gives most of the label: a pass over the scan instead.
  'MATCH (n:A) WHERE n.c > -1000 RETURN count(*) AS n, sum(n.c) AS s',
];

test('a range seek runs over the columns from the slots the index gives, with the interpreter rows', () => {
  for (const seed of [71, 72]) {
    const g = randomGraph(seed);
    let asked = 0;
    const reader: GraphReader = {
      ...slotsOnly(g),
      countNodes: (l) => g.countNodes(l),
      countNodesWhere: (_l, key) => (key === 'c' ? 3 : undefined),
      findNodesInRange: (label, key, lower, upper) =>
        [...g.scanNodes(label)].filter((n) => key === 'c' && within(n.properties.c, lower, upper)),
      findSlotsInRange(label, key, lower, upper) {
        asked++;
        const slots: number[] = [];
        for (const n of g.scanNodes(label))
          if (key === 'c' && within(n.properties.c, lower, upper)) slots.push(g.slotOf(n)!);
        const value = (s: number) => Number((g.nodeAt(s).properties.c as bigint) ?? 0n);
        return slots.sort((a, b) => value(a) - value(b) || a - b);
      },
    };
    for (const q of QUERIES) {
      const before = asked;
      const fast = runCypher(reader, `PROFILE ${q}`);
      const slow = runCypher(rowByRow(g), q, {}, { planner: false });
      assert.deepEqual(canon(fast.rows), canon(slow.rows), `${q} (seed ${seed})`);
      assert.ok(slow.rows.length > 0, q);
      assert.ok(asked > before, `${q}: the index was not asked`);
      if (q.includes('ORDER BY')) assert.deepEqual(fast.rows, slow.rows, q);
      const ops = operators(fast.plan!);
      assert.ok(!ops.includes('Filter'), `${q}: ${ops}`);
    }
  }
});
