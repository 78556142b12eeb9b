// openPostgresStore(url, options): the entry point open-store.ts loads for postgres:// URLs.
// Connects, creates the tables on first open (under an advisory lock) or checks they are ours, and maps
// every failure to a KbOpenError with a stable code; no raw driver error leaves this function.
import pg from 'pg';
import { KbOpenError } from '../../errors.js';
import type { ClaimStore, StoreOpenOptions } from '../types.js';
import { ensureSchema } from './schema.js';
import { PostgresClaimStore } from './store.js';
import { parsePostgresUrl, redact } from './url.js';

/** Connections per opened store: appends are serialised anyway; reads overlap with at most one write. */
export const POOL_MAX = 4;

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'EPIPE',
  '57P03',
  /* cannot_connect_now */ '53300' /* too_many_connections */,
]);

export async function openPostgresStore(url: string, options: StoreOpenOptions = {}): Promise<ClaimStore> {
  const { connectionString, location } = parsePostgresUrl(url);
  const create = options.create ?? true;
  const readonly = options.readonly ?? false;
  const pool = new pg.Pool({
    connectionString,
    max: POOL_MAX,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    application_name: 'evident-kb',
  });
  // An idle connection dropped by the server emits 'error' on the pool; without a handler that would crash
  // the process. The pool discards the connection and the next query opens a new one.
  pool.on('error', () => undefined);
  let client: pg.PoolClient | undefined;
  try {
    client = await pool.connect();
    const key = await ensureSchema(client, { create, readonly, location });
    client.release();
    client = undefined;
    return new PostgresClaimStore(pool, location, key, readonly);
  } catch (e) {
    client?.release(true);
    await pool.end().catch(() => undefined);
    if (e instanceof KbOpenError) throw e;
    throw openError(e, url, location);
  }
}

function openError(e: unknown, url: string, location: string): KbOpenError {
  const err = e as { code?: string; message?: string };
  const msg = redact(err?.message ?? String(e), url);
  const code = err?.code ?? '';
  let kind = 'open_failed';
  if (UNREACHABLE.has(code) || /timeout|terminated unexpectedly|connection terminated/i.test(msg))
    kind = 'backend_unavailable';
  else if (code === '3D000') kind = 'not_found';
  const what =
    kind === 'backend_unavailable'
      ? 'PostgreSQL server not reachable'
      : kind === 'not_found'
        ? 'database does not exist'
        : 'cannot open';
  return new KbOpenError(kind, 'path', `${what}: ${location}: ${msg}`, { cause: e });
}
