// The shared store: the log in PostgreSQL, appended by any number of processes, each tailing it with
// readAfter. Appends take a transaction-scoped advisory lock before reading the head, so appenders are
// serialised and seq order is commit order: a reader can never see seq N+1 before seq N.
import type pg from 'pg';
import { KbClosedError, KbConflictError, KbCorruptError, KbError } from '../../errors.js';
import type { ClaimStore, LogEntry, LogRecord } from '../types.js';
import { entrySpan, lastSeqOf } from '../log-span.js';
import { decodeChunk, encodeChunks } from '../chunks.js';
import { APPEND_LOCK, LOG } from './schema.js';
import type { SharedVectors } from '../shared-vectors.js';
import { PostgresSharedVectors } from './vectors.js';

const HEAD_SQL = `SELECT coalesce((SELECT seq + n - 1 FROM ${LOG} ORDER BY seq DESC LIMIT 1), 0)::float8 AS h`;

// The chunk holding afterSeq+1 (it may start earlier), through the chunks starting at most `limit` seqs later.
// `seq + n - 1 > after` drops a chunk already read entirely without reading its body (tailing at the head).
const READ_SQL = `SELECT seq::float8 AS seq, n, ts::float8 AS ts, body FROM ${LOG}
  WHERE seq >= coalesce((SELECT max(seq) FROM ${LOG} WHERE seq <= $1::bigint + 1), 0)
    AND seq <= $1::bigint + $2::bigint AND seq + n - 1 > $1::bigint
  ORDER BY seq`;

export class PostgresClaimStore implements ClaimStore {
  readonly backend = 'postgres';
  readonly shared = true;
  readonly location: string;
  private readonly pool: pg.Pool;
  private readonly lockKey: number;
  private readonly readonly: boolean;
  private closed = false;
  /** The next page, requested while the caller applies the current one (see readAfter). */
  private prefetch: { after: number; span: number; page: Promise<LogRecord[]> } | undefined;

  constructor(pool: pg.Pool, location: string, lockKey: number, readonly: boolean) {
    this.pool = pool;
    this.location = location;
    this.lockKey = lockKey;
    this.readonly = readonly;
    if (!readonly) this.sharedVectors = new PostgresSharedVectors(pool);
  }

  /** A provider's vectors, kept in the base for every process (../shared-vectors.ts). */
  readonly sharedVectors?: SharedVectors;

  async append(entries: readonly LogEntry[], ts: number, expectedHead: number): Promise<number> {
    if (this.closed) throw new KbClosedError();
    if (entries.length === 0) return expectedHead + 1;
    if (this.readonly) throw new KbError('read_only', `${this.location} was opened read-only`);
    if (!Number.isSafeInteger(expectedHead) || expectedHead < 0)
      throw new KbError('invalid_head', `expectedHead must be a non-negative integer, got ${expectedHead}`);
    // Serialise before taking a connection and the lock: the lock is held only for the database's own work.
    const values: unknown[] = [];
    const tuples: string[] = [];
    let seq = expectedHead + 1;
    for (const chunk of encodeChunks(entries)) {
      const p = values.length;
      tuples.push(`($${p + 1}::bigint, $${p + 2}::integer, $${p + 3}::bigint, $${p + 4}::text)`);
      values.push(seq, chunk.n, ts, chunk.body);
      seq += chunk.n;
    }
    const client = await this.connect();
    let broken: Error | undefined;
    try {
      // One round trip: begin, make the commit durable whatever the server default, take the appenders'
      // lock, then read the head (after the lock, so it sees every earlier appender's commit).
      const res = (await client.query(
        `BEGIN; SET LOCAL synchronous_commit = on; SELECT pg_advisory_xact_lock(${APPEND_LOCK}, ${this.lockKey | 0}); ${HEAD_SQL}`,
      )) as unknown as pg.QueryResult<{ h: number }>[];
      const head = res[res.length - 1]!.rows[0]!.h;
      if (head !== expectedHead) {
        await client.query('ROLLBACK');
        throw new KbConflictError(expectedHead, head);
      }
      await client.query(`INSERT INTO ${LOG} (seq, n, ts, body) VALUES ${tuples.join(', ')}`, values);
      await client.query('COMMIT');
      return expectedHead + 1;
    } catch (e) {
      if (e instanceof KbConflictError) throw e;
      // A failed statement leaves the transaction aborted; roll back so the connection can be reused.
      // If even that fails the connection is gone: drop it from the pool.
      await client.query('ROLLBACK').catch((re: Error) => (broken = re));
      throw this.wrap('append', e);
    } finally {
      client.release(broken);
    }
  }

