import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { open, KbDB, KbOpenError, KbValidationError, type ClaimInput } from '../src/index.js';
import { tempKb, claim, sleep } from './helpers.js';

test('snapshot is consistent while writes continue; restore rebuilds the same base, time travel included', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path);
    await db.ingestBatch([claim('A', 'gene', 'x', 'B', 'gene', 's1'), claim('A', 'gene', 'x', 'B', 'gene', 's2')]);
    await sleep(5);
    const middle = new Date();
    await sleep(5);
    await db.retract('s1', 'oops');
    const batches: ClaimInput[][] = [];
    for (let b = 0; b < 20; b++)
      batches.push(Array.from({ length: 200 }, (_, k) => claim(`g${b}-${k}`, 'gene', 'x', 'B', 'gene', `src${b}`)));
    // Writes keep going while the snapshot is taken.
    const writing = (async () => {
      for (const b of batches) await db.ingestBatch(b);
    })();
    const snap = await db.snapshot(join(t.dir, 'snap.kb'));
    await writing;
    assert.ok(snap.log_seq >= 3);

    await using copy = await open(snap.path);
    const copied = await copy.stats();
    // The snapshot holds whole batches only: 1 claim active after the retraction, plus 200 per batch.
    assert.equal((copied.claim_count - 1) % 200, 0);
    assert.equal(copied.retracted_claims, 1);

    const restoredPath = join(t.dir, 'restored.kb');
    await using restored = await KbDB.restore(snap.path, restoredPath);
    assert.deepEqual(await restored.listEntities(), await copy.listEntities());
    const then = await (await restored.at(middle)).query('A', { depth: 1 });
    assert.equal(then.direct_relationships[0]!.source_count, 2, 'at() before the retraction still sees both sources');
    await assert.rejects(
      KbDB.restore(snap.path, restoredPath),
      (e: unknown) => e instanceof KbValidationError && e.field === 'dest',
    );
    await assert.rejects(db.snapshot(snap.path), (e: unknown) => e instanceof KbValidationError && e.code === 'exists');
    await assert.rejects(
      db.snapshot(join(t.dir, 'no-such-dir', 'x.kb')),
      (e: unknown) => e instanceof KbOpenError && e.field === 'dest',
    );
  } finally {
    t.cleanup();
  }
});
