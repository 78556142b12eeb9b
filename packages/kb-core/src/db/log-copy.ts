// Copies of the log: snapshot (a consistent SQLite copy while the base stays in use) and restore (a snapshot
// into a new, empty base). Both keep every entry's order and timestamp, so at() answers the same afterwards.
import { existsSync } from 'node:fs';
import { KbError, KbOpenError, KbValidationError } from '../errors.js';
import { sliceRun, type ClaimRun } from '../model/claim-run.js';
import { openStore, isPostgresUrl } from '../store/open-store.js';
import { SqliteClaimStore } from '../store/sqlite.js';
import { entrySpan, lastSeqOf } from '../store/log-span.js';
import type { ClaimStore, LogRecord } from '../store/types.js';

/**
 * Copies the log's entries with seq <= upTo from one store into another that holds exactly the entries before
 * them (an empty one, for a copy from the start), keeping each append's timestamp so at() answers the same.
 */
export async function copyLog(from: ClaimStore, to: ClaimStore, upTo: number): Promise<void> {
  let after = 0;
  while (after < upTo) {
    const page: LogRecord[] = [];
    for (const r of await from.readAfter(after, 50_000)) {
      if (r.seq > upTo) break;
      const span = entrySpan(r.entry);
      // A run reaching past upTo (appended after it) keeps only its head.
      page.push(r.seq + span - 1 <= upTo ? r : { ...r, entry: sliceRun(r.entry as ClaimRun, 0, upTo - r.seq + 1) });
    }
    if (page.length === 0) break;
    let i = 0;
    while (i < page.length) {
      let j = i;
      while (j < page.length && page[j]!.ts === page[i]!.ts) j++;
      await to.append(
        page.slice(i, j).map((r) => r.entry),
        page[i]!.ts,
        page[i]!.seq - 1,
      );
      i = j;
    }
    after = lastSeqOf(page[page.length - 1]!);
  }
}

/** Checks a snapshot destination: a file path that does not exist yet (snapshots never overwrite). */
export function checkSnapshotDest(dest: string): void {
  if (typeof dest !== 'string' || dest.trim() === '' || isPostgresUrl(dest)) {
    throw new KbValidationError('invalid_type', 'dest', 'must be a file path');
  }
  if (existsSync(dest)) {
    throw new KbValidationError('exists', 'dest', `${dest} already exists; snapshots never overwrite`);
  }
}

/** Writes the store's log up to `seq` (the last the caller applied) to a new SQLite file at `dest`. */
export async function snapshotLog(store: ClaimStore, dest: string, seq: number): Promise<void> {
  if (store.snapshotTo) {
    try {
      await store.snapshotTo(dest);
    } catch (e) {
      if (e instanceof KbError) throw e;
      const why = `cannot write a snapshot to ${dest}: ${(e as Error).message}`;
      throw new KbOpenError('snapshot_failed', 'dest', why, { cause: e });
    }
    return;
  }
  const copy = await SqliteClaimStore.open(dest);
  try {
    await copyLog(store, copy, seq);
  } finally {
    await copy.close();
  }
}

/** Copies a snapshot file (`src`) into a new, empty log at `dest` (a path or a postgres:// URL). */
export async function restoreLog(src: string, dest: string): Promise<void> {
  if (typeof src !== 'string' || isPostgresUrl(src)) {
    throw new KbValidationError('invalid_type', 'src', 'must be the path of a snapshot file');
  }
  if (typeof dest !== 'string' || dest.trim() === '') {
    throw new KbValidationError('invalid_type', 'dest', 'must be a path or a postgres:// URL');
  }
  const from = await SqliteClaimStore.open(src, { create: false, readonly: true });
  try {
    const to = await openStore(dest);
    try {
      const head = await to.head();
      if (head !== 0) {
        const why = `${dest} already holds ${head} log entries; restore needs an empty base`;
        throw new KbValidationError('not_empty', 'dest', why);
      }
      await copyLog(from, to, Infinity);
    } finally {
      await to.close();
    }
  } finally {
    await from.close();
  }
}
