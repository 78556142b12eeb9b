// The local lanes' binary codes (EVIDENT_LOCAL_VECTORS=binary) beside the base (src/embeddings/persist.ts, binary-set.ts): a reopen reads them
// and answers as before the close; a damaged codes file is refused and the vectors rebuilt; a save of the HNSW
// code before (an i8 index with its exact rows) reopens without embedding again.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BinaryVectorSet } from '../src/embeddings/binary-set.js';
import { VectorSet } from '../src/embeddings/vectors.js';
import { type KbDB, open } from '../src/index.js';
import { tempKb } from './helpers.js';
import { drugClaims, semanticAnswers } from './vectors-fixtures.js';

const claims = drugClaims;

const answers = (db: KbDB) => semanticAnswers(db, ['compound 12 inhibits', 'target 5', 'treats target 36']);

describe('binary codes kept beside the base', () => {
  it('reopen reads them; a damaged file is rebuilt; an i8 HNSW save is read from its exact rows', async () => {
    const kb = tempKb();
    // The opt-in (lane.ts, binaryLocalVectors): read when a base opens.
    const was = process.env.EVIDENT_LOCAL_VECTORS;
    process.env.EVIDENT_LOCAL_VECTORS = 'binary';
    try {
      let db = await open(kb.path);
      await db.ingestBatch(claims(1500));
      await db.embeddingsReady();
      const before = await answers(db);
      await db.close();
      const codes = `${kb.path}.vectors/facts.codes`;
      assert.ok(existsSync(codes) && existsSync(`${codes}.rows`), 'codes and exact rows saved');

      db = await open(kb.path);
      assert.equal(db.embeddingStatus()!.pending, 0, 'nothing to embed again');
      assert.deepEqual(await answers(db), before);
      await db.close();

      // One bit of the first code flipped: refused at open, the vectors made again, the same answers.
      const bytes = readFileSync(codes);
      bytes[16] = bytes[16]! ^ 1;
      writeFileSync(codes, bytes);
      db = await open(kb.path);
      assert.ok(db.embeddingStatus()!.pending > 0, 'the damaged save was not used');
      await db.embeddingsReady();
      assert.deepEqual(await answers(db), before);
      await db.close();

      // The save as the HNSW code wrote it: an i8 index and its exact rows under `<lane>.i8.usearch`.
      const dir = `${kb.path}.vectors`;
      for (const lane of ['facts', 'entities']) {
        const keys = new Int32Array(readFileSync(join(dir, `${lane}.keys`)).buffer.slice(0));
        const dim = (JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as { dim: number }).dim;
        const loaded = new BinaryVectorSet(dim);
        loaded.load(join(dir, `${lane}.codes`), keys);
        const hnsw = new VectorSet(dim);
        const rows = new Float32Array(keys.length * dim);
        // The rows the codes were made from, through the set's own copy (an HNSW set of these exact vectors).
        const own = loaded as unknown as { exact: { rowInto(k: number, out: Float32Array, at: number): void } };
        for (const [i, k] of keys.entries()) own.exact.rowInto(k, rows, i * dim);
        hnsw.setMany(Array.from(keys), rows);
        hnsw.save(join(dir, `${lane}.i8.usearch`));
        renameSync(join(dir, `${lane}.codes`), join(dir, `${lane}.codes.gone`));
      }
      db = await open(kb.path);
      assert.equal(db.embeddingStatus()!.pending, 0, 'read from the exact rows, nothing embedded again');
      assert.deepEqual(await answers(db), before);
      await db.close();
    } finally {
      if (was === undefined) delete process.env.EVIDENT_LOCAL_VECTORS;
      else process.env.EVIDENT_LOCAL_VECTORS = was;
      kb.cleanup();
    }
  });
});
