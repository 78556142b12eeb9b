import { createRequire } from 'node:module';
import { join } from 'node:path';
import { repoRoot, tempDir } from '@evident/testkit';

/** A fresh directory for one test; returns a path inside it and the cleanup. */
export function tempKb(name = 'test.kb'): { path: string; dir: string; cleanup(): void } {
  const d = tempDir('evident-kb-');
  return { path: join(d.path, name), dir: d.path, cleanup: d.cleanup };
}

/** A SQLite connection of better-sqlite3, the driver of kb-core's store (resolved through kb-core). */
interface SqliteConnection {
  pragma(source: string): unknown;
  exec(source: string): unknown;
  close(): void;
}
const Sqlite = createRequire(join(repoRoot, 'packages', 'kb-core', 'package.json'))('better-sqlite3') as new (
  file: string,
) => SqliteConnection;

/**
 * Holds the write lock of a SQLite base from another connection, as a second process writing to the same file
 * would: every write of the base waits the store's busy timeout (5 s), then fails. release() ends it.
 */
export function holdWriteLock(file: string): { release(): void } {
  const conn = new Sqlite(file);
  conn.exec('BEGIN IMMEDIATE');
  return {
    release() {
      conn.exec('ROLLBACK');
      conn.close();
    },
  };
}
