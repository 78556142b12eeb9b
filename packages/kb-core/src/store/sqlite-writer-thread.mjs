// The SQLite store's helper threads (see sqlite-writer.ts), each with its own connection to the same file.
// The writer runs one append at a time, in two steps: `begin` opens an IMMEDIATE transaction, checks the head
// and inserts the chunks; `commit` or `rollback` ends it. The engine applies the batch to its index between
// the two, on the other core. A `begin` that says `commit` ends its own transaction at once (an append the
// engine does not need to see applied first, SqliteClaimStore.appendOnThread). The checkpointer copies the WAL
// into the database file (`checkpoint`), which with WAL can run while the writer appends, so neither the writer
// nor the engine waits for it.
//
// Plain JavaScript (type-checked through JSDoc, `checkJs`), not TypeScript: a thread on a .ts module must load tsx
// inside it first, which took 150-230 ms against about 45 ms for this file (the first large write waits for the
// writer, and the checkpointer starts in the middle of an ingest). It imports no workspace package, so it starts
// as it is whether the process runs the sources or the build (`startWorker`'s `plain`).
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** @typedef {import('./sqlite-writer.js').ToWriter} ToWriter */
/** @typedef {import('./sqlite-writer.js').FromWriter} FromWriter */

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const { file, answered } = /** @type {{ file: string; answered: Int32Array }} */ (workerData);
const db = new Database(file, { fileMustExist: true });
/** Requests answered so far (see WriterThread.answeredOk). */
let count = 0;
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = FULL');
db.pragma('wal_autocheckpoint = 0');
// A small page cache makes the inserts spill to the WAL as they go, so the file writes overlap the engine's
// index update rather than all happening at COMMIT, where the engine waits for them.
db.pragma('cache_size = -512');
/** @type {import('better-sqlite3').Statement<[], { h: number }>} */
const headStmt = db.prepare('SELECT seq + n - 1 AS h FROM log ORDER BY seq DESC LIMIT 1');
/** @type {import('better-sqlite3').Statement<[number, number, number, string | Uint8Array]>} */
const insertStmt = db.prepare('INSERT INTO log (seq, n, ts, body) VALUES (?, ?, ?, ?)');
const beginStmt = db.prepare('BEGIN IMMEDIATE');
const commitStmt = db.prepare('COMMIT');
const rollbackStmt = db.prepare('ROLLBACK');

/** @param {FromWriter} m @param {ArrayBuffer[]} [transfer] */
function reply(m, transfer) {
  port.postMessage(m, transfer);
  // After the message: a reader that sees the count may skip waiting for it, and finds it queued.
  Atomics.store(answered, 1, m.ok ? 1 : 0);
  Atomics.store(answered, 0, ++count);
}

/** @param {ToWriter} m */
function handle(m) {
  switch (m.op) {
    case 'begin': {
      beginStmt.run();
      const head = headStmt.get()?.h ?? 0;
      if (head !== m.expectedHead) {
        rollbackStmt.run();
        reply({ ok: false, conflict: head });
        return;
      }
      let seq = head + 1;
      /** @type {ArrayBuffer[]} */
      const spent = [];
      for (const c of m.chunks) {
        insertStmt.run(seq, c.n, m.ts, c.body);
        if (typeof c.body !== 'string') spent.push(/** @type {ArrayBuffer} */ (c.body.buffer));
        seq += c.n;
      }
      if (m.commit) commitStmt.run();
      // The records' buffers go back to be written again (record-buffers.ts): no fresh pages for the next run.
      reply(spent.length > 0 ? { ok: true, spent } : { ok: true }, spent);
      return;
    }
    case 'commit':
      commitStmt.run();
      reply({ ok: true });
      return;
    case 'checkpoint':
      // PASSIVE: never waits for readers or the writer; what it cannot copy now, a later checkpoint will.
      db.pragma('wal_checkpoint(PASSIVE)');
      reply({ ok: true });
      return;
    case 'rollback':
      if (db.inTransaction) rollbackStmt.run();
      reply({ ok: true });
      return;
    case 'close':
      db.close();
      reply({ ok: true });
      port.close();
      return;
  }
}

port.on('message', (/** @type {ToWriter} */ m) => {
  try {
    handle(m);
  } catch (e) {
    try {
      if (db.open && db.inTransaction) rollbackStmt.run();
    } catch {
      // The connection is unusable; the error below says why, and the store stops using this thread.
    }
    reply({ ok: false, error: /** @type {Error} */ (e)?.message ?? String(e) });
  }
});
