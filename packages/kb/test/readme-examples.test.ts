// Every README example of the KB packages runs verbatim from the repository root, on the minimum Node version
// (issue #14; issue 36, points 9 and 10): each `js` block is first parsed by Node's own parser (`node --check`:
// syntax Node 20 lacks, such as `await using`, fails here), then every js/ts block runs in a fresh checkout of
// the repository against the library's sources, and must leave nothing outside work/ (@evident/testkit,
// readme.ts). A block that needs PostgreSQL gets a fresh database in DATABASE_URL (skipped, with a message,
// when none is reachable).
import { createTempDatabase, probePostgres, testReadmeExamples } from '@evident/testkit';

const pg = await probePostgres();

// The KB packages' READMEs, the kb-core stages' (those with code), and the repository's ("Use the knowledge base").
testReadmeExamples(
  [
    'packages/kb/README.md',
    'packages/kb-core/README.md',
    'packages/kb-core/src/cypher/README.md',
    'packages/kb-core/src/store/README.md',
    'README.md',
  ],
  {
    timeoutMs: 120_000,
    prepare: async (example) => {
      if (!example.code.includes('DATABASE_URL')) return undefined;
      if (pg.skip) return { skip: pg.skip };
      const db = await createTempDatabase('evident_readme');
      return { env: { DATABASE_URL: db.url }, cleanup: () => db.drop() };
    },
  },
);
