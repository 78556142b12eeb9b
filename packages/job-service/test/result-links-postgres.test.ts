import { after } from 'node:test';
import { createTempDatabase, probePostgres, type TempDatabase } from '@evident/testkit';
import { PostgresStore } from '../src/store/postgres.js';
import { linkKindModules, resultLinksSuite } from './result-links-suite.js';
import { startTestServer } from './helpers.js';

const probe = await probePostgres();
let db: TempDatabase | undefined;
resultLinksSuite(
  'postgres',
  async () => {
    db = await createTempDatabase('evident_jobs');
    const server = await startTestServer(
      { databaseUrl: db.url, kindModules: linkKindModules },
      { inProcessWorker: true },
    );
    const url = db.url;
    return { server, reopen: async () => new PostgresStore(url, 2) };
  },
  probe.skip,
);
after(async () => {
  await db?.drop();
});
