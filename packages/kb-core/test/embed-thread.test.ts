// The local embedder's second thread (src/embeddings/embed-helper.ts): a catch-up embedded there gives the
// vectors the queue's own thread gives, bit for bit, and facts arriving while batches are out end indexed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type KbDB } from '../src/index.js';
import { drugClaims } from './vectors-fixtures.js';
import { BinaryVectorSet, encodeRows } from '../src/embeddings/binary-set.js';
import { embedThreadBatches } from '../src/embeddings/embed-helper.js';
import type { EmbeddingQueue } from '../src/embeddings/queue.js';
import type { TwoTierVectorSet } from '../src/embeddings/two-tier.js';

const claims = (from: number, n: number) => drugClaims(n, from);

/** Opens an in-memory base with EVIDENT_EMBED_THREAD set to `mode` (read when the base's queue is made). */
async function openWith(mode: '0' | '1'): Promise<KbDB> {
  const before = process.env.EVIDENT_EMBED_THREAD;
  process.env.EVIDENT_EMBED_THREAD = mode;
  try {
    return await open(':memory:');
  } finally {
    if (before === undefined) delete process.env.EVIDENT_EMBED_THREAD;
    else process.env.EVIDENT_EMBED_THREAD = before;
  }
}

/** Every fact's and entity's vector (its exact row, as a search ranks by it). */
function vectors(db: KbDB): Float32Array[] {
  const q = (db as unknown as { searchIndex: { embeddings: EmbeddingQueue } }).searchIndex.embeddings;
  assert.ok(q, 'the base embeds');
  const out: Float32Array[] = [];
  for (const lane of [q.facts, q.entities]) {
    const set = lane.vectors as TwoTierVectorSet;
    for (let k = 0; k < set.size; k++) {
      const v = new Float32Array(set.dim);
      set.rows.rowInto(k, v, 0);
      out.push(v);
    }
  }
  return out;
}

describe('the local embedder on a second thread', () => {
  it('gives the same vectors as the queue thread alone', async () => {
    const alone = await openWith('0');
    const threaded = await openWith('1');
    try {
      const batches = embedThreadBatches();
      for (const db of [alone, threaded]) {
        await db.ingestBatch(claims(0, 3000));
        await db.embeddingsReady();
      }
      assert.ok(embedThreadBatches() > batches, 'the thread embedded batches');
      assert.equal(threaded.embeddingStatus()?.indexed, alone.embeddingStatus()?.indexed);
      assert.equal(threaded.embeddingStatus()?.pending, 0);
      assert.deepEqual(vectors(threaded), vectors(alone));
    } finally {
      await alone.close();
      await threaded.close();
    }
  });

  it('ends with every fact indexed when facts arrive while batches are out', async () => {
    const db = await openWith('1');
    try {
      await db.ingestBatch(claims(0, 20000));
      // The catch-up starts; once it stores vectors, more facts come while batches are on the thread: the queue
      // stores what is out, learns the new facts, then embeds on.
      const ready = db.embeddingsReady();
      while ((db.embeddingStatus()?.indexed ?? 0) === 0) await new Promise((r) => setTimeout(r, 1));
      for (let i = 0; i < 5; i++) await db.ingestBatch(claims(20000 + i * 200, 200));
      await ready;
      await db.embeddingsReady();
      const st = db.embeddingStatus();
      assert.ok(st, 'the base embeds');
      assert.equal(st.pending, 0);
      assert.equal(st.indexed, 21000, 'one vector per fact');
      const late = await db.search('compound 20999', { k: 3, mode: 'hybrid' });
      assert.equal(late.results[0]?.claim.subject[0], 'compound 20999');
    } finally {
      await db.close();
    }
  });
});

describe('vectors encoded on the thread', () => {
  it('leave a set of codes as setMany leaves it, byte for byte', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-encoded-'));
    try {
      const dim = 64;
      const n = 300;
      // Unit rows and rows that are not (scaled by the set), some values at ±1.
      const rows = Float32Array.from({ length: n * dim }, (_, i) => Math.sin(i * 0.37) * (i % 7 === 0 ? 3 : 1));
      rows[5] = 1;
      const keys = Array.from({ length: n }, (_, i) => (i * 7) % 1000);
      const direct = new BinaryVectorSet(dim);
      direct.setMany(keys, rows);
      const encoded = new BinaryVectorSet(dim);
      const { exact, codes } = encodeRows(rows, dim);
      encoded.setEncoded(keys, exact, codes);
      const a = direct.save(join(dir, 'direct'));
      const b = encoded.save(join(dir, 'encoded'));
      for (let i = 0; i < a.length; i++) assert.deepEqual(readFileSync(b[i]!), readFileSync(a[i]!), b[i]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
