// The export into a fresh PostgreSQL base (see suite.ts); skipped with a message without a server, run under CI.
import { open } from '@evident/kb';
import { createTempDatabase, probePostgres } from '@evident/testkit';
import { exportSuite } from './suite.js';

const probe = await probePostgres();

exportSuite(
  'export into PostgreSQL',
  async () => {
    const database = await createTempDatabase('jobs_to_kb');
    const db = await open(database.url);
    return {
      location: database.url,
      db,
      async cleanup() {
        await db.close();
        await database.drop();
      },
    };
  },
  probe.skip,
);
