// Safe, streaming ZIP reading for chat exports. The central directory is read first (entry count, names
// and declared sizes are checked before any byte is inflated); entry data is streamed and counted, so an
// archive that lies about its sizes still stops at the bound. Nothing is ever written to disk.
import { open as yauzlOpen, type Entry, type ZipFile } from 'yauzl';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { KbError } from '@evident/kb-core';
import { extractStatus } from '../error-codes.js';

export const ZIP_DEFAULTS = {
  /** Total uncompressed bytes the archive may expand to. */
  max_total_bytes: 1024 ** 3,
  /** Entries (files and folders) the archive may hold. */
  max_entries: 200_000,
} as const;

import type { ZipLimits } from '@evident/kb-core';
export type { ZipLimits };

export type ArchiveErrorCode =
  | 'not_found'
  | 'not_zip'
  | 'corrupt_archive'
  | 'path_traversal'
  | 'too_large'
  | 'too_many_entries'
  | 'missing_entry'
  | 'encrypted_entry';

/** A problem with an archive file; `file` names it and `entry` the member concerned, if any. */
export class KbArchiveError extends KbError {
  readonly file: string;
  readonly entry: string | undefined;
  constructor(code: ArchiveErrorCode, file: string, message: string, entry?: string) {
    // The archive a caller named cannot be used as it is: the caller's to fix (400; a missing file 404), from
    // KB_EXTRACT_ERRORS or, for kb-core's codes (not_found, too_large), KB_ERRORS.
    super(code, `${file}${entry === undefined ? '' : ` (${entry})`}: ${message}`, { status: extractStatus(code) });
    this.file = file;
    this.entry = entry;
  }
}

/** True when the entry name would land outside the extraction root (absolute, drive letter, or `..`). */
export function escapesRoot(name: string): boolean {
  const n = name.replace(/\\/g, '/');
  if (n.startsWith('/') || /^[a-zA-Z]:/.test(n)) return true;
  let depth = 0;
  for (const part of n.split('/')) {
    if (part === '..') {
      if (--depth < 0) return true;
    } else if (part !== '' && part !== '.') depth++;
  }
  return false;
}

/** Reads the first bytes: a ZIP starts with a local file header or (empty archive) an end record. */
export function looksLikeZip(path: string): boolean {
  const buf = Buffer.alloc(4);
  const h = openSync(path, 'r');
  try {
    if (readSync(h, buf, 0, 4, 0) < 4) return false;
  } finally {
    closeSync(h);
  }
  return buf[0] === 0x50 && buf[1] === 0x4b && ((buf[2] === 3 && buf[3] === 4) || (buf[2] === 5 && buf[3] === 6));
}

export class ZipArchive {
  readonly file: string;
  private readonly zip: ZipFile;
  private readonly byName = new Map<string, Entry>();
  private readonly maxTotal: number;
  private inflated = 0;

  private constructor(file: string, zip: ZipFile, maxTotal: number) {
    this.file = file;
    this.zip = zip;
    this.maxTotal = maxTotal;
  }

