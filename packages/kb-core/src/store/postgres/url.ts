// Parsing and describing a postgres:// URL: the store must never echo a password back (location, errors).
import { KbOpenError } from '../../errors.js';

export interface ParsedUrl {
  /** What pg connects with (the original string). */
  connectionString: string;
  /** The URL with any password replaced by '***' (safe for logs, stats(), error messages). */
  location: string;
}

export function parsePostgresUrl(url: string): ParsedUrl {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new KbOpenError(
      'invalid_path',
      'path',
      'not a valid postgres:// URL (expected postgres://user@host:port/database)',
    );
  }
  if (!/^postgres(ql)?:$/i.test(u.protocol)) {
    throw new KbOpenError(
      'invalid_path',
      'path',
      `unsupported URL scheme '${u.protocol}' (expected postgres:// or postgresql://)`,
    );
  }
  const db = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (db === '' || db.includes('/')) {
    throw new KbOpenError(
      'invalid_path',
      'path',
      'the postgres:// URL must name a database (postgres://user@host:port/database)',
    );
  }
  if (u.hostname === '' && !u.searchParams.has('host')) {
    throw new KbOpenError('invalid_path', 'path', 'the postgres:// URL must name a host');
  }
  const safe = new URL(u.toString());
  if (safe.password) safe.password = '***';
  return { connectionString: url, location: safe.toString() };
}

/** Removes a password from free text (a driver message may quote the URL it was given). */
export function redact(text: string, url: string): string {
  try {
    const pw = new URL(url).password;
    if (pw) return text.split(pw).join('***').split(decodeURIComponent(pw)).join('***');
  } catch {
    /* not a URL: nothing to redact */
  }
  return text;
}