  async readAfter(afterSeq: number, limit = 65_536): Promise<LogRecord[]> {
    if (this.closed) throw new KbClosedError();
    const after = Math.max(0, Math.floor(afterSeq));
    const span = Number.isFinite(limit) ? Math.max(1, Math.floor(limit)) : Number.MAX_SAFE_INTEGER - after;
    let page: LogRecord[] | undefined;
    const pre = this.prefetch;
    this.prefetch = undefined;
    if (pre && pre.after === after && pre.span === span) {
      // The log is append-only, so a prefetched non-empty page is still exact; an empty one may be stale
      // (another process may have committed since), and "at the head" must be answered fresh.
      page = await pre.page.catch(() => undefined);
      if (page && page.length === 0) page = undefined;
    }
    page ??= await this.fetch(after, span);
    // A full page means more is likely waiting (a catch-up on open): fetch the next page while the caller
    // applies this one, so the server's work and the transfer overlap with the index update.
    const last = page[page.length - 1];
    const next = last ? lastSeqOf(last) : after;
    if (next - after >= span && span < Number.MAX_SAFE_INTEGER - after) {
      const p = this.fetch(next, span);
      p.catch(() => undefined); // an unused prefetch must not become an unhandled rejection
      this.prefetch = { after: next, span, page: p };
    }
    return page;
  }

  private async fetch(after: number, span: number): Promise<LogRecord[]> {
    let rows: { seq: number; n: number; ts: number; body: string }[];
    try {
      rows = (await this.pool.query({ name: 'evident_kb_read', text: READ_SQL, values: [after, span] })).rows;
    } catch (e) {
      throw this.wrap('read', e);
    }
    const out: LogRecord[] = [];
    let expected = after + 1;
    for (const row of rows) {
      const before = out.length;
      decodeChunk(row.seq, row.n, row.ts, row.body, after, out);
      for (let i = before; i < out.length; i++) {
        const r = out[i]!;
        // Appends are serialised and gap-free, so a hole here means the table was edited by hand.
        if (r.seq !== expected) throw new KbCorruptError(`log has a gap: expected seq ${expected}, found ${r.seq}`);
        expected += entrySpan(r.entry);
      }
    }
    return out;
  }

  async head(): Promise<number> {
    if (this.closed) throw new KbClosedError();
    try {
      return (await this.pool.query<{ h: number }>({ name: 'evident_kb_head', text: HEAD_SQL })).rows[0]!.h;
    } catch (e) {
      throw this.wrap('head', e);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.prefetch?.page.catch(() => undefined);
    this.prefetch = undefined;
    await this.pool.end();
  }

  private async connect(): Promise<pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (e) {
      throw this.wrap('connect', e);
    }
  }

  /** Driver errors become a KbError with a stable code; the original stays available as `cause`. */
  private wrap(op: string, e: unknown): Error {
    if (e instanceof KbError) return e;
    const err = new KbError(
      'storage_failed',
      `PostgreSQL ${op} on ${this.location} failed: ${(e as Error)?.message ?? String(e)}`,
    );
    (err as { cause?: unknown }).cause = e;
    return err;
  }
}
