// The console's idle reclaimer (src/console/idle-memory.ts): the garbage a request left is collected once the
// server is quiet, never while a request runs or heavy work waits, and not again while the heap has not grown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getHeapStatistics } from 'node:v8';
import { IdleMemory } from '../src/console/idle-memory.js';

const waitFor = async (ok: () => boolean, ms = 20_000) => {
  const end = performance.now() + ms;
  while (!ok() && performance.now() < end) await new Promise((r) => setTimeout(r, 20));
  return ok();
};

test('garbage a request left is collected once the server is quiet, not while a request runs', async () => {
  let heavyWaiting = true;
  const idle = new IdleMemory(() => heavyWaiting, { quietMs: 50, growthMb: 8 });
  let hold: (() => void) | undefined;
  let kept: unknown;
  const server = createServer((req, res) => {
    if (req.url === '/garbage') {
      // Objects that live as long as the request (long enough to reach the old generation, as a burst's answers
      // do), garbage once it is answered.
      const rows: unknown[] = [];
      for (let i = 0; i < 30; i++) rows.push(Array.from({ length: 20_000 }, (_, j) => ({ j, s: `row ${i} ${j}` })));
      kept = rows;
      setTimeout(() => {
        kept = undefined;
        res.end('ok');
      }, 50);
    } else hold = () => res.end('held');
  });
  idle.watch(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await (await fetch(`${base}/garbage`)).text();
    // Heavy work waiting: no collection however long the quiet.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(idle.collections, 0);
    // A request running: none either.
    const held = fetch(`${base}/hold`).then((r) => r.text());
    await waitFor(() => hold !== undefined);
    heavyWaiting = false;
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(idle.collections, 0);
    const before = getHeapStatistics().used_heap_size;
    hold!();
    await held;
    assert.ok(await waitFor(() => idle.collections === 1), 'one collection once quiet');
    const after = getHeapStatistics().used_heap_size;
    assert.ok(after < before, `the heap in use went from ${before} to ${after}`);
    assert.equal(kept, undefined);
    // Quiet again after a request that left little: no second collection.
    hold = undefined;
    const small = fetch(`${base}/hold`).then((r) => r.text());
    await waitFor(() => hold !== undefined);
    hold!();
    await small;
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(idle.collections, 1);
  } finally {
    idle.stop();
    server.close();
  }
});
