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
    const claims = [];
    for (const side of ['a', 'b', 'c']) {
      for (let i = 0; i < 6; i++)
        for (let j = i + 1; j < 6; j++) claims.push(claim(`${side}${i}`, 'gene', 'binds', `${side}${j}`, 'gene', side));
    }
    claims.push(claim('a0', 'gene', 'binds', 'b0', 'gene', 'x'), claim('b0', 'gene', 'binds', 'c0', 'gene', 'x'));
    await db.ingestBatch(claims);
    const here = await db.computeTopology({ seed: 3 });
    const there = await db.computeTopology({ seed: 3, off_thread: true });
    const strip = (r: typeof here) => ({ ...r, computed_at: '' });
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
