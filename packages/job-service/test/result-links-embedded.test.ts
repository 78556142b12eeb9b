import { statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SqliteStore } from '../src/store/sqlite.js';
import { linkKindModules, resultLinksSuite } from './result-links-suite.js';
import { startTestServer } from './helpers.js';

let dataDir = '';
resultLinksSuite('embedded', async () => {
  const server = await startTestServer({ kindModules: linkKindModules });
  dataDir = (server.store as SqliteStore).dataDir;
  return { server, reopen: async () => new SqliteStore(dataDir) };
});

test('embedded: the signing secret lives in the data directory, readable by the service user only', () => {
  const mode = statSync(join(dataDir, 'evident-jobs.sqlite')).mode & 0o777;
  assert.equal(mode, 0o600);
});
