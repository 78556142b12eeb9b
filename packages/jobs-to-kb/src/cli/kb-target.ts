// What `--kb` names, judged before anything is opened for writing. The KB's open() creates its tables in whatever
// it is given (an SQLite file's own `meta` and `log`, or a PostgreSQL schema's `evident_kb_*`), so the job store
// itself (`--kb data/evident-jobs.sqlite`) became a KB beside the jobs; and a `file:` URL, not being a postgres://
// one, was taken as a relative file name (`./file:/etc/passwd`). A KB is recognised by its own tables: an existing
// base, or nothing yet (a new path, an empty file, a database without tables) where one is created.
import Database from 'better-sqlite3';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import { ExportError } from '../errors.js';

/** The first 16 bytes of every SQLite database file. */
const SQLITE_MAGIC = 'SQLite format 3\0';
/** The SQLite KB's format marker (`meta.format`), as kb-core's store writes it: `evident-kb-log/<version>`. */
const KB_FORMAT = /^evident-kb-log\//;
/** Tables of the evident-jobs job store, by which it is named in a refusal (SQLite, then PostgreSQL names). */
const JOB_STORE_TABLES = [
  ['jobs', 'api_keys'],
  ['evident_jobs', 'evident_api_keys'],
] as const;

const refuse = (kb: string, what: string) =>
  new ExportError(
    'invalid_kb',
    `--kb ${kb} ${what}; nothing was written. --kb takes an existing Evident KB, or a new file path or an empty ` +
      'PostgreSQL database where one is created',
  );

const listed = (names: readonly string[]) =>
  names.length > 8 ? `${names.slice(0, 8).join(', ')} and ${names.length - 8} more` : names.join(', ');

/** What a set of tables that is not a KB is, in words. */
function foreign(tables: readonly string[], where: string): string {
  const store = JOB_STORE_TABLES.some((names) => names.every((n) => tables.includes(n)));
  return `is ${store ? 'the job store of evident-jobs' : where}, not an Evident KB (tables ${listed(tables)})`;
}

/** A postgres:// URL with its password replaced by '***' (what an error may show). */
function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the postgres:// URL';
  }
}

/** Free text (a driver's message) without the URL's password. */
function withoutPassword(text: string, url: string): string {
  let password = '';
  try {
    password = new URL(url).password;
  } catch {
    return text.split(url).join(redacted(url));
  }
  if (!password) return text;
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    /* a malformed escape: the raw form only */
  }
  return text.split(password).join('***').split(decoded).join('***');
}

/**
 * Refuses (ExportError `invalid_kb`, naming --kb and what was found) a value that is not a KB location: a URL of any
 * scheme but postgres:// and postgresql://, a directory or a device, a file that is not SQLite, an SQLite database
 * or a PostgreSQL schema holding tables but no KB. Reads only.
 */
export async function checkKbTarget(kb: string): Promise<void> {
  if (kb.trim() === '') throw refuse("''", 'is empty');
  if (/^postgres(ql)?:\/\//i.test(kb)) return checkPostgres(kb);
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(kb)?.[1];
  // (A drive letter is not a scheme on Windows: C:\kb.sqlite.)
  if (scheme && !(process.platform === 'win32' && /^[A-Za-z]:[\\/]/.test(kb))) {
    const name = scheme.toLowerCase();
    throw refuse(
      kb,
      name === 'file'
        ? "is a 'file:' URL; give the file's path itself (or a postgres:// URL)"
        : `is a '${name}:' URL; only postgres:// and postgresql:// URLs are KB locations (a file whose name has a ` +
            `colon: write ./${kb})`,
    );
  }
  return checkSqlite(kb);
}

function checkSqlite(kb: string): void {
  const file = resolve(kb);
  let size: number;
  try {
    const st = statSync(file);
    if (st.isDirectory()) throw refuse(kb, 'is a directory');
    if (!st.isFile()) throw refuse(kb, 'is not a regular file');
    size = st.size;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return; // a new base
    throw e instanceof ExportError ? e : refuse(kb, `cannot be read: ${(e as Error).message}`);
  }
  if (size === 0) return; // an empty file is an empty SQLite database
  const head = Buffer.alloc(SQLITE_MAGIC.length);
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    readSync(fd, head, 0, head.length, 0);
  } catch (e) {
    throw refuse(kb, `cannot be read: ${(e as Error).message}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (head.toString('latin1') !== SQLITE_MAGIC) throw refuse(kb, 'is not an SQLite database (nor an Evident KB)');
  let tables: string[];
  let format: string | undefined;
  // Read-only. (A reader of a WAL database may have SQLite create its empty -wal and -shm files, as any reader does.)
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 5000 });
  try {
    tables = (
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
        .all() as { name: string }[]
    ).map((r) => r.name);
    if (tables.includes('meta'))
      format = (db.prepare("SELECT value FROM meta WHERE key = 'format'").get() as { value?: unknown } | undefined)
        ?.value as string | undefined;
  } catch (e) {
    throw refuse(kb, `is an SQLite database that cannot be read: ${(e as Error).message}`);
  } finally {
    db.close();
  }
  if (tables.length === 0) return;
  if (typeof format === 'string' && KB_FORMAT.test(format)) return; // a KB (its open checks the rest)
  throw refuse(kb, foreign(tables, 'an SQLite database of something else'));
}

async function checkPostgres(kb: string): Promise<void> {
  const client = new pg.Client({
    connectionString: kb,
    connectionTimeoutMillis: 10_000,
    application_name: 'evident-export',
  });
  // A connection the server drops emits 'error'; without a handler that would end the process.
  client.on('error', () => undefined);
  let tables: string[];
  try {
    await client.connect();
    const { rows } = await client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`,
    );
    tables = rows.map((r) => r.name);
  } catch (e) {
    const err = e as { code?: string; message?: string };
    const why = err.code === '3D000' ? 'names a database that does not exist' : 'cannot be reached';
    throw new ExportError(
      'kb_unavailable',
      `--kb ${redacted(kb)} ${why}: ${withoutPassword(err.message ?? String(e), kb)}`,
      { cause: e },
    );
  } finally {
    await client.end().catch(() => undefined);
  }
  // The KB's tables (evident_kb_meta, evident_kb_log, evident_kb_vectors): a base, which its own open checks.
  if (tables.length === 0 || tables.some((t) => t.startsWith('evident_kb_'))) return;
  throw refuse(redacted(kb), foreign(tables, 'a database of something else'));
}
