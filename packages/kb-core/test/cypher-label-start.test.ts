// Aggregations over a relationship pattern started from a label's slots (packages/cypher/src/plan/index-start.ts,
// fromLabel: a label whose relationships are under a third of all) select their rows into borrowed arrays, which
// the next query gets back with the last one's contents. Interleaved across labels of different sizes, directions
// and end filters, each answers as the pass over every relationship (EVIDENT_CYPHER_LABEL_START=0) does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rng } from '@evident/testkit';
import { type KbDB, open } from '../src/index.js';
import { claim, tempKb } from './helpers.js';

const QUERIES = [
  'MATCH (a:Disease)<-[r]-(b) RETURN a.name AS name, count(r) AS deg ORDER BY deg DESC, name LIMIT 10',
  'MATCH (a:Disease)<-[r]-(b) WHERE b.name < "E30" RETURN a.name AS name, count(r) AS deg ORDER BY deg DESC, name',
  'MATCH (a:Pathway)-[r]->(b) RETURN b.type AS t, count(*) AS c ORDER BY t',
  'MATCH (a)<-[r]-(b:Pathway) RETURN a.name AS name, count(*) AS c ORDER BY c DESC, name LIMIT 5',
  'MATCH (a:Disease)-[r]-(b:Gene) RETURN a.name AS name, count(*) AS c ORDER BY name',
];

async function answers(db: KbDB, order: number[]): Promise<string[]> {
  const out: string[] = [];
  for (const i of order)
    out[i] = JSON.stringify((await db.rawQuery(QUERIES[i]!)).rows, (_, v) => (typeof v === 'bigint' ? Number(v) : v));
  return out;
}

/** The answers with the label start off: every relationship passed over (the plain, obviously right way). */
async function fullPassAnswers(db: KbDB): Promise<string[]> {
  const before = process.env.EVIDENT_CYPHER_LABEL_START;
  try {
    process.env.EVIDENT_CYPHER_LABEL_START = '0';
    return await answers(db, [0, 1, 2, 3, 4]);
  } finally {
    if (before === undefined) delete process.env.EVIDENT_CYPHER_LABEL_START;
    else process.env.EVIDENT_CYPHER_LABEL_START = before;
  }
}

test('label-started aggregations answer as the full pass, with their borrowed rows reused across queries', async () => {
  // Random bases of different sizes; genes bind genes (most relationships), and the few Disease and Pathway ends
  // keep each label under a third of all relationships, where the label start applies.
  for (const seed of [1, 2, 3, 4]) {
    const t = tempKb();
    try {
      const random = rng(seed);
      const int = (n: number) => Math.floor(random() * n);
      await using db = await open(t.path, { embedding: false });
      const genes = 20 + int(100);
      const diseases = 2 + int(15);
      const batch = Array.from({ length: 200 + int(900) }, (_, i) => {
        const s = `E${int(genes)}`;
        const r = random();
        if (r < 0.75) return claim(s, 'gene', 'binds', `E${int(genes)}`, 'gene', `s${i}`);
        if (r < 0.9) return claim(s, 'gene', 'associated_with', `D${int(diseases)}`, 'disease', `s${i}`);
        return claim(`P${int(6)}`, 'pathway', 'includes', s, 'gene', `s${i}`);
      });
      await db.ingestBatch(batch);
      const full = await fullPassAnswers(db);
      for (const [i, f] of full.entries()) assert.notEqual(f, '[]', `seed ${seed}, rows found: ${QUERIES[i]}`);
      // Each order hands the borrowed arrays from one label's query to another's, larger or smaller.
      for (const order of [
        [0, 1, 2, 3, 4],
        [4, 3, 2, 1, 0],
        [2, 0, 4, 1, 3],
      ]) {
        assert.deepEqual(await answers(db, order), full, `seed ${seed}, order ${order.join(',')}`);
      }
    } finally {
      t.cleanup();
    }
  }
});
