// The embedded store: the log in one SQLite file (better-sqlite3, WAL, synchronous=FULL).
// Physical layout: one row per chunk of entries appended together (see ./chunks.ts for the body). A call's
// chunks are written in one IMMEDIATE transaction, so an append is all-or-nothing and readers never see
// half of it. Chunking keeps the row count (and the per-row B-tree cost) low while each entry keeps its own seq.
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { KbConflictError, KbError, KbOpenError } from '../errors.js';
import { entrySpan } from './log-span.js';
import { type ChunkBody, decodeChunk, encodeChunks, spanOf } from './chunks.js';
import { WriterThread, type FromWriter } from './sqlite-writer.js';
import { makePrivate, makePrivateDir, PRIVATE_FILE } from './private-files.js';
import { MEMORY } from './side-files.js';
import type { BackgroundAppend, ClaimStore, LogEntry, LogRecord, PendingAppend, StoreOpenOptions } from './types.js';

// /2 adds claim-run chunks (./chunks.ts), /3 binary run records (./run-record.ts); a /1 or /2 file is read as
// it is and marked /3 when opened for writing (so an older version refuses it at open rather than mid-replay).
const FORMAT = 'evident-kb-log/3';
type FromWriterFailure = Exclude<FromWriter, { ok: true }>;
const READABLE_FORMATS = ['evident-kb-log/1', 'evident-kb-log/2', FORMAT];
export { MEMORY } from './side-files.js';
/** Appends of at least this many entries go through the writer thread (smaller ones are not worth a round trip). */
const THREAD_MIN_ENTRIES = 2048;
/** The writer thread's connection does not checkpoint; the checkpointer thread does, every this many bytes. */
const CHECKPOINT_BYTES = 16 * 2 ** 20;

const listed = (names: readonly string[]) =>
  names.length > 8 ? `${names.slice(0, 8).join(', ')} and ${names.length - 8} more` : names.join(', ');

/**
 * Refuses (`bad_format`, naming the path) an existing SQLite file that holds tables but not the KB's marker, the
 * `format` row of its `meta` table: another program's database. An empty one (no tables) is made a KB. Looked at
 * on a read-only connection of its own, so that nothing is written to a refused file (a read-write connection
 * may checkpoint a WAL into it as it closes). A file that is not SQLite is left to the open that follows.
 */
function refuseForeignDatabase(file: string): void {
  let look: Database.Database;
  try {
    look = new Database(file, { readonly: true, fileMustExist: true });
  } catch {
    return;
  }
  let tables: string[];
  let format: string | undefined;
  try {
    tables = (
      look
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
        )
        .all() as { name: string }[]
    ).map((t) => t.name);
    if (tables.includes('meta')) {
      try {
        format = (look.prepare("SELECT value FROM meta WHERE key = 'format'").get() as { value: unknown } | undefined)
          ?.value as string | undefined;
      } catch {
        // A meta table of another shape: no marker.
      }
    }
  } catch {
    return;
  } finally {
    look.close();
  }
  if (tables.length === 0 || (format !== undefined && READABLE_FORMATS.includes(format))) return;
  throw new KbOpenError(
    'bad_format',
    'path',
    format === undefined
      ? `${file} is not an Evident KB: an SQLite database of something else (tables ${listed(tables)}); nothing was written to it`
      : `${file} is not an Evident KB (format ${String(format)}); nothing was written to it`,
  );
}

export class SqliteClaimStore implements ClaimStore {
  readonly backend = 'sqlite';
  readonly shared = false;
  readonly location: string;
  private readonly db: Database.Database;
  private readonly headStmt: Database.Statement<[], { h: number }>;
  private readonly insertStmt: Database.Statement<[number, number, number, ChunkBody]>;
  private readonly floorStmt: Database.Statement<[number], { s: number | null }>;
  private readonly rangeStmt: Database.Statement<[number], { seq: number; n: number; ts: number; body: ChunkBody }>;
  private readonly appendTx: (entries: readonly LogEntry[], ts: number, expectedHead: number) => number;
  private closed = false;
  private writer: WriterThread | undefined;
  private checkpointer: WriterThread | undefined;
  /** Log bytes committed (by either connection) since the last checkpoint was started. */
  private uncheckpointed = 0;
  private checkpointing = false;

