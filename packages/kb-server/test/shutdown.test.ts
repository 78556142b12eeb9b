// How the bins stop (src/surface/shutdown.ts), on a real stall: a base whose file another connection holds
// locked, with a large write (which the store hands to its writer thread) waiting for the lock, so that the
// base's close waits on it. The deadline cuts such a close short with a line; a second signal ends it at once.
// `exit` and `write` are observed here instead of ending this process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quickstart, type ClaimInput, type KbDB } from '@evident/kb';
import {
  createShutdown,
  onStopSignals,
  shutdownTimeoutFrom,
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
} from '../src/surface/shutdown.js';
import { holdWriteLock, tempKb } from './helpers.js';

/** A base whose close must wait: a write of 3,000 claims stalled on the file's lock (for the store's 5 s). */
async function stalledBase(t: { after(fn: () => unknown): void }) {
  const kb = tempKb('stalled.kb');
  const db = await quickstart(kb.path);
  const lock = holdWriteLock(kb.path);
  const claims: ClaimInput[] = [];
  for (let i = 0; i < 3000; i++)
    claims.push({
      subject: [`gene${i}`, 'gene'],
      predicate: ['associated_with', 'association'],
      object: [`disease${i % 50}`, 'disease'],
      provenance: { source_type: 'literature', source_id: `PMID:${i}` },
    });
  let settled = false;
  const write = db.ingestBatch(claims).then(
    () => 'stored',
    (e: Error) => e.message,
  );
  void write.then(() => (settled = true));
  t.after(async () => {
    lock.release();
    await write;
    await db.close().catch(() => undefined);
    kb.cleanup();
  });
  return { db: db as KbDB, write, isSettled: () => settled };
}

function observer() {
  const lines: string[] = [];
  let resolveExit!: (code: number) => void;
  const exited = new Promise<number>((r) => (resolveExit = r));
  const codes: number[] = [];
  return {
    lines,
    exited,
    codes,
    write: (line: string) => lines.push(line),
    exit: (code: number) => {
      codes.push(code);
      resolveExit(code);
    },
  };
}

test('a close that outlasts the deadline is cut short: a line says so, status 1', async (t) => {
  const { db, isSettled } = await stalledBase(t);
  const o = observer();
  const shutdown = createShutdown({ name: 'kb-test', timeoutMs: 300, close: () => db.close(), ...o });
  shutdown.stop(0, 'stdin closed');
  shutdown.stop(0, 'transport closed'); // a second reason changes nothing
  assert.equal(await o.exited, 1);
  assert.equal(isSettled(), false, 'exited while the base was still waiting on its write');
  assert.deepEqual(o.lines, [
    'kb-test: stopping (stdin closed)',
    'kb-test: the close did not finish within 0.3 s; exiting anyway (a write not yet committed is not in the base; nothing committed is lost)',
  ]);
  assert.deepEqual(o.codes, [1], 'exit is called once');
});

test('a second SIGTERM while closing exits at once (143); the first one only starts the close', async (t) => {
  const { db, isSettled } = await stalledBase(t);
  const o = observer();
  const shutdown = createShutdown({ name: 'kb-test', timeoutMs: 60_000, close: () => db.close(), ...o });
  const remove = onStopSignals(shutdown);
  t.after(remove);
  process.kill(process.pid, 'SIGTERM');
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(shutdown.stopping, true);
  assert.deepEqual(o.codes, [], 'still closing after the first signal');
  process.kill(process.pid, 'SIGTERM');
  assert.equal(await o.exited, 143);
  assert.equal(isSettled(), false);
  assert.deepEqual(o.lines, ['kb-test: stopping (SIGTERM)', 'kb-test: SIGTERM again; exiting now']);
});

test('a close that finishes exits with the status of its reason; a failed one with 1', async () => {
  const kb = tempKb('quick.kb');
  const db = await quickstart(kb.path);
  const o = observer();
  createShutdown({ name: 'kb-test', close: () => db.close(), ...o }).stop(0, 'SIGINT');
  assert.equal(await o.exited, 0);
  assert.deepEqual(o.lines, ['kb-test: stopping (SIGINT)']);
  kb.cleanup();
  const failed = observer();
  createShutdown({ name: 'kb-test', close: () => Promise.reject(new Error('disk gone')), ...failed }).stop(0, 'x');
  assert.equal(await failed.exited, 1);
  assert.equal(failed.lines[1], 'kb-test: the close failed: disk gone');
});

test('the deadline: --shutdown-timeout-ms, else EVIDENT_SHUTDOWN_TIMEOUT_MS, else 10 s; anything else is refused', () => {
  assert.equal(shutdownTimeoutFrom({}, undefined), DEFAULT_SHUTDOWN_TIMEOUT_MS);
  assert.equal(DEFAULT_SHUTDOWN_TIMEOUT_MS, 10_000);
  assert.equal(shutdownTimeoutFrom({ EVIDENT_SHUTDOWN_TIMEOUT_MS: '2500' }, undefined), 2500);
  assert.equal(shutdownTimeoutFrom({ EVIDENT_SHUTDOWN_TIMEOUT_MS: '2500' }, '700'), 700);
  for (const bad of ['0', '-1', '1.5', 'soon'])
    assert.match(String(shutdownTimeoutFrom({}, bad)), /must be a positive integer of milliseconds, got/);
});
