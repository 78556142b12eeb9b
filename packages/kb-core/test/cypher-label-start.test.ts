// Aggregations over a relationship pattern started from a label's slots (packages/cypher/src/plan/index-start.ts,
// fromLabel: a label whose relationships are under a third of all) select their rows into borrowed arrays, which
// the next query gets back with the last one's contents. Interleaved across labels of different sizes, directions
// and end filters, each answers as the pass over every relationship (EVIDENT_CYPHER_LABEL_START=0) does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open } from '../src/index.js';
import { claim, tempKb } from './helpers.js';

const QUERIES = [
  'MATCH (a:Disease)<-[r]-(b) RETURN a.name AS name, count(r) AS deg ORDER BY deg DESC, name LIMIT 10',
  'MATCH (a:Disease)<-[r]-(b) WHERE b.name < "E30" RETURN a.name AS name, count(r) AS deg ORDER BY deg DESC, name',
  'MATCH (a:Pathway)-[r]->(b) RETURN b.type AS t, count(*) AS c ORDER BY t',
  'MATCH (a)<-[r]-(b:Pathway) RETURN a.name AS name, count(*) AS c ORDER BY c DESC, name LIMIT 5',
  'MATCH (a:Disease)-[r]-(b:Gene) RETURN a.name AS name, count(*) AS c ORDER BY name',
];

async function answers(db: Awaited<ReturnType<typeof open>>, order: number[]): Promise<string[]> {
  const out: string[] = [];
  for (const i of order)
    out[i] = JSON.stringify((await db.rawQuery(QUERIES[i]!)).rows, (_, v) => (typeof v === 'bigint' ? Number(v) : v));
  return out;
}

test('label-started aggregations answer as the full pass, with their borrowed rows reused across queries', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path, { embedding: false });
    // Genes bind genes (most relationships); few Disease and Pathway ends, so each is under a third of all.
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const batch = [];
    for (let i = 0; i < 900; i++) {
      const s = `E${Math.floor(random() * 80)}`;
      const r = random();
      if (r < 0.75) batch.push(claim(s, 'gene', 'binds', `E${Math.floor(random() * 80)}`, 'gene', `s${i}`));
      else if (r < 0.9)
        batch.push(claim(s, 'gene', 'associated_with', `D${Math.floor(random() * 12)}`, 'disease', `s${i}`));
      else batch.push(claim(`P${Math.floor(random() * 6)}`, 'pathway', 'includes', s, 'gene', `s${i}`));
    }
    await db.ingestBatch(batch);
    const orders = [
      [0, 1, 2, 3, 4],
      [4, 3, 2, 1, 0],
      [2, 0, 4, 1, 3],
    ];
    const before = process.env.EVIDENT_CYPHER_LABEL_START;
    let full: string[];
    try {
      process.env.EVIDENT_CYPHER_LABEL_START = '0';
      full = await answers(db, orders[0]!);
    } finally {
      if (before === undefined) delete process.env.EVIDENT_CYPHER_LABEL_START;
      else process.env.EVIDENT_CYPHER_LABEL_START = before;
    }
    for (const [i, f] of full.entries()) assert.notEqual(f, '[]', `rows found: ${QUERIES[i]}`);
    for (const order of orders) assert.deepEqual(await answers(db, order), full, `order ${order.join(',')}`);
  } finally {
    t.cleanup();
  }
});
