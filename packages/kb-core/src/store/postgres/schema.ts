// The PostgreSQL layout and its creation. Two tables in the connection's current schema:
//   evident_kb_meta (key, value)   the format marker, so a foreign table of the same name is refused
//   evident_kb_log  (seq, n, ts, body)  one row per chunk of entries appended together (../chunks.ts),
//                                    body = JSON text; entries get seqs seq .. seq+n-1
// and evident_kb_vectors (vectors.ts): derived, not part of the log (a provider's vectors, shared by processes).
// Chunk rows keep a million-claim ingest to a few hundred rows (the per-row B-tree and tuple cost is what
// bounds bulk inserts), while every entry keeps its own seq. Text, not jsonb: the store never looks inside
// an entry, and text round-trips exactly and costs no parsing on the server.
import type pg from 'pg';
import { KbOpenError } from '../../errors.js';
import { ensureVectorsTable } from './vectors.js';

// /2 adds claim-run chunks (../chunks.ts); a /1 base is read as it is and marked /2 when opened for writing.
export const FORMAT = 'evident-kb-log/2';
const OLD_FORMAT = 'evident-kb-log/1';
export const META = 'evident_kb_meta';
export const LOG = 'evident_kb_log';

/** Advisory lock classes (first key of the two-int form); the second key is the schema's hash. */
export const DDL_LOCK = 0x4b420001;
export const APPEND_LOCK = 0x4b420002;

const EXPECTED_COLUMNS: Record<string, string> = { seq: 'bigint', n: 'integer', ts: 'bigint', body: 'text' };

/**
 * Creates the tables if the database has none (when `create`), or checks that the ones there are ours.
 * Two processes opening a fresh database at the same moment must not race on CREATE TABLE (IF NOT EXISTS is
 * not safe against concurrent creation), so this runs under a session advisory lock, and the check runs in a
 * transaction begun after the lock is held: only then are the other process's new tables visible in the
 * catalog caches. The lock dies with the connection if the process does. Returns the schema's lock key.
 */
export async function ensureSchema(
  client: pg.PoolClient,
  opts: { create: boolean; readonly: boolean; location: string },
): Promise<number> {
  const {
    rows: [info],
  } = await client.query<{ schema: string | null; key: number }>(
    `SELECT current_schema() AS schema, hashtext(coalesce(current_schema(), '')) AS key`,
  );
  if (!info!.schema)
    throw new KbOpenError(
      'open_failed',
      'path',
      `${opts.location}: no schema on the search_path to hold the KB tables`,
    );
  await client.query('SELECT pg_advisory_lock($1, $2)', [DDL_LOCK, info!.key]);
  try {
    await client.query('BEGIN');
    try {
      const {
        rows: [t],
      } = await client.query<{ meta: string | null; log: string | null }>(
        'SELECT to_regclass($1)::text AS meta, to_regclass($2)::text AS log',
        [META, LOG],
      );
      if (!t!.meta && !t!.log) {
        if (!opts.create || opts.readonly)
          throw new KbOpenError('not_found', 'path', `no knowledge base in ${opts.location}`);
        await createTables(client);
      } else {
        await checkTables(client, t!.meta !== null, t!.log !== null, opts.location, opts.readonly);
      }
      // Provider vectors shared by the base's processes (vectors.ts); a base from before them gains the table.
      if (!opts.readonly) await ensureVectorsTable(client);
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1, $2)', [DDL_LOCK, info!.key]);
  }
  return info!.key;
}

async function createTables(client: pg.PoolClient): Promise<void> {
  await client.query(`CREATE TABLE ${META} (key text PRIMARY KEY, value text NOT NULL)`);
  const log = (compression: string) =>
    `CREATE TABLE ${LOG} (seq bigint PRIMARY KEY, n integer NOT NULL CHECK (n > 0), ts bigint NOT NULL, body text ${compression} NOT NULL)`;
  // lz4 compresses chunk bodies several times faster than the default pglz; servers built without it
  // refuse the clause, so fall back (inside a savepoint, since an error aborts the transaction).
  await client.query('SAVEPOINT lz4');
  try {
    await client.query(log('COMPRESSION lz4'));
  } catch {
    await client.query('ROLLBACK TO SAVEPOINT lz4');
    await client.query(log(''));
  }
  await client.query(`INSERT INTO ${META} (key, value) VALUES ('format', $1)`, [FORMAT]);
}

async function checkTables(
  client: pg.PoolClient,
  hasMeta: boolean,
  hasLog: boolean,
  location: string,
  readonly: boolean,
): Promise<void> {
  const bad = (why: string) => new KbOpenError('bad_format', 'path', `${location} is not an Evident KB: ${why}`);
  if (!hasMeta) throw bad(`table ${LOG} exists without ${META}`);
  let format: string | undefined;
  try {
    const { rows } = await client.query<{ value: string }>(`SELECT value FROM ${META} WHERE key = 'format'`);
    format = rows[0]?.value;
  } catch {
    throw bad(`table ${META} has an unexpected shape`);
  }
  if (format !== FORMAT && format !== OLD_FORMAT) throw bad(`format ${format ?? 'missing'} (expected ${FORMAT})`);
  if (!hasLog) throw bad(`table ${LOG} is missing`);
  if (format === OLD_FORMAT && !readonly)
    await client.query(`UPDATE ${META} SET value = $1 WHERE key = 'format'`, [FORMAT]);
  const { rows } = await client.query<{ column_name: string; data_type: string }>(
    `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`,
    [LOG],
  );
  const have = new Map(rows.map((r) => [r.column_name, r.data_type]));
  for (const [col, type] of Object.entries(EXPECTED_COLUMNS)) {
    if (have.get(col) !== type) throw bad(`column ${LOG}.${col} is ${have.get(col) ?? 'missing'} (expected ${type})`);
  }
}
