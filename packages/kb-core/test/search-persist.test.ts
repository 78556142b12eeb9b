// The lexical index (BM25) saved beside the base at close and restored at open when it is this log's
// (src/search/persist.ts): a reopen takes in nothing, answers exactly as before the close, and a saved index
// that is another log's, or older than the log, is not used.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { open, type ClaimInput, type KbDB } from '../src/index.js';
import type { SearchIndex } from '../src/search/search-index.js';
import { tempKb } from './helpers.js';

const claims = (from: number, n: number): ClaimInput[] =>
  Array.from({ length: n }, (_, k) => ({
    subject: [`compound ${from + k}`, 'drug'],
    predicate: [k % 3 === 0 ? 'inhibits' : 'treats', 'pharmacology'],
    object: [`target ${(from + k) % 37}`, k % 3 === 0 ? 'protein' : 'disease'],
    provenance: { source_type: 'literature', source_id: `pmid:${from + k}` },
    // Payloads add words to their fact's document.
    ...(k % 5 === 0 ? { payload: { cell_line: `line${k % 7}` } } : {}),
  }));

const index = (db: KbDB) => (db as unknown as { searchIndex: SearchIndex }).searchIndex;

async function answers(db: KbDB) {
  const out = [];
  for (const q of ['compound 12 inhibits', 'target 5', 'line3 treats', 'target 36 compound 999'])
    for (const mode of ['lexical', 'hybrid'] as const) {
      const r = await db.search(q, { k: 10, mode });
      out.push(
        r.results.map((h) => [h.claim.subject[0], h.claim.object[0], h.score, h.signals.lexical, h.signals.semantic]),
      );
    }
  return out;
}

describe('BM25 kept beside the base', () => {
  it('is restored at open: nothing taken in again, the same answers', async () => {
    const kb = tempKb();
    try {
      let db = await open(kb.path);
      await db.ingestBatch(claims(0, 1200));
      // A fact stated again by another source, with a payload: words added to an older document.
      await db.ingestBatch([
        {
          ...claims(12, 1)[0]!,
          provenance: { source_type: 'literature', source_id: 'again' },
          payload: { note: 'zebrafish' },
        },
      ]);
      await db.embeddingsReady();
      const before = await answers(db);
      await db.close();
      assert.ok(existsSync(`${kb.path}.search/meta.json`));
      db = await open(kb.path);
      assert.equal(index(db).intake.count, 0, 'the restored index covers the log: nothing left to take in');
      assert.deepEqual(await answers(db), before);
      const z = await db.search('zebrafish', { k: 5, mode: 'lexical' });
      assert.equal(z.results.length, 1);
      // Claims after the reopen join the restored index as usual, and a second reopen restores them too.
      await db.ingestBatch(claims(5000, 50));
      const more = await db.search('compound 5049', { k: 3, mode: 'lexical' });
      assert.equal(more.results[0]?.claim.subject[0], 'compound 5049');
      await db.embeddingsReady();
      const before2 = await answers(db);
      await db.close();
      db = await open(kb.path);
      assert.equal(index(db).intake.count, 0);
      assert.deepEqual(await answers(db), before2);
      await db.close();
    } finally {
      kb.cleanup();
    }
  });

  it("is not used when it is another log's, and is brought up to date when the log grew", async () => {
    const kb = tempKb();
    const other = tempKb();
    try {
      let db = await open(kb.path, { embedding: false });
      await db.ingestBatch(claims(0, 300));
      // Taken in before the close (an index is saved as far as it got).
      await db.embeddingsReady();
      await db.close();
      db = await open(other.path, { embedding: false });
      await db.ingestBatch(claims(1000, 300));
      const truth = await answers(db);
      await db.close();
      // The first base's index beside the second's log: same counts, other claims.
      rmSync(`${other.path}.search`, { recursive: true, force: true });
      cpSync(`${kb.path}.search`, `${other.path}.search`, { recursive: true });
      db = await open(other.path, { embedding: false });
      assert.equal(index(db).intake.count + index(db).taken, 300, 'not restored: the log is taken in again');
      assert.deepEqual(await answers(db), truth);
      await db.close();
      // A saved index older than the log (a process that appended and was killed before saving): the
      // restored part is used and the rest taken in.
      const saved = `${kb.path}.search.keep`;
      cpSync(`${kb.path}.search`, saved, { recursive: true });
      db = await open(kb.path, { embedding: false });
      await db.ingestBatch(claims(300, 40));
      const grown = await answers(db);
      await db.close();
      rmSync(`${kb.path}.search`, { recursive: true, force: true });
      cpSync(saved, `${kb.path}.search`, { recursive: true });
      db = await open(kb.path, { embedding: false });
      assert.equal(index(db).intake.count, 40, 'only the claims after the save are taken in');
      assert.deepEqual(await answers(db), grown);
      await db.close();
    } finally {
      kb.cleanup();
      other.cleanup();
    }
  });
});
