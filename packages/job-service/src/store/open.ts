import { SqliteStore } from './sqlite.js';
import { PostgresStore } from './postgres.js';
import type { Store } from './types.js';

/** PostgreSQL when a database URL is given, else the SQLite file under the data directory. */
export async function openStore(opts: { databaseUrl?: string | undefined; dataDir: string }): Promise<Store> {
  const store = opts.databaseUrl ? new PostgresStore(opts.databaseUrl) : new SqliteStore(opts.dataDir);
  await store.migrate();
  return store;
}
