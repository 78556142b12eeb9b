// Everything a base writes on disk is its owner's alone: files 0600, folders 0700. The log holds claims and
// their sources, and what is derived from it beside the base (vectors, learnt tokens, topology) holds entity
// names and stems as well, so none of it is left readable by other users whatever the process's umask.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';

export const PRIVATE_FILE = 0o600;
export const PRIVATE_DIR = 0o700;

/**
 * Writes a file readable by its owner alone. The mode given to the write applies only to a file it creates,
 * so a file already there (a temporary left by a crash, one an older version wrote) is set afterwards too.
 */
export function writePrivateFile(path: string, data: string | NodeJS.ArrayBufferView): void {
  writeFileSync(path, data, { mode: PRIVATE_FILE });
  chmodSync(path, PRIVATE_FILE);
}

/** A file some other writer created (SQLite, usearch), made the owner's alone. */
export function makePrivate(path: string): void {
  chmodSync(path, PRIVATE_FILE);
}

/** Creates a folder (and its missing parents) for the owner alone. */
export function makePrivateDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIR });
}
