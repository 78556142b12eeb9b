// The export into a fresh SQLite base (see suite.ts).
import { join } from 'node:path';
import { open } from '@evident/kb';
import { tempDir } from '@evident/testkit';
import { exportSuite } from './suite.js';

exportSuite('export into SQLite', async () => {
  const dir = tempDir('jobs-to-kb-');
  const location = join(dir.path, 'lab.kb');
  const db = await open(location);
  return {
    location,
    db,
    async cleanup() {
      await db.close();
      dir.cleanup();
    },
  };
});
