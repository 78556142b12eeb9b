import { after } from 'node:test';
import { createTempDatabase, probePostgres, type TempDatabase } from '@evident/testkit';
import { fuzzSuite } from './fuzz-suite.js';
import { startTestServer } from './helpers.js';

const probe = await probePostgres();
let db: TempDatabase | undefined;
after(async () => {
  await db?.drop();
});
fuzzSuite(
  'postgres',
  async (over) => {
    db = await createTempDatabase('evident_jobs_fuzz');
    return startTestServer({ ...over, databaseUrl: db.url }, { inProcessWorker: true });
  },
  probe.skip,
);
