import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { SqliteStore } from '../src/store/sqlite.js';
import { freshReadsSuite } from './fresh-reads-suite.js';
import { startTestServer } from './helpers.js';

freshReadsSuite('embedded', async () => {
  const server = await startTestServer();
  return {
    server,
    // Its own connection to the server's file, as `evident-jobs keys revoke` opens one.
    connect: async () => {
      const db = new Database(join((server.store as SqliteStore).dataDir, 'evident-jobs.sqlite'));
      db.pragma('busy_timeout = 5000');
      return {
        exec: async (sql, args) => void db.prepare(sql).run(...args),
        close: async () => void db.close(),
      };
    },
  };
});
