// The same API contract in PostgreSQL mode (pg-boss queue, jobs run by an in-process pg-boss worker).
import { after } from 'node:test';
import { createTempDatabase, probePostgres, type TempDatabase } from '@evident/testkit';
import { contractSuite } from './contract.js';
import { startTestServer } from './helpers.js';

const probe = await probePostgres();
let db: TempDatabase | undefined;
contractSuite(
  'postgres',
  async () => {
    db = await createTempDatabase('evident_jobs');
    return startTestServer({ databaseUrl: db.url, retryBaseMs: 1000 }, { inProcessWorker: true });
  },
  probe.skip,
);
after(async () => {
  await db?.drop();
});