  private constructor(path: string, db: Database.Database) {
    this.location = path;
    this.db = db;
    this.headStmt = db.prepare('SELECT seq + n - 1 AS h FROM log ORDER BY seq DESC LIMIT 1');
    this.insertStmt = db.prepare('INSERT INTO log (seq, n, ts, body) VALUES (?, ?, ?, ?)');
    this.floorStmt = db.prepare('SELECT max(seq) AS s FROM log WHERE seq <= ?');
    this.rangeStmt = db.prepare('SELECT seq, n, ts, body FROM log WHERE seq >= ? ORDER BY seq');
    let bytes = 0;
    const tx = db.transaction((entries: readonly LogEntry[], ts: number, expectedHead: number) => {
      const head = this.headStmt.get()?.h ?? 0;
      if (head !== expectedHead) throw new KbConflictError(expectedHead, head);
      let seq = head + 1;
      for (const chunk of encodeChunks(entries, true)) {
        this.insertStmt.run(seq, chunk.n, ts, chunk.body);
        seq += chunk.n;
        bytes += chunk.body.length;
      }
      return head + 1;
    });
    this.appendTx = (entries, ts, expectedHead) => {
      bytes = 0;
      const first = tx.immediate(entries, ts, expectedHead);
      // Counted with the writer thread's appends: the checkpointer copies what either connection wrote.
      this.committedToWal(bytes);
      return first;
    };
  }

