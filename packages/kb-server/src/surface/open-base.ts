// Opening the base for a server process: a clear message and a bounded wait instead of a hang.
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isPostgresUrl, quickstart, type KbDB } from '@evident/kb';

import { StartupError } from './error-codes.js';

export { StartupError } from './error-codes.js';

/**
 * Opens (creating if needed, in an existing directory) the base at `path` and registers the shipped `bio`
 * vocabulary when absent. Rejects with a StartupError whose message says what to fix.
 */
export async function openBase(
  path: string | undefined,
  what: string,
  timeoutMs = 20_000,
  options: { strict?: boolean } = {},
): Promise<KbDB> {
  if (path === undefined || path.trim() === '') {
    throw new StartupError(
      `${what}: no knowledge base given; set KB_DB_PATH to a file path (e.g. ./my.kb) or a postgres:// URL`,
    );
  }
  if (!isPostgresUrl(path)) {
    const full = resolve(path);
    if (existsSync(full) && statSync(full).isDirectory())
      throw new StartupError(`${what}: ${full} is a directory, not a knowledge base file`);
    if (!existsSync(dirname(full)))
      throw new StartupError(`${what}: cannot open ${full}: directory ${dirname(full)} does not exist`);
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new StartupError(`${what}: opening ${redact(path)} did not finish within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([quickstart(path, { strict: options.strict ?? false }), timeout]);
  } catch (e) {
    if (e instanceof StartupError) throw e;
    throw new StartupError(`${what}: cannot open ${redact(path)}: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Strict validation for a server: `--strict`, else KB_STRICT ('1' or 'true'; '0', 'false' or empty: not strict).
 * Anything else is a StartupError naming the value.
 */
export function strictFrom(env: NodeJS.ProcessEnv, flag: boolean | undefined, what: string): boolean {
  if (flag) return true;
  const raw = (env.KB_STRICT ?? '').trim().toLowerCase();
  if (raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new StartupError(`${what}: KB_STRICT must be 1, true, 0 or false (got '${env.KB_STRICT}')`);
}

/** postgres://user:secret@host -> postgres://user:***@host (passwords never reach logs). */
export function redact(path: string): string {
  return path.replace(/^(postgres(?:ql)?:\/\/[^:/@]*:)[^@]*@/i, '$1***@');
}
