// Embedded store: key and job rows kept in memory until the database changes. On an authenticated status
// request the two row reads (about 20 µs each under load) were the largest cost of the API over a bare route
// (bench:api); a change check costs one statement that reads no table.
//
// Any commit empties the cache before the next read: SQLite's `data_version` moves when another connection
// commits (the CLI revoking a key, an operator editing a plan), `total_changes()` when this connection writes.
// So a revoked key, a changed plan or a new job status is never answered from memory.
import type Database from 'better-sqlite3';

export class ChangeGatedCache {
  private readonly probe: Database.Statement<[], [number, number]>;
  private dataVersion = -1;
  private changes = -1;
  private readonly entries = new Map<string, unknown>();

  /** `maxEntries` bounds the memory; past it the oldest entry goes. */
  constructor(
    private readonly db: Database.Database,
    private readonly maxEntries = 10_000,
  ) {
    this.probe = db.prepare<[], [number, number]>('select data_version, total_changes() from pragma_data_version');
    this.probe.raw(true);
  }

  /**
   * The value cached under `key` if the database has not changed since it was read, else `read()`'s (cached
   * when found; misses are not, so unknown ids cannot fill the memory). Cached values are frozen: callers share
   * them.
   */
  get<T extends object>(key: string, read: () => T | undefined): T | undefined {
    // Inside a transaction a read may see rows that a rollback removes without moving either counter.
    if (this.db.inTransaction) return read();
    const [dataVersion, changes] = this.probe.get()!;
    if (dataVersion !== this.dataVersion || changes !== this.changes) {
      this.entries.clear();
      this.dataVersion = dataVersion;
      this.changes = changes;
    } else {
      const hit = this.entries.get(key);
      if (hit !== undefined) return hit as T;
    }
    const value = read();
    if (value === undefined) return undefined;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, Object.freeze(value));
    return value;
  }
}
