// The console of console-offload.test.ts in a process of its own, as a user runs it, so that what the test's own
// client does (sending bodies, parsing answers) never shares the console's thread: opens the base at argv[2] with
// the off-thread settings of argv[3] (JSON), serves it on a free port of 127.0.0.1 and prints the URL.
import { open } from '@evident/kb';
import { startConsole } from '../src/console/server.js';

const db = await open(process.argv[2]!, { embedding: false });
db.configureOffThread(JSON.parse(process.argv[3] ?? '{}'));
await db.search('kinase', 1); // the search index takes in the base before the test starts
const c = await startConsole(db, { port: 0 });
process.stdout.write(`listening on ${c.url}\n`);
process.once('SIGTERM', () => {
  void c
    .close()
    .then(() => db.close())
    .finally(() => process.exit(0));
});
