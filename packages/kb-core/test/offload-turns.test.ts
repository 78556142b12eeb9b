// Searches (src/search/stage.ts) rank in turns of the event loop of their own (src/offload/turns.ts): asked at once,
// they are not run back to back while every other piece of work waits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open } from '../src/index.js';
import { claim, tempKb } from './helpers.js';

test('searches asked at once are ranked one per event-loop turn', async () => {
  const t = tempKb();
  try {
    await using db = await open(t.path, { embedding: false });
    await db.ingestBatch(
      Array.from({ length: 200 }, (_, i) =>
        claim(`kinase ${i}`, 'gene', 'inhibits', `target ${i}`, 'protein', `s${i}`),
      ),
    );
    await db.search('kinase', 1);
    // A counter that moves once per turn of the event loop (setImmediate runs once per check phase).
    let turn = 0;
    let running = true;
    const tick = () => {
      turn++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const turns = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? db.searchEntities(`kinase ${i}`, 50) : db.search(`kinase target ${i}`, 100)).then(() => turn),
      ),
    );
    assert.equal(new Set(turns).size, turns.length, `turns: ${turns.join(' ')}`);
    // Asked one after the other, each as soon as the one before answered (as requests read together by a server,
    // each handled once the one before is): still a turn each, not all in the turn the first one ran in.
    const chained: number[] = [];
    let chain: Promise<unknown> = Promise.resolve();
    for (let i = 0; i < 6; i++) chain = chain.then(() => db.search(`kinase ${i}`, 100).then(() => chained.push(turn)));
    await chain;
    running = false;
    assert.equal(new Set(chained).size, chained.length, `turns: ${chained.join(' ')}`);
  } finally {
    t.cleanup();
  }
});
