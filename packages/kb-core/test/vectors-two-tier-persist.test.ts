// The local lanes' default two tiers (src/embeddings/two-tier.ts, lane.ts) in a base: embeddingsReady() resolves
// once every vector is searchable through its binary code, without waiting for HNSW, which embeddingStatus()
// reports as a second phase built in the background; a close mid-build saves the build's state and the reopen
// resumes it, ending with the answers of before. EVIDENT_LOCAL_VECTORS=hnsw keeps one tier (no second phase).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { type KbDB, open } from '../src/index.js';
import { tempKb } from './helpers.js';
import { drugClaims, semanticAnswers } from './vectors-fixtures.js';

const claims = drugClaims;

const answers = (db: KbDB) =>
  semanticAnswers(db, ['compound 12 inhibits', 'target 5', 'treats target 36', 'compound 1499']);

/** Waits until the HNSW tier covers every vector (the background build runs between the event loop's turns). */
async function indexBuilt(db: KbDB): Promise<void> {
  const until = Date.now() + 60_000;
  while (db.embeddingStatus()!.index_pending > 0) {
    assert.ok(Date.now() < until, 'the HNSW build did not finish');
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function withMode<T>(mode: string | undefined, run: () => Promise<T>): Promise<T> {
  const was = process.env.EVIDENT_LOCAL_VECTORS;
  if (mode === undefined) delete process.env.EVIDENT_LOCAL_VECTORS;
  else process.env.EVIDENT_LOCAL_VECTORS = mode;
  try {
    return await run();
  } finally {
    if (was === undefined) delete process.env.EVIDENT_LOCAL_VECTORS;
    else process.env.EVIDENT_LOCAL_VECTORS = was;
  }
}

describe('two-tier local vectors in a base', () => {
  it('settle before HNSW, build it in the background, and resume the build after a close mid-build', async () => {
    const kb = tempKb();
    let before: Awaited<ReturnType<typeof answers>> = [];
    try {
      await withMode(undefined, async () => {
        let db = await open(kb.path);
        await db.ingestBatch(claims(1500));
        await db.embeddingsReady();
        const settled = db.embeddingStatus()!;
        assert.equal(settled.pending, 0);
        assert.equal(settled.progress, 1);
        // Ready before the second phase: every vector searchable through its code, HNSW not (all) built yet.
        assert.ok(settled.index_pending > 0, `index_pending ${settled.index_pending}`);
        assert.ok(settled.index_progress < 1);
        before = await answers(db);
        assert.ok(before.every((a) => a.length === 10));

        // Let part of HNSW be built, then close mid-build.
        while (db.embeddingStatus()!.index_progress < 0.2) await new Promise((r) => setTimeout(r, 1));
        const part = db.embeddingStatus()!;
        assert.ok(part.index_pending > 0, 'closed mid-build');
        await db.close();
        const codes = `${kb.path}.vectors/facts.codes`;
        assert.ok(existsSync(codes) && existsSync(`${codes}.rows`), 'codes and exact rows saved');
        assert.ok(existsSync(`${codes}.hnsw`) && existsSync(`${codes}.hnsw.json`), 'the partial HNSW saved');

        db = await open(kb.path);
        const reopened = db.embeddingStatus()!;
        assert.equal(reopened.pending, 0, 'nothing to embed again');
        assert.ok(reopened.index_pending > 0 && reopened.index_pending <= part.index_pending, 'the build resumes');
        assert.deepEqual(await answers(db), before, 'mid-build, after the reopen');
        await indexBuilt(db);
        assert.equal(db.embeddingStatus()!.index_progress, 1);
        assert.deepEqual(await answers(db), before, 'with HNSW complete');
        await db.close();

        // Saved complete: reopened with nothing left to build.
        db = await open(kb.path);
        assert.equal(db.embeddingStatus()!.index_pending, 0);
        assert.deepEqual(await answers(db), before, 'reopened complete');
        await db.close();
      });

      // The HNSW-only lane (today's behaviour) has no second phase; it cannot read the two tiers' save (no i8
      // index with its rows), so it embeds again, and answers the same.
      await withMode('hnsw', async () => {
        const db = await open(kb.path);
        assert.ok(db.embeddingStatus()!.pending > 0, 'embedded again');
        await db.embeddingsReady();
        const st = db.embeddingStatus()!;
        assert.equal(st.index_pending, 0);
        assert.equal(st.index_progress, 1);
        // Each query's best claim the same (HNSW alone asks for fewer candidates than the two tiers: its answers
        // further down may miss one an exact scan finds).
        const got = await answers(db);
        assert.deepEqual(
          got.map((a) => a[0]![0]),
          before.map((a) => a[0]![0]),
        );
        await db.close();
      });

      // The two tiers read the HNSW lane's save: codes made from its rows, its index complete.
      await withMode(undefined, async () => {
        const db = await open(kb.path);
        const st = db.embeddingStatus()!;
        assert.equal(st.pending, 0, 'nothing embedded again');
        assert.equal(st.index_pending, 0, 'the HNSW index read as complete');
        // Searched through that index now: the best claims as before (its graph, built another way, may miss one
        // further down for a query with weak matches).
        assert.deepEqual(
          (await answers(db)).map((a) => a[0]![0]),
          before.map((a) => a[0]![0]),
        );
        await db.close();
      });
    } finally {
      kb.cleanup();
    }
  });
});