  static async open(path: string, options: StoreOpenOptions = {}): Promise<SqliteClaimStore> {
    // SQLite's in-memory database: no file, nothing beside it (the facade saves no derived data for it either).
    const memory = path === MEMORY;
    const file = memory ? MEMORY : resolve(path);
    const create = options.create ?? true;
    const readonly = options.readonly ?? false;
    // Each open of ':memory:' is a new, empty database: there is never one to find, or to read without writing.
    if (memory && (!create || readonly))
      throw new KbOpenError('not_found', 'path', `${MEMORY} is a new, empty in-memory base at each open`);
    let created = memory;
    if (!memory && !existsSync(file)) {
      if (!create || readonly) throw new KbOpenError('not_found', 'path', `no knowledge base at ${file}`);
      const dir = dirname(file);
      if (!existsSync(dir)) {
        try {
          makePrivateDir(dir);
        } catch (e) {
          throw new KbOpenError('open_failed', 'path', `cannot create directory ${dir}: ${(e as Error).message}`, {
            cause: e,
          });
        }
      }
      // Created empty and readable by the owner alone (like the job store's files); SQLite gives the -wal and
      // -shm files the database file's mode. An existing file keeps the mode its owner gave it.
      try {
        closeSync(openSync(file, 'wx', PRIVATE_FILE));
        created = true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new KbOpenError('open_failed', 'path', `cannot create ${file}: ${(e as Error).message}`, { cause: e });
        }
      }
    }
    // An existing file is looked at before anything writes to it: a database of something else is refused as it is,
    // where the tables below (and WAL mode, written in the file's header) made any SQLite file given a KB.
    if (!created) refuseForeignDatabase(file);
    let db: Database.Database;
    try {
      db = new Database(file, { readonly, fileMustExist: readonly });
      db.pragma('busy_timeout = 5000');
      if (!readonly) {
        // Chunks are large JSON texts: 64 KiB pages cut the overflow-page chains SQLite writes per chunk
        // (takes effect only on a new, empty file, before WAL is switched on).
        if (
          !existsSync(`${file}-wal`) &&
          (db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count === 0
        ) {
          db.pragma('page_size = 65536');
        }
        db.pragma('journal_mode = WAL');
        // SQLite copies the base's mode to its -wal and -shm; set here too, so a base made here is 0600 whole
        // whatever SQLite's build does.
        if (created) for (const f of [`${file}-wal`, `${file}-shm`]) if (existsSync(f)) makePrivate(f);
        // FULL: the WAL is fsynced at every commit, so a returned append survives power loss, not only kill -9.
        db.pragma('synchronous = FULL');
        // One transaction: a base is never left with its tables but not its marker (it would be refused as foreign).
        db.transaction(() => {
          db.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                   CREATE TABLE IF NOT EXISTS log (seq INTEGER PRIMARY KEY, n INTEGER NOT NULL,
                                                   ts INTEGER NOT NULL, body TEXT NOT NULL);`);
          db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('format', FORMAT);
          db.prepare("UPDATE meta SET value = ? WHERE key = 'format' AND value IN (?, ?)").run(
            FORMAT,
            READABLE_FORMATS[0],
            READABLE_FORMATS[1],
          );
        }).immediate();
      }
      const row = db.prepare("SELECT value FROM meta WHERE key = 'format'").get() as { value: string } | undefined;
      if (!row || !READABLE_FORMATS.includes(row.value)) {
        db.close();
        throw new KbOpenError('bad_format', 'path', `${file} is not an Evident KB (format ${row?.value ?? 'missing'})`);
      }
    } catch (e) {
      if (e instanceof KbOpenError) throw e;
      throw new KbOpenError('open_failed', 'path', `cannot open ${file}: ${(e as Error).message}`, { cause: e });
    }
    return new SqliteClaimStore(file, db);
  }

  async append(entries: readonly LogEntry[], ts: number, expectedHead: number): Promise<number> {
    if (entries.length === 0) return expectedHead + 1;
    return this.appendTx(entries, ts, expectedHead);
  }

  /**
   * Large appends are written by a thread of their own (sqlite-writer.ts) while the engine applies them to its
   * index: this thread serialises the chunks, the writer inserts them in an open transaction, and commit() ends
   * it. The durability and atomicity are the same as append's (one IMMEDIATE transaction, synchronous=FULL).
   */
  beginAppend(entries: readonly LogEntry[], ts: number, expectedHead: number): PendingAppend | undefined {
    const started = this.startOnThread(entries, ts, expectedHead, false);
    if (!started) return undefined;
    const { writer, begun, fail } = started;
    let ended: Promise<void> | undefined;
    return {
      commit: async () => {
        // Sent before begin's answer is read: the thread runs it right after begin, saving a round trip through
        // this thread's event loop. If begin failed, the thread has rolled back and the commit fails harmlessly.
        const committed = writer.request({ op: 'commit' });
        const b = await begun;
        if (!b.ok) {
          await committed.catch(() => undefined);
          throw fail(b);
        }
        const c = await committed;
        if (!c.ok) throw fail(c);
        ended = Promise.resolve();
        this.committedToWal(started.bytes);
        return expectedHead + 1;
      },
      abort: () =>
        (ended ??= begun
          .then(() => writer.request({ op: 'rollback' }))
          .then(
            () => undefined,
            () => undefined,
          )),
    };
  }

  /**
   * A large append written and committed by the writer thread at once, while the caller goes on (append's
   * contract: the promise resolves once the entries are durable, rejects with nothing written). Undefined where
   * beginAppend would decline. The engine uses it when it can keep whatever the apply finds (write-path.ts).
   */
  appendOnThread(entries: readonly LogEntry[], ts: number, expectedHead: number): BackgroundAppend | undefined {
    const started = this.startOnThread(entries, ts, expectedHead, true);
    if (!started) return undefined;
    const { writer, bytes } = started;
    const request = writer.lastSent;
    let counted = false;
    const ok = () => {
      if (!counted) this.committedToWal(bytes);
      counted = true;
      return expectedHead + 1;
    };
    return {
      done: started.begun.then((m) => {
        if (!m.ok) throw started.fail(m);
        return ok();
      }),
      committed: () => (writer.answeredOk(request) ? ok() : undefined),
    };
  }

  /** Serialises the entries and hands them to the writer thread's `begin`, or undefined (see beginAppend). */
  private startOnThread(entries: readonly LogEntry[], ts: number, expectedHead: number, commit: boolean) {
    // An in-memory base has no file another connection could open.
    if (this.closed || this.db.readonly || this.db.memory || spanOf(entries) < THREAD_MIN_ENTRIES) return undefined;
    if (this.writer?.dead) return undefined;
    this.writer ??= new WriterThread(this.location);
    const writer = this.writer;
    const chunks = encodeChunks(entries, true);
    let bytes = 0;
    const transfer: ArrayBuffer[] = [];
    for (const c of chunks) {
      bytes += c.body.length;
      if (typeof c.body !== 'string') transfer.push(c.body.buffer as ArrayBuffer);
    }
    const begun = writer.request({ op: 'begin', expectedHead, ts, chunks, commit }, transfer);
    begun.catch(() => undefined); // settled by the caller
    const fail = (m: FromWriterFailure) =>
      'conflict' in m
        ? new KbConflictError(expectedHead, m.conflict)
        : new KbError('storage_failed', `append to ${this.location} failed: ${m.error}`);
    return { writer, begun, fail, bytes };
  }

  /** Counts bytes committed to the WAL (by either connection) and starts a checkpoint when they are enough. */
  private committedToWal(bytes: number): void {
    this.uncheckpointed += bytes;
    this.maybeCheckpoint();
  }

  /** Starts a checkpoint on the checkpointer thread once enough has been written, unless one is running. */
  private maybeCheckpoint(): void {
    if (this.uncheckpointed < CHECKPOINT_BYTES || this.checkpointing || this.closed) return;
    if (this.checkpointer?.dead) {
      // Without the thread, checkpoint here rather than let the WAL grow without bound.
      this.db.pragma('wal_checkpoint(PASSIVE)');
      this.uncheckpointed = 0;
      return;
    }
    this.checkpointer ??= new WriterThread(this.location);
    const thread = this.checkpointer;
    this.uncheckpointed = 0;
    this.checkpointing = true;
    void thread.request({ op: 'checkpoint' }).then(
      () => (this.checkpointing = false),
      () => (this.checkpointing = false),
    );
  }

  async readAfter(afterSeq: number, limit = 65536): Promise<LogRecord[]> {
    // Cheap check first: tailing at the head (every write does) must not re-parse the last chunk.
    if ((this.headStmt.get()?.h ?? 0) <= afterSeq) return [];
    const start = this.floorStmt.get(afterSeq + 1)!.s ?? afterSeq + 1;
    const out: LogRecord[] = [];
    let seqs = 0;
    for (const row of this.rangeStmt.iterate(start)) {
      const before = out.length;
      decodeChunk(row.seq, row.n, row.ts, row.body, afterSeq, out);
      for (let i = before; i < out.length; i++) seqs += entrySpan(out[i]!.entry);
      // Finish iteration early; the iterator is closed by `break`.
      if (seqs >= limit) break;
    }
    return out;
  }

  async head(): Promise<number> {
    return this.headStmt.get()?.h ?? 0;
  }

  async snapshotTo(dest: string): Promise<void> {
    // Created empty first, for the owner alone: SQLite would create it 0644, and gives its journal, -wal and
    // -shm the file's mode. 'wx': a snapshot never overwrites.
    const file = resolve(dest);
    closeSync(openSync(file, 'wx', PRIVATE_FILE));
    try {
      // SQLite's online backup copies a consistent image even while this process keeps appending.
      await this.db.backup(file);
      const copy = new Database(file);
      try {
        copy.pragma('journal_mode = WAL');
      } finally {
        copy.close();
      }
    } catch (e) {
      for (const f of [file, `${file}-journal`, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
      throw e;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.writer?.close();
    await this.checkpointer?.close();
    this.db.close();
  }
}
