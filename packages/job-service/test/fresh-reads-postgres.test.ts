import { after } from 'node:test';
import pg from 'pg';
import { createTempDatabase, probePostgres, type TempDatabase } from '@evident/testkit';
import { freshReadsSuite } from './fresh-reads-suite.js';
import { startTestServer } from './helpers.js';

const probe = await probePostgres();
let db: TempDatabase | undefined;
freshReadsSuite(
  'postgres',
  async () => {
    db = await createTempDatabase('evident_jobs');
    const url = db.url;
    const server = await startTestServer({ databaseUrl: url, retryBaseMs: 1000 }, { inProcessWorker: true });
    return {
      server,
      connect: async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        return {
          exec: async (sql, args) => {
            let n = 0;
            await client.query(sql.replace(/\?/g, () => `$${++n}`).replace(/\b(api_keys|jobs)\b/g, 'evident_$1'), args);
          },
          close: () => client.end(),
        };
      },
    };
  },
  probe.skip,
);
after(async () => {
  await db?.drop();
});
