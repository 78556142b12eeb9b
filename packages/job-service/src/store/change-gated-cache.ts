// Embedded store: key and job rows kept in memory until the database changes. On an authenticated status
// request the two row reads were the largest cost of the API over a bare route (bench:api): each read opens a
// WAL read transaction, whose locks are system calls. The change check is one such transaction reading no table.
//
// Any commit empties the cache before the next read: SQLite's `data_version` moves when another connection
// commits (the CLI revoking a key, an operator editing a plan), `total_changes()` when this connection writes
// (a function call, no transaction). So a revoked key, a changed plan or a new job status is never answered from
// memory to a request that starts after the change.
import type Database from 'better-sqlite3';

export class ChangeGatedCache {
  private readonly dataVersionOf: Database.Statement<[], number>;
  private readonly changesOf: Database.Statement<[], number>;
  private dataVersion = -1;
  private changes = -1;
  private readonly entries = new Map<string, object>();
  /** The values read since the last change seen: all of them describe the current state. */
  private current = new WeakSet<object>();

  /** `maxEntries` bounds the memory; past it the oldest entry goes. */
  constructor(
    private readonly db: Database.Database,
    private readonly maxEntries = 10_000,
  ) {
    this.dataVersionOf = db.prepare<[], number>('pragma data_version').pluck(true);
    this.changesOf = db.prepare<[], number>('select total_changes()').pluck(true);
  }

  /**
   * The value cached under `key` if the database has not changed since it was read, else `read()`'s (cached
   * when found; misses are not, so unknown ids cannot fill the memory). Cached values are frozen: callers share
   * them.
   *
   * `sameStateAs`: a value this cache returned earlier to the same request (its caller's key). While no change
   * has been seen since, and this connection has written nothing, the answer is given in that same state
   * without checking other connections again: the request reads one consistent state, as of its first read.
   */
  get<T extends object>(key: string, read: () => T | undefined, sameStateAs?: object): T | undefined {
    // Inside a transaction a read may see rows that a rollback removes without moving either counter.
    if (this.db.inTransaction) return read();
    const changes = this.changesOf.get()!;
    const sameState = sameStateAs !== undefined && changes === this.changes && this.current.has(sameStateAs);
    const dataVersion = sameState ? this.dataVersion : this.dataVersionOf.get()!;
    if (dataVersion !== this.dataVersion || changes !== this.changes) {
      this.entries.clear();
      this.current = new WeakSet();
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
    this.current.add(value);
    return value;
  }
}
