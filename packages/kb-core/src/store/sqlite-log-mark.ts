// Which SQLite log a snapshot of derived state was made from, and up to which entry (the graph snapshot,
// facade/graph-snapshot.ts). The log is append-only and a row (a chunk of entries, sqlite.ts) never changes once
// committed, so a mark names the last seq the state holds and fingerprints rows spread over [1, last_seq], the last
// one included: its seq, span, timestamp, length and its first and last bytes. The same log grown since still
// matches (the state is caught up by replaying the rows after last_seq); a log that is shorter, or was rewritten
// (restored from an older copy and appended to again: other timestamps and claim ids), or another base's, does not.
// Read on a read-only connection of its own, without decoding any chunk.
import Database from 'better-sqlite3';
import { checksum } from './section-file.js';

/** Rows fingerprinted besides the last. */
const SAMPLES = 16;
/** Bytes of a row's body hashed from each end. */
const EDGE = 2048;

export interface SqliteLogMark {
  last_seq: number;
  /** Fingerprints of the rows holding the sampled seqs, in order; the last holds last_seq. */
  rows: string[];
}

type Row = { seq: number; n: number; ts: number; bytes: number; head: Buffer; tail: Buffer };

function sampleSeqs(lastSeq: number): number[] {
  const out = new Set<number>();
  for (let k = 0; k < SAMPLES; k++) out.add(1 + Math.floor((k * (lastSeq - 1)) / SAMPLES));
  out.add(lastSeq);
  return [...out].sort((a, b) => a - b);
}

function fingerprints(db: Database.Database, lastSeq: number): string[] | null {
  const stmt = db.prepare<[number], Row>(
    `SELECT seq, n, ts, length(CAST(body AS BLOB)) AS bytes, substr(CAST(body AS BLOB), 1, ${EDGE}) AS head,
            substr(CAST(body AS BLOB), -${EDGE}) AS tail
       FROM log WHERE seq <= ? ORDER BY seq DESC LIMIT 1`,
  );
  const out: string[] = [];
  for (const s of sampleSeqs(lastSeq)) {
    const r = stmt.get(s);
    if (r === undefined || r.seq + r.n - 1 < s) return null;
    // The state ends at a row's end (the write path reads and appends whole rows).
    if (s === lastSeq && r.seq + r.n - 1 !== lastSeq) return null;
    out.push(`${r.seq}:${r.n}:${r.ts}:${r.bytes}:${checksum(r.head)}:${checksum(r.tail)}`);
  }
  return out;
}

function withLog<T>(location: string, fn: (db: Database.Database) => T): T | null {
  let db: Database.Database | undefined;
  try {
    db = new Database(location, { readonly: true, fileMustExist: true });
    return fn(db);
  } catch {
    return null;
  } finally {
    db?.close();
  }
}

/** The mark of a state holding the log's entries 1..lastSeq; null when the log does not hold them as whole rows. */
export function sqliteLogMark(location: string, lastSeq: number): SqliteLogMark | null {
  if (!Number.isInteger(lastSeq) || lastSeq < 1) return null;
  const rows = withLog(location, (db) => fingerprints(db, lastSeq));
  return rows === null ? null : { last_seq: lastSeq, rows };
}

/** Whether `mark` (as read from a file: anything) is of this log: it holds the same rows up to mark.last_seq. */
export function matchesSqliteLog(location: string, mark: unknown): mark is SqliteLogMark {
  if (typeof mark !== 'object' || mark === null) return false;
  const m = mark as Partial<SqliteLogMark>;
  if (typeof m.last_seq !== 'number' || !Number.isInteger(m.last_seq) || m.last_seq < 1) return false;
  if (!Array.isArray(m.rows)) return false;
  const rows = m.rows;
  const now = withLog(location, (db) => fingerprints(db, m.last_seq!));
  return now !== null && now.length === rows.length && now.every((r, i) => r === rows[i]);
}
