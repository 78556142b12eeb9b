// computeTopology({ off_thread: true }) (what the console asks): Leiden on worker threads whatever the graph's size,
// the same answer as on the caller's thread, and a fourth computation while one runs and two wait refused (429).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KbBusyError, open } from '../src/index.js';
import { claim, tempKb } from './helpers.js';

test('off the thread, topology answers as on it; a fourth computation while one runs and two wait is 429 busy', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path, { embedding: false });
    // 18,000 facts among 6,000 genes (groups of 40, a few links between them): past what off_thread runs on the
    // calling thread, so Leiden's workers compute it.
    const claims = [];
    for (let i = 0; i < 6000; i++) {
      const g = Math.floor(i / 40) * 40;
      claims.push(claim(`g${i}`, 'gene', 'binds', `g${g + ((i + 1) % 40)}`, 'gene', 's'));
      claims.push(claim(`g${i}`, 'gene', 'binds', `g${g + ((i * 7 + 3) % 40)}`, 'gene', 's'));
      claims.push(
        claim(`g${i}`, 'gene', 'binds', `g${i % 97 === 0 ? (i * 31) % 6000 : g + ((i + 13) % 40)}`, 'gene', 't'),
      );
    }
    await db.ingestBatch(claims);
    const here = await db.computeTopology({ seed: 3 });
    // A counter that moves once per turn of the event loop: Leiden on the calling thread would hold it still.
    let turns = 0;
    let running = true;
    const tick = () => {
      turns++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    // full: nothing changed, so by default the kept result would be updated incrementally, on this thread.
    const there = await db.computeTopology({ seed: 3, off_thread: true, full: true });
    running = false;
    assert.ok(turns > 3, `the event loop turned ${turns} times while Leiden ran`);
    const strip = (r: typeof here) => ({ ...r, computed_at: '', full_reason: null });
    assert.deepEqual(strip(there), strip(here));

    const four = [1, 2, 3, 4].map(() => db.computeTopology({ off_thread: true }));
    const settled = await Promise.allSettled(four);
    assert.deepEqual(
      settled.map((s) => s.status),
      ['fulfilled', 'fulfilled', 'fulfilled', 'rejected'],
    );
    const e = (settled[3] as PromiseRejectedResult).reason;
    assert.ok(e instanceof KbBusyError);
    assert.ok(e.retry_after_s >= 1);
    // Without off_thread (a library caller), computations queue as before.
    const queued = await Promise.allSettled([1, 2, 3, 4].map(() => db.computeTopology({})));
    assert.ok(queued.every((s) => s.status === 'fulfilled'));
    await assert.rejects(db.computeTopology({ off_thread: 'yes' as never }), /off_thread/);
  } finally {
    t.cleanup();
  }
});

test('off the thread, an incremental update runs on a worker too: the event loop keeps turning while it runs', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path, { embedding: false });
    const claims = [];
    for (let i = 0; i < 6000; i++) {
      const g = Math.floor(i / 40) * 40;
      claims.push(claim(`g${i}`, 'gene', 'binds', `g${g + ((i + 1) % 40)}`, 'gene', 's'));
      claims.push(claim(`g${i}`, 'gene', 'binds', `g${g + ((i * 7 + 3) % 40)}`, 'gene', 's'));
    }
    await db.ingestBatch(claims);
    await db.computeTopology({ seed: 3 });
    // 20 facts among 40 genes of 6,000: under the default bound (1%), so the kept result is updated.
    const more = [];
    for (let i = 0; i < 20; i++) more.push(claim(`g${i * 300}`, 'gene', 'binds', `g${i * 300 + 41}`, 'gene', 'u'));
    await db.ingestBatch(more);
    let turns = 0;
    let running = true;
    const tick = () => {
      turns++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const there = await db.computeTopology({ seed: 3, off_thread: true });
    running = false;
    assert.equal(there.mode, 'incremental', String(there.full_reason));
    assert.equal(there.changed_entities, 40);
    assert.ok(turns > 3, `the event loop turned ${turns} times while the update ran`);
    assert.equal(there.entity_count, 6000);
    assert.ok(there.levels[0]!.modularity > 0.5, `modularity ${there.levels[0]!.modularity}`);
  } finally {
    t.cleanup();
  }
});

test('structural embeddings off the thread: the same vectors, and the event loop keeps turning while the SVD runs', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path, { embedding: false });
    const claims = [];
    for (let i = 0; i < 60; i++) {
      claims.push(claim(`g${i}`, 'gene', 'binds', `g${(i + 1) % 60}`, 'gene', 's'));
      claims.push(claim(`g${i}`, 'gene', 'binds', `g${(i * 7 + 3) % 60}`, 'gene', 't'));
    }
    await db.ingestBatch(claims);
    const here = await db.generateWeightedStructuralEmbeddings({ dim: 8, seed: 5 });
    const hereVector = await db.entityEmbedding('g3', { kind: 'weighted' });
    let turns = 0;
    let running = true;
    const tick = () => {
      turns++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const there = await db.generateWeightedStructuralEmbeddings({ dim: 8, seed: 5, off_thread: true });
    running = false;
    assert.ok(turns > 3, `the event loop turned ${turns} times while the SVD ran elsewhere`);
    const strip = (r: typeof here) => ({ ...r, computed_at: '' });
    assert.deepEqual(strip(there), strip(here));
    assert.deepEqual(await db.entityEmbedding('g3', { kind: 'weighted' }), hereVector);
    await assert.rejects(db.generateStructuralEmbeddings({ off_thread: 1 as never }), /off_thread/);
  } finally {
    t.cleanup();
  }
});
