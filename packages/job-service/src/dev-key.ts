// A development API key for `npm start`: created once and kept in <data-dir>/dev-api-key.json (mode 0600) so
// the user can read it again; the store itself keeps only its hash. Reused while it exists and is not revoked.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashApiKey } from './ids.js';
import type { CreatedKey, Store } from './store/types.js';

export const DEV_KEY_FILE = 'dev-api-key.json';

export async function ensureDevKey(
  store: Store,
  dataDir: string,
): Promise<CreatedKey & { reused: boolean; file: string }> {
  const file = join(dataDir, DEV_KEY_FILE);
  if (existsSync(file)) {
    try {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as CreatedKey;
      const rec = await store.findKeyByHash(hashApiKey(saved.key));
      if (rec && rec.revoked_at == null) return { ...saved, reused: true, file };
    } catch {
      /* unreadable: replaced below */
    }
  }
  const created = await store.createKey({ name: 'development (npm start)', plan: 'researcher' });
  writeFileSync(file, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { ...created, reused: false, file };
}
