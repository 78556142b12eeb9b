import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { open } from '../src/index.js';
import { assertSurvivedCrash, tempKb } from './helpers.js';

const writer = fileURLToPath(new URL('./fixtures/batch-writer.ts', import.meta.url));
const PER_BATCH = 500;
// Batches this large are written by the SQLite store's writer thread (sqlite.ts, THREAD_MIN_ENTRIES).
const LARGE_BATCH = 3000;

/** Runs the writer, kills it with SIGKILL once `afterBatches` batches returned plus a random delay. */
function runAndKill(path: string, afterBatches: number, extraDelayMs: number, perBatch = PER_BATCH): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=evident-source', '--import', 'tsx', writer, path, String(perBatch)],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const done: number[] = [];
    let buf = '';
    let err = '';
    let killing = false;
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        const m = /^done (\d+)$/.exec(line);
        if (m) done.push(Number(m[1]));
      }
      if (!killing && done.length >= afterBatches) {
        killing = true;
        setTimeout(() => child.kill('SIGKILL'), extraDelayMs);
      }
    });
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`writer exited on its own (code ${code}): ${err}`));
      else resolve(done);
    });
  });
}

test('kill -9 during a stream of ingestBatch calls: every returned batch is present, none is half-present', {
  timeout: 120_000,
}, async () => {
  // Three rounds, each on a fresh base, with the kill landing at different points of a batch.
  for (const [round, delay] of [
    [0, 0],
    [1, 7],
    [2, 23],
  ] as const) {
    const t = tempKb();
    try {
      const done = await runAndKill(t.path, 4 + round * 3, delay);
      assert.ok(done.length >= 4, `writer printed ${done.length} batches`);
      // Reopen with no repair step, then check every batch by its genes' names.
      await using db = await open(t.path);
      await assertSurvivedCrash(db, done, PER_BATCH, round);
    } finally {
      t.cleanup();
    }
  }
});

test('kill -9 during a stream of large batches (written by the writer thread): returned batches present, none half-present', {
  timeout: 120_000,
}, async () => {
  for (const [round, delay] of [
    [0, 0],
    [1, 11],
    [2, 29],
  ] as const) {
    const t = tempKb();
    try {
      const done = await runAndKill(t.path, 3 + round * 2, delay, LARGE_BATCH);
      assert.ok(done.length >= 3, `writer printed ${done.length} batches`);
      await using db = await open(t.path);
      await assertSurvivedCrash(db, done, LARGE_BATCH, round);
    } finally {
      t.cleanup();
    }
  }
});
