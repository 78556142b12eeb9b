// Copies of the log: snapshot (a consistent SQLite copy while the base stays in use) and restore (a snapshot
// into a new, empty base). Both keep every entry's order and timestamp, so at() answers the same afterwards.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { KbError, KbOpenError, KbValidationError } from '../errors.js';
import { sliceRun, type ClaimRun } from '../model/claim-run.js';
import { openStore, isPostgresUrl } from '../store/open-store.js';
import { PRIVATE_FILE } from '../store/private-files.js';
import { SqliteClaimStore } from '../store/sqlite.js';
import { isMemoryPath } from '../store/side-files.js';
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
  // SQLite's name for a database that is never a file: a copy there would be a file of that name in the cwd.
  if (isMemoryPath(dest)) throw new KbValidationError('invalid_value', 'dest', `must be a file path, not ${dest}`);
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

/**
 * Copies a snapshot (a file, or a directory snapshotTo wrote into) into a new, empty log at `dest`, or into an
 * empty store the caller keeps open (an in-memory base, which a reopen would not find).
 */
export async function restoreLog(source: string, dest: string | ClaimStore): Promise<void> {
  if (typeof source !== 'string' || source.trim() === '' || isPostgresUrl(source)) {
    throw new KbValidationError('invalid_type', 'src', 'must be the path of a snapshot file or directory');
  }
  const src = isDirectory(source) ? await verifiedSnapshotIn(source) : source;
  const kept = typeof dest === 'object' && dest !== null ? dest : undefined;
  if (kept === undefined && (typeof dest !== 'string' || dest.trim() === '')) {
    throw new KbValidationError('invalid_type', 'dest', 'must be a path or a postgres:// URL');
  }
  const from = await SqliteClaimStore.open(src, { create: false, readonly: true });
  try {
    const to = kept ?? (await openStore(dest as string));
    try {
      const head = await to.head();
      if (head !== 0) {
        const why = `${kept ? kept.location : (dest as string)} already holds ${head} log entries; restore needs an empty base`;
        throw new KbValidationError('not_empty', 'dest', why);
      }
      await copyLog(from, to, Infinity);
    } finally {
      if (!kept) await to.close();
    }
  } finally {
    await from.close();
  }
}

// ---- snapshots into a directory, with a manifest -------------------------------------------------------

/** What snapshot() answers; `manifest` when it wrote into a directory. */
export interface SnapshotResult {
  path: string;
  log_seq: number;
  manifest?: string;
}

/** The manifest beside a snapshot written into a directory. */
export interface SnapshotManifest {
  format: 'evident-kb-snapshot/1';
  /** The snapshot file's name, in the manifest's directory. */
  file: string;
  created_at: string;
  log_seq: number;
  counts: Record<string, number>;
  sha256: string;
  bytes: number;
}

const MANIFEST_SUFFIX = '.manifest.json';

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

async function sha256Of(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** What snapshotTo needs of the base: its serial queue, its store and the last seq it applied. */
interface SnapshotSource {
  serial<T>(fn: () => Promise<T>): Promise<T>;
  readonly store: ClaimStore;
  readonly lastSeq: number;
}

/**
 * snapshot(dest): into `dest` when it is an existing directory (a file named after the moment and log
 * position, and its manifest), else to the new file `dest`. Counts are taken in the same serial turn as the
 * copy, so the manifest describes exactly the copied log.
 */
export async function snapshotTo(
  w: SnapshotSource,
  dest: string,
  counts: () => Record<string, number>,
): Promise<SnapshotResult> {
  if (typeof dest !== 'string' || dest.trim() === '' || isPostgresUrl(dest)) {
    throw new KbValidationError('invalid_type', 'dest', 'must be a file or directory path');
  }
  const intoDir = isDirectory(dest);
  if (!intoDir) checkSnapshotDest(dest);
  return w.serial(async () => {
    const seq = w.lastSeq;
    const at = new Date();
    const path = intoDir ? join(dest, `kb-snapshot-${at.toISOString().replace(/[:.]/g, '')}-${seq}.kb`) : dest;
    checkSnapshotDest(path);
    const c = counts();
    await snapshotLog(w.store, path, seq);
    if (!intoDir) return { path, log_seq: seq };
    const manifest: SnapshotManifest = {
      format: 'evident-kb-snapshot/1',
      file: basename(path),
      created_at: at.toISOString(),
      log_seq: seq,
      counts: c,
      sha256: await sha256Of(path),
      bytes: statSync(path).size,
    };
    const manifestPath = path.replace(/\.kb$/, MANIFEST_SUFFIX);
    await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx', mode: PRIVATE_FILE });
    return { path, log_seq: seq, manifest: manifestPath };
  });
}

/** The newest snapshot in a directory snapshotTo wrote into, its checksum verified against its manifest. */
async function verifiedSnapshotIn(dir: string): Promise<string> {
  const manifests: SnapshotManifest[] = [];
  for (const name of await readdir(dir)) {
    if (!name.endsWith(MANIFEST_SUFFIX)) continue;
    try {
      const m = JSON.parse(await readFile(join(dir, name), 'utf8')) as SnapshotManifest;
      if (m.format === 'evident-kb-snapshot/1' && typeof m.file === 'string') manifests.push(m);
    } catch {
      // Not ours (or half-written): the other manifests still count.
    }
  }
  if (manifests.length === 0)
    throw new KbValidationError('not_found', 'src', `${dir} holds no snapshot manifest (*${MANIFEST_SUFFIX})`);
  manifests.sort((a, b) => b.created_at.localeCompare(a.created_at) || b.log_seq - a.log_seq);
  const m = manifests[0]!;
  const file = join(dir, basename(m.file));
  if (!existsSync(file)) throw new KbValidationError('not_found', 'src', `${file}, named by its manifest, is missing`);
  const sum = await sha256Of(file);
  if (sum !== m.sha256)
    throw new KbValidationError(
      'checksum_mismatch',
      'src',
      `${file} does not match its manifest's SHA-256 (the snapshot changed or is damaged)`,
    );
  return file;
}
