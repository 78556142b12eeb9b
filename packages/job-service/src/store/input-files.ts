// Large job inputs of the embedded store, kept as files beside the SQLite file (`<data dir>/inputs/`) rather than
// in it. better-sqlite3 is synchronous: writing a 33 MB input into the database on the event loop took 431 ms, and
// reading it back when a worker claimed the job 208 ms, while every other request waited. The thread that
// prepared the input writes its file (synced before the job row that names it is committed), and the job's thread
// reads it; the event loop only stores and passes on the name.
import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Prepared inputs (gzip) of at least this many bytes go to a file; smaller ones into the database as before. */
export const INPUT_FILE_MIN_BYTES = 256 * 1024;

/** The folder of a data directory's input files. */
export const inputDirOf = (dataDir: string) => join(dataDir, 'inputs');

function syncFolder(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `gz` as a new file in `dir`, synced (the file and its folder entry), and returns its name. Runs on the
 * preparing thread: blocking it is the point.
 */
export function writeInputFile(dir: string, gz: Uint8Array): string {
  const name = `${randomUUID()}.json.gz`;
  const fd = openSync(join(dir, name), 'wx', 0o600);
  try {
    for (let at = 0; at < gz.length; ) at += writeSync(fd, gz, at, gz.length - at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  syncFolder(dir);
  return name;
}

/** The input of a run: its file's bytes when it has one (on the job's thread), else the bytes it came with. */
export const readInput = (input: Uint8Array, path: string | undefined): Uint8Array =>
  path === undefined ? input : readFileSync(path);

/** Removes, in the background, an input file no job will name (its submission was refused after it was written). */
export function discardInputFile(dir: string, name: string): void {
  rm(join(dir, name), { force: true }).catch(() => {});
}

/**
 * Removes the files of `dir` not in `used`: inputs written for submissions that were refused, cut short, or whose
 * process stopped before it stored the job.
 */
export function removeUnusedInputFiles(dir: string, used: ReadonlySet<string>): void {
  for (const name of readdirSync(dir)) if (!used.has(name)) rmSync(join(dir, name), { force: true });
}
