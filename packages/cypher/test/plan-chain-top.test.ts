// ORDER BY … LIMIT straight over a chain (plan/chain-top.ts): only the best matches become rows. Compared, rows and
// their order, with the same plan building every match's row (EVIDENT_CYPHER_TOP_CHAIN=0: Top over all of them,
// ties in match order), and with the interpreter where the order covers every column returned; on random graphs
// with many ties, nulls (missing properties, an OPTIONAL MATCH's end), DESC and SKIP.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inspect } from 'node:util';
import { type PlanDescription, runCypher } from '../src/index.js';
import { randomGraph, rowByRow, seeded, slotsOnly } from './plan-graphs.js';

const BODIES = [
  // Ties on the first key (three values and null), a second key; columns returned all ordered.
  { q: 'MATCH (a:A)-[r]->(b)-[s]->(c) RETURN c.t AS t, a.c AS x ORDER BY t, x', total: true },
  { q: 'MATCH (a)-[r]-(b)-[s]->(c:B) WITH a, b, c, r, s RETURN b.c AS x, c.t AS t ORDER BY x DESC, t', total: true },
  // One key of two values and null: which tied matches are kept follows match order.
  { q: 'MATCH (a:B)-[r]->(b)<-[s]-(c) RETURN c.k AS k, a.c AS x ORDER BY k DESC', total: false },
  { q: 'MATCH (a:B)-[r]->(b)<-[s]-(c) RETURN a.c AS x, c AS c ORDER BY x', total: false },
  // An OPTIONAL MATCH's end: null where it found nothing, first descending and last ascending.
  { q: 'MATCH (a:A)-[r]->(b) OPTIONAL MATCH (b)<--(o:B) RETURN o.t AS t, a.c AS x ORDER BY t DESC, x', total: true },
  { q: 'MATCH (a:A)-[r]->(b) OPTIONAL MATCH (b)<--(o:B) RETURN o.c AS y, b.t AS t ORDER BY y, t DESC', total: true },
  // A float key: Top over every row (NaN's place is not a number's).
  { q: 'MATCH (a:A)-[r]->(b)-[s]->(c) RETURN c.w AS w, a.c AS x ORDER BY w, x', total: true },
];

/** PROFILE of `q` with Top over every match's row (EVIDENT_CYPHER_TOP_CHAIN=0). */
function everyMatch(g: ReturnType<typeof randomGraph>, q: string): ReturnType<typeof runCypher> {
  process.env.EVIDENT_CYPHER_TOP_CHAIN = '0';
  try {
    return runCypher(slotsOnly(g), `PROFILE ${q}`);
  } finally {
    delete process.env.EVIDENT_CYPHER_TOP_CHAIN;
  }
}

const find = (d: PlanDescription, op: string): PlanDescription | undefined =>
  d.operator === op ? d : d.children.map((c) => find(c, op)).find(Boolean);

test('Top over a chain keeps the rows, and their order, of Top over every match', () => {
  const r = seeded(5);
  for (const seed of [61, 62, 63]) {
    const g = randomGraph(seed);
    for (const { q: body, total } of BODIES) {
      for (let i = 0; i < 6; i++) {
        const skip = r() < 0.4 ? Math.floor(r() * 6) : 0;
        const limit = [0, 1, 2, 3, 7, 20, 100, 100_000][Math.floor(r() * 8)]!;
        const q = `${body}${skip ? ` SKIP ${skip}` : ''} LIMIT ${limit}`;
        const fast = runCypher(slotsOnly(g), `PROFILE ${q}`);
        const all = everyMatch(g, q);
        assert.deepEqual(fast.rows, all.rows, `${q} (seed ${seed})`);
        if (total) {
          const slow = runCypher(rowByRow(g), q, {}, { planner: false });
          assert.deepEqual(fast.rows, slow.rows, `${q} (seed ${seed})`);
        }
        const chain = find(fast.plan!, 'ChainProjection');
        assert.ok(find(fast.plan!, 'Top') && chain, `${q}: ${JSON.stringify(fast.plan)}`);
        // Only the kept matches became rows, unless the key is a float's; all of them without the fast path.
        const matches = find(all.plan!, 'ChainProjection')!.rows!;
        if (!body.includes('c.w')) assert.ok(chain.rows! <= Math.min(skip + limit, matches), `${q}: ${chain.rows}`);
        if (skip + limit < matches) assert.equal(fast.rows.length, Math.max(0, Math.min(limit, matches - skip)));
      }
    }
  }
});

// ORDER BY … LIMIT over an OPTIONAL MATCH whose order reads the chain below it (plan/top-ties.ts): the Top that
// keeps the best matches and those tied with the last reads them off the chain's walk.
const TIES = [
  'MATCH (a:A)-[r]->(b) OPTIONAL MATCH (b)<--(o:B) RETURN b.t AS t, a.c AS x, o.c AS y ORDER BY t',
  'MATCH (a:B)-[r]->(b)<-[s]-(c) OPTIONAL MATCH (c)-[:S]->(o) RETURN c.k AS k, a.c AS x, o.t AS y ORDER BY k DESC, x',
  'MATCH (a)-[r]->(b)-[s]->(c:B) OPTIONAL MATCH (c)-->(o:A) RETURN a AS a, c.t AS t, o.c AS y ORDER BY t, a.c DESC',
];

test('Top with ties below an OPTIONAL MATCH over a chain keeps the rows, and their order, of Top over every match', () => {
  const r = seeded(9);
  for (const seed of [61, 62, 63]) {
    const g = randomGraph(seed);
    for (const body of TIES) {
      for (let i = 0; i < 6; i++) {
        const skip = r() < 0.4 ? Math.floor(r() * 6) : 0;
        const limit = [0, 1, 2, 3, 7, 20, 100_000][Math.floor(r() * 7)]!;
        const q = `${body}${skip ? ` SKIP ${skip}` : ''} LIMIT ${limit}`;
        const fast = runCypher(slotsOnly(g), `PROFILE ${q}`);
        const all = everyMatch(g, q);
        assert.deepEqual(fast.rows, all.rows, `${q} (seed ${seed})`);
        const ties = find(fast.plan!, 'OptionalExpand')?.children[0];
        assert.equal(ties?.operator, 'Top', `${q}: ${JSON.stringify(fast.plan)}`);
        assert.equal(ties.children[0]?.operator, 'ChainProjection', q);
        // Without a cut, the interpreter's rows (as a multiset: ties are broken by match order); with a small one,
        // fewer rows than matches reach the OPTIONAL MATCH.
        const matches = find(all.plan!, 'ChainProjection')!.rows!;
        if (limit === 100_000 && skip === 0) {
          const slow = runCypher(rowByRow(g), q, {}, { planner: false });
          const sorted = (rs: unknown[][]) => rs.map((x) => inspect(x, { depth: 6, sorted: true })).sort();
          assert.deepEqual(sorted(fast.rows), sorted(slow.rows), `${q} (seed ${seed})`);
        } else if (skip + limit < matches / 4) assert.ok(ties.rows! < matches, `${q}: ${ties.rows} of ${matches}`);
      }
    }
  }
});
