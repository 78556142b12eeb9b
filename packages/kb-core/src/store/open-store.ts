// Chooses the store for a path: a postgres:// URL goes to the PostgreSQL store (loaded lazily so that the
// embedded default never needs a server), anything else is an SQLite file.
import { KbOpenError } from '../errors.js';
import { SqliteClaimStore } from './sqlite.js';
import type { ClaimStore, OpenStore, StoreOpenOptions } from './types.js';

export function isPostgresUrl(path: string): boolean {
  return /^postgres(ql)?:\/\//i.test(path);
}

export async function openStore(path: string, options: StoreOpenOptions = {}): Promise<ClaimStore> {
  if (typeof path !== 'string' || path.trim() === '') {
    throw new KbOpenError('invalid_path', 'path', 'path must be a non-empty string (a file path or a postgres:// URL)');
  }
  if (isPostgresUrl(path)) {
    let mod: { openPostgresStore?: OpenStore };
    try {
      // A variable specifier keeps TypeScript from requiring the module while it is being written.
      const spec = './postgres/index.js';
      mod = (await import(spec)) as { openPostgresStore?: OpenStore };
    } catch (e) {
      throw new KbOpenError(
        'backend_unavailable',
        'path',
        `the PostgreSQL store could not be loaded: ${(e as Error).message}`,
        { cause: e },
      );
    }
    if (typeof mod.openPostgresStore !== 'function') {
      throw new KbOpenError('backend_unavailable', 'path', 'the PostgreSQL store does not export openPostgresStore');
    }
    return mod.openPostgresStore(path, options);
  }
  return SqliteClaimStore.open(path, options);
}