  /** Opens and checks the archive: entry count, path traversal and declared total size. */
  static async open(file: string, limits: ZipLimits = {}): Promise<ZipArchive> {
    const maxTotal = limits.max_total_bytes ?? ZIP_DEFAULTS.max_total_bytes;
    const maxEntries = limits.max_entries ?? ZIP_DEFAULTS.max_entries;
    let size: number;
    try {
      const st = statSync(file);
      if (!st.isFile()) throw new KbArchiveError('not_found', file, 'is not a regular file');
      size = st.size;
    } catch (e) {
      if (e instanceof KbArchiveError) throw e;
      throw new KbArchiveError('not_found', file, 'cannot be read (no such file or no permission)');
    }
    if (size < 22)
      throw new KbArchiveError(
        'not_zip',
        file,
        'is not a ZIP archive (too short for an end-of-central-directory record)',
      );
    const zip = await new Promise<ZipFile>((resolve, reject) => {
      yauzlOpen(
        file,
        { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false },
        (err, z) => {
          if (err || !z) reject(mapYauzlError(file, err));
          else resolve(z);
        },
      );
    });
    const archive = new ZipArchive(file, zip, maxTotal);
    try {
      if (zip.entryCount > maxEntries) {
        throw new KbArchiveError(
          'too_many_entries',
          file,
          `holds ${zip.entryCount} entries; the bound is ${maxEntries}`,
        );
      }
      let declared = 0;
      await new Promise<void>((resolve, reject) => {
        const fail = (e: unknown) => {
          zip.removeAllListeners('entry');
          reject(e);
        };
        zip.on('error', (e) => fail(mapYauzlError(file, e)));
        zip.on('end', () => resolve());
        zip.on('entry', (entry: Entry) => {
          const name = entry.fileName;
          if (escapesRoot(name))
            return fail(new KbArchiveError('path_traversal', file, 'entry path escapes the archive root', name));
          declared += entry.uncompressedSize;
          if (declared > maxTotal)
            return fail(
              new KbArchiveError('too_large', file, `expands to more than ${maxTotal} bytes (the bound)`, name),
            );
          if (!name.endsWith('/')) archive.byName.set(name.replace(/\\/g, '/').replace(/^\.\//, ''), entry);
          zip.readEntry();
        });
        zip.readEntry();
      });
    } catch (e) {
      zip.close();
      throw e;
    }
    return archive;
  }

  /** File entry names (folders left out), in central-directory order. */
  names(): string[] {
    return [...this.byName.keys()];
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The entry's bytes as a stream; the running total over all entries read is held to the bound. */
  async stream(name: string): Promise<Readable> {
    const entry = this.byName.get(name);
    if (!entry) throw new KbArchiveError('missing_entry', this.file, 'no such entry in the archive', name);
    if (entry.isEncrypted()) throw new KbArchiveError('encrypted_entry', this.file, 'entry is encrypted', name);
    const raw = await new Promise<Readable>((resolve, reject) => {
      this.zip.openReadStream(entry, (err, s) =>
        err || !s ? reject(mapYauzlError(this.file, err, name)) : resolve(s),
      );
    });
    const self = this;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb: TransformCallback) {
        self.inflated += chunk.length;
        if (self.inflated > self.maxTotal) {
          cb(
            new KbArchiveError('too_large', self.file, `expands to more than ${self.maxTotal} bytes (the bound)`, name),
          );
          return;
        }
        cb(null, chunk);
      },
    });
    raw.on('error', (e) => counter.destroy(mapYauzlError(this.file, e, name)));
    return raw.pipe(counter);
  }

  /** The whole entry as UTF-8 text (for small members such as channels.json), at most `maxBytes`. */
  async text(name: string, maxBytes = 64 * 1024 * 1024): Promise<string> {
    const entry = this.byName.get(name);
    if (entry && entry.uncompressedSize > maxBytes) {
      throw new KbArchiveError('too_large', this.file, `entry is larger than ${maxBytes} bytes`, name);
    }
    const s = await this.stream(name);
    const parts: Buffer[] = [];
    let n = 0;
    for await (const chunk of s) {
      n += (chunk as Buffer).length;
      if (n > maxBytes) {
        s.destroy();
        throw new KbArchiveError('too_large', this.file, `entry is larger than ${maxBytes} bytes`, name);
      }
      parts.push(chunk as Buffer);
    }
    return Buffer.concat(parts).toString('utf8');
  }

  close(): void {
    this.zip.close();
  }
}

function mapYauzlError(file: string, err: unknown, entry?: string): KbArchiveError {
  if (err instanceof KbArchiveError) return err;
  const msg = err instanceof Error ? err.message : String(err);
  if (/end of central directory record signature not found/i.test(msg)) {
    return new KbArchiveError('not_zip', file, 'is not a ZIP archive (no end-of-central-directory record)', entry);
  }
  if (/invalid relative path|absolute path|invalid characters in fileName/i.test(msg)) {
    return new KbArchiveError('path_traversal', file, `entry path escapes the archive root (${msg})`, entry);
  }
  if (/too many bytes in the stream|exceeds/i.test(msg)) {
    return new KbArchiveError('too_large', file, `entry expands beyond its declared size (${msg})`, entry);
  }
  return new KbArchiveError('corrupt_archive', file, `corrupt archive: ${msg}`, entry);
}
