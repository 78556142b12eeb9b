import type { SqliteStore } from '../src/store/sqlite.js';
import { idempotencySuite } from './idempotency-suite.js';
import { startTestServer } from './helpers.js';

idempotencySuite('embedded', async () => {
  const server = await startTestServer({ inlineJsonLimitBytes: 128 });
  return {
    server,
    age: async (keyId, idemKey, ms) =>
      void (server.store as SqliteStore).db
        .prepare('update idempotency_keys set created_at = created_at - ? where key_id = ? and idem_key = ?')
        .run(ms, keyId, idemKey),
  };
});
