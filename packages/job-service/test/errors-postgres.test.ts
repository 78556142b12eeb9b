// The error answers in PostgreSQL mode: every server of this file shares one temporary database.
import { after } from 'node:test';
import { createTempDatabase, probePostgres, type TempDatabase } from '@evident/testkit';
import { errorsSuite } from './errors-suite.js';
import { startTestServer } from './helpers.js';

const probe = await probePostgres();
let db: Promise<TempDatabase> | undefined;
after(async () => {
  await (await db)?.drop();
});
errorsSuite(
  'postgres',
  async (over) => {
    db ??= createTempDatabase('evident_jobs_errors');
    return startTestServer({ ...over, databaseUrl: (await db).url });
  },
  probe.skip,
);
