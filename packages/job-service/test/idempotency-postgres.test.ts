import { after } from 'node:test';
import { createTempDatabase, probePostgres, type TempDatabase } from '@evident/testkit';
import type { PostgresStore } from '../src/store/postgres.js';
import { idempotencySuite } from './idempotency-suite.js';
import { startTestServer } from './helpers.js';

const probe = await probePostgres();
let db: TempDatabase | undefined;
idempotencySuite(
  'postgres',
  async () => {
    db = await createTempDatabase('evident_jobs');
    const server = await startTestServer({ databaseUrl: db.url, inlineJsonLimitBytes: 128 }, { inProcessWorker: true });
    return {
      server,
      age: async (keyId, idemKey, ms) =>
        void (await (server.store as PostgresStore).pool.query(
          'update evident_idempotency_keys set created_at = created_at - $1 where key_id = $2 and idem_key = $3',
          [ms, keyId, idemKey],
        )),
    };
  },
  probe.skip,
);
after(async () => {
  await db?.drop();
});
